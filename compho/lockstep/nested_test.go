package lockstep_test

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ccvet/ccvet/compho"
	"github.com/ccvet/ccvet/compho/lockstep"
)

func TestWhere(t *testing.T) {
	a := lockstep.Where{{Phase: 1, Round: 2}}
	b := lockstep.Where{{Phase: 1, Round: 2}, {Phase: 0, Round: 1}}
	c := lockstep.Where{{Phase: 1, Round: 2}, {Phase: 3, Round: 0}}
	d := lockstep.Where{{Phase: 2, Round: 0}}
	order := []lockstep.Where{a, b, c, d}
	for i, x := range order {
		for j, y := range order {
			if got, want := x.Compare(y), min(max(i-j, -1), 1); got != want {
				t.Errorf("%v.Compare(%v) = %d, want %d", x, y, got, want)
			}
		}
	}
	if got := c.String(); got != "1.2/3.0" {
		t.Errorf("String = %q", got)
	}
	stack := []compho.Position{{Phase: 1, Round: 2}, {Depth: 1, Phase: 3}}
	if got := lockstep.WhereOf(stack); got.Compare(c) != 0 {
		t.Errorf("WhereOf = %v, want %v", got, c)
	}
}

// msg is a message of the nested toy: its sender and position.
type msg struct {
	from int
	at   lockstep.Where
}

// nestProc is a channel-based process with a nested loop: in each phase
// of its outer loop it broadcasts in rounds 0 and 1; a process that heard
// process 0 in round 1 runs an inner loop of 1 + (phase+id)%3 iterations
// of one round, so that the processes leave the inner loop at different
// times. Each reception keeps the messages of its position until it heard
// everybody or its timer fires.
type nestProc struct {
	id, n int
	in    chan msg
	out   []chan msg
	at    lockstep.Where
	got   map[string][]int
}

func (p *nestProc) round(at lockstep.Where) []int {
	p.at = at
	for _, ch := range p.out {
		ch <- msg{p.id, at}
	}
	heard := []int{}
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
wait:
	for len(heard) < p.n {
		select {
		case m := <-p.in:
			if m.at.Compare(at) == 0 {
				heard = append(heard, m.from)
			}
		case <-timer.C:
			break wait
		}
	}
	p.got[at.String()] = heard
	return heard
}

func (p *nestProc) run(phases int) { nestRun(p.id, phases, p.round) }

// nestRun is the loop of the nested toy; round runs one round at a
// position and returns the senders heard.
func nestRun(id, phases int, round func(lockstep.Where) []int) {
	for ph := range phases {
		round(lockstep.Where{{Phase: ph}})
		if !slices.Contains(round(lockstep.Where{{Phase: ph, Round: 1}}), 0) {
			continue
		}
		for k := range 1 + (ph+id)%3 {
			round(lockstep.Where{{Phase: ph, Round: 1}, {Phase: k}})
		}
	}
}

// The same protocol as compho machines.
type nestOuter struct {
	id, phases int
	done       int
	got        map[string][]int
}

func record(got map[string][]int, c *compho.Ctx, s []compho.Position, mbox compho.Mailbox) []int {
	heard := []int{}
	for _, e := range mbox {
		heard = append(heard, int(e.From))
	}
	got[lockstep.WhereOf(s).String()] = heard
	return heard
}

func (m *nestOuter) Rounds() []compho.Round {
	send := func(c *compho.Ctx) { c.Broadcast(nil) }
	return []compho.Round{
		{Name: "0", Send: send, Update: func(c *compho.Ctx, mbox compho.Mailbox) {
			record(m.got, c, []compho.Position{{Phase: c.Phase(), Round: 0}}, mbox)
		}},
		{Name: "1", Send: send, Update: func(c *compho.Ctx, mbox compho.Mailbox) {
			ph := c.Phase()
			m.done = ph + 1
			if slices.Contains(record(m.got, c, []compho.Position{{Phase: ph, Round: 1}}, mbox), 0) {
				c.Call(&nestInner{outer: ph, iters: 1 + (ph+m.id)%3, got: m.got})
			}
		}},
	}
}

