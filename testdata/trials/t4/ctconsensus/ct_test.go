package ctconsensus

import "testing"

type envelope struct {
	from, to int
	m        any
}

// network is a FIFO in-memory network; drop decides which copies are lost.
type network struct {
	queue []envelope
	drop  func(e envelope) bool
}

type port struct {
	nw   *network
	from int
}

func (p port) Deliver(to int, m any) {
	e := envelope{p.from, to, m}
	if p.nw.drop == nil || !p.nw.drop(e) {
		p.nw.queue = append(p.nw.queue, e)
	}
}

// run runs processes with the given initial values until every process
// not in crashed decided; crashed processes receive nothing and what they
// send is subject to drop like the rest; after, if not nil, is called after
// each delivery. When the network is quiet, every live process suspects
// its coordinator.
func run(t *testing.T, values []string, crashed map[int]bool, drop func(envelope) bool, after func([]*Process)) []*Process {
	t.Helper()
	nw := &network{drop: drop}
	ps := make([]*Process, len(values))
	for i, v := range values {
		ps[i] = NewProcess(i, len(values), port{nw, i}, v)
	}
	done := func() bool {
		for i, p := range ps {
			if !crashed[i] && !p.Decided {
				return false
			}
		}
		return true
	}
	for steps := 0; !done(); steps++ {
		if steps > 10000 {
			t.Fatal("processes did not decide")
		}
		if len(nw.queue) == 0 {
			for i, p := range ps {
				if !crashed[i] {
					p.OnSuspect()
				}
			}
			continue
		}
		e := nw.queue[0]
		nw.queue = nw.queue[1:]
		if crashed[e.to] {
			continue
		}
		switch m := e.m.(type) {
		case Envelope[Estimate]:
			ps[e.to].OnEstimate(m)
		case Envelope[Proposal]:
			ps[e.to].OnPropose(m)
		case Envelope[Reply]:
			ps[e.to].OnReply(m)
		case Envelope[Decide]:
			ps[e.to].OnDecide(m)
		}
		if after != nil {
			after(ps)
		}
	}
	return ps
}

func agree(t *testing.T, ps []*Process, want string) {
	t.Helper()
	for _, p := range ps {
		if p.Decided && p.Decision != want {
			t.Fatalf("process %d decided %q, want %q", p.id, p.Decision, want)
		}
	}
}

func TestFirstCoordinatorDecides(t *testing.T) {
	ps := run(t, []string{"a", "b", "c"}, nil, nil, nil)
	// Coordinator 0 receives its own estimate first; all are initial.
	agree(t, ps, "a")
	for _, p := range ps {
		if p.round != 0 {
			t.Fatalf("process %d decided in round %d, want 0", p.id, p.round)
		}
	}
}

func TestCoordinatorCrashesAfterDeciding(t *testing.T) {
	// Process 0 decides "a" in round 0 and crashes before its Decide
	// leaves: processes 1 and 2 must decide "a" too, in a later round.
	crashed := map[int]bool{}
	drop := func(e envelope) bool {
		_, decide := e.m.(Envelope[Decide])
		return crashed[e.from] || decide && e.from == 0 && e.to != 0
	}
	after := func(ps []*Process) { crashed[0] = ps[0].Decided }
	ps := run(t, []string{"a", "b", "c"}, crashed, drop, after)
	if !ps[0].Decided {
		t.Fatal("process 0 did not decide")
	}
	agree(t, ps, "a")
	if ps[1].round != 1 || ps[2].round != 1 {
		t.Fatalf("processes 1, 2 decided in rounds %d, %d, want 1", ps[1].round, ps[2].round)
	}
}

func TestCoordinatorCrashesBeforeProposing(t *testing.T) {
	crashed := map[int]bool{0: true}
	ps := run(t, []string{"a", "b", "c"}, crashed, func(e envelope) bool { return crashed[e.from] }, nil)
	// Round 1's coordinator, process 1, hears its own estimate first.
	agree(t, ps, "b")
}