func (m *nestOuter) Halted() bool { return m.done == m.phases }

type nestInner struct {
	outer, iters, done int
	got                map[string][]int
}

func (m *nestInner) Rounds() []compho.Round {
	return []compho.Round{{Name: "I", Send: func(c *compho.Ctx) { c.Broadcast(nil) }, Update: func(c *compho.Ctx, mbox compho.Mailbox) {
		record(m.got, c, []compho.Position{{Phase: m.outer, Round: 1}, {Phase: c.Phase()}}, mbox)
		m.done++
	}}}
}

func (m *nestInner) Halted() bool { return m.done == m.iters }

// TestRunNested runs the nested toy over RunNested under loss, and then
// its machines on compho with the script: every reception of both gets
// the same senders at the same positions, and the asynchronous processes
// that leave the inner loop early receive the next phase's messages only
// with the others (or when their timer fires, as the script says).
func TestRunNested(t *testing.T) {
	const n, phases = 4, 5
	for seed := range int64(10) {
		var script lockstep.NestedScript
		procs := make([]*nestProc, n)
		synctest.Test(t, func(t *testing.T) {
			sinks := make([]chan msg, n)
			for q := range n {
				sinks[q] = make(chan msg, 100)
			}
			done := make([]chan struct{}, n)
			for i := range n {
				procs[i] = &nestProc{id: i, n: n, in: make(chan msg, 100), out: sinks, got: make(map[string][]int)}
				done[i] = make(chan struct{})
				go func() {
					defer close(done[i])
					procs[i].run(phases)
				}()
			}
			var err error
			script, err = lockstep.RunNested(lockstep.NestedConfig{
				N: n, Adversary: compho.RandomLoss(seed, 0.2), Timeout: time.Second,
				Drain: func() []lockstep.NestedPacket {
					var pk []lockstep.NestedPacket
					for q := range n {
						for len(sinks[q]) > 0 {
							m := <-sinks[q]
							pk = append(pk, lockstep.NestedPacket{From: compho.PID(m.from), To: compho.PID(q), At: m.at,
								Deliver: func() { procs[q].in <- m }})
						}
					}
					return pk
				},
				Where: func(p compho.PID) lockstep.Where { return quietAt(procs[p]) },
				Done: func(p compho.PID) bool {
					select {
					case <-done[p]:
						return true
					default:
						return false
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
		})
		ms := make([]*nestOuter, n)
		for i := range ms {
			ms[i] = &nestOuter{id: i, phases: phases, got: make(map[string][]int)}
		}
		if _, err := compho.Run(ms, compho.Config[*nestOuter]{Adversary: script.Adversary(compho.NoLoss())}); err != nil {
			t.Fatal(err)
		}
		inner := 0
		for i := range n {
			for w, heard := range procs[i].got {
				ho := []int{}
				for _, q := range script[compho.PID(i)][w] {
					ho = append(ho, int(q))
				}
				if !slices.Equal(heard, ho) {
					t.Errorf("seed %d, process %d at %s: received from %v, heard-of set %v", seed, i, w, heard, ho)
				}
				if strings.Contains(w, "/") {
					inner++
				}
			}
			if !maps.EqualFunc(procs[i].got, ms[i].got, slices.Equal) {
				t.Errorf("seed %d, process %d:\nasynchronous %v\nmachine      %v", seed, i, procs[i].got, ms[i].got)
			}
		}
		if inner == 0 {
			t.Errorf("seed %d: no inner loop ran", seed)
		}
	}
}

// quietAt reads the position of a process blocked in a reception.
//
//go:norace
func quietAt(p *nestProc) lockstep.Where { return p.at }

// TestNestedNet runs the nested toy over a Net of NewNested, whose
// processes call an Endpoint, and its machines on compho with the same
// adversary by position: every reception of both gets the same senders at
// the same positions. A process that leaves the inner loop early waits in
// its next reception for the others, as the machine waits for the call
// to return.
func TestNestedNet(t *testing.T) {
	const n, phases = 4, 5
	index := func(w lockstep.Where) int { return 10*w[0].Phase + w[0].Round + len(w) + 3*w[len(w)-1].Phase }
	inner := 0
	for seed := range int64(10) {
		adv := compho.RandomLoss(seed, 0.3)
		nt := lockstep.NewNested(n, adv, index)
		got := make([]map[string][]int, n)
		var wg sync.WaitGroup
		for i := range n {
			got[i] = make(map[string][]int)
			var at lockstep.Where
			e := nt.EndpointAt(compho.PID(i), func() lockstep.Where { return at })
			wg.Go(func() {
				defer e.Done()
				nestRun(i, phases, func(w lockstep.Where) []int {
					at = w
					e.Broadcast(nil)
					heard := []int{}
					for {
						_, from, ok := e.Recv()
						if !ok {
							break
						}
						heard = append(heard, int(from))
					}
					got[i][w.String()] = heard
					return heard
				})
			})
		}
		wg.Wait()
		if err := nt.Err(); err != nil {
			t.Fatal(err)
		}
		ms := make([]*nestOuter, n)
		for i := range ms {
			ms[i] = &nestOuter{id: i, phases: phases, got: make(map[string][]int)}
		}
		if _, err := compho.Run(ms, compho.Config[*nestOuter]{Adversary: lockstep.ByPosition(adv, index)}); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if !maps.EqualFunc(got[i], ms[i].got, slices.Equal) {
				t.Errorf("seed %d, process %d:\nasynchronous %v\nmachine      %v", seed, i, got[i], ms[i].got)
			}
			for w := range got[i] {
				if strings.Contains(w, "/") {
					inner++
				}
			}
		}
	}
	if inner == 0 {
		t.Error("no inner loop ran")
	}
}

func TestTagWhere(t *testing.T) {
	for _, tc := range []struct {
		tag  compho.Tag
		want string
	}{
		{nil, ""},
		{compho.Tag{2}, "0.2"},
		{compho.Tag{3, 1}, "3.1"},
		{compho.Tag{4, 2, 1}, "4.0/2.1"},
	} {
		if got := lockstep.TagWhere(tc.tag).String(); got != tc.want {
			t.Errorf("TagWhere(%v) = %q, want %q", tc.tag, got, tc.want)
		}
	}
	// The order of the positions is the order of the tags.
	tags := []compho.Tag{{1, 0, 2}, {1, 1, 0}, {2, 0, 0}, {1, 0, 1}}
	for _, a := range tags {
		for _, b := range tags {
			if got, want := lockstep.TagWhere(a).Compare(lockstep.TagWhere(b)), a.Compare(b); got != want {
				t.Errorf("TagWhere(%v).Compare(lockstep.TagWhere(%v)) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestDiffAgrees(t *testing.T) {
	for _, tc := range []struct {
		async, machine []string
		want           bool
	}{
		{[]string{"a", "c"}, []string{"a", "b", "c"}, true},
		{[]string{"a", "b", "c"}, []string{"a", "b", "c"}, true},
		{[]string{"a", "c", "b"}, []string{"a", "b", "c"}, false},
		{[]string{"a", "b"}, []string{"a", "b", "c"}, false},
		{[]string{"b", "c"}, []string{"a", "b", "c"}, true},
		{[]string{"a", "b"}, []string{"b", "a", "b"}, true},
		{[]string{"b", "a"}, []string{"a", "b", "c", "a"}, true},
		{[]string{"c", "a"}, []string{"a", "b", "c"}, false},
		{nil, nil, true},
		{nil, []string{"a"}, false},
	} {
		if got := lockstep.Agrees(tc.async, tc.machine); got != tc.want {
			t.Errorf("Agrees(%q, %q) = %v, want %v", tc.async, tc.machine, got, tc.want)
		}
	}
}
