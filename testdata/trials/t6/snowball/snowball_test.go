package snowball

import (
	"sync"
	"testing"
	"time"
)

// vnet is a transport with virtual time: the timer of every waiting node
// fires at once when all running nodes wait in Recv with an empty inbox.
// Steps therefore end together, after every message of the step was
// delivered, and a run depends only on the seeds.
type vnet struct {
	mu      sync.Mutex
	cond    *sync.Cond
	inbox   [][]any
	exited  []bool
	running int // nodes that have not returned from Run
	waiting int // running nodes blocked in Recv on an empty inbox
	gen     int // number of times the timers fired
}

func newVnet(n int) *vnet {
	v := &vnet{inbox: make([][]any, n), exited: make([]bool, n), running: n}
	v.cond = sync.NewCond(&v.mu)
	return v
}

type vport struct {
	v  *vnet
	id int
}

func (p vport) Send(to int, m any) {
	p.v.mu.Lock()
	defer p.v.mu.Unlock()
	if !p.v.exited[to] {
		p.v.inbox[to] = append(p.v.inbox[to], m)
		p.v.cond.Broadcast()
	}
}

// Recv ignores the real timer: its time is virtual.
func (p vport) Recv(<-chan time.Time) (any, bool) {
	v := p.v
	v.mu.Lock()
	defer v.mu.Unlock()
	gen := v.gen
	for {
		if v.gen != gen {
			return nil, false // before the inbox: what is there belongs to the next step
		}
		if q := v.inbox[p.id]; len(q) > 0 {
			v.inbox[p.id] = q[1:]
			return q[0], true
		}
		v.waiting++
		if v.fire() {
			return nil, false
		}
		v.cond.Wait()
		if v.gen == gen {
			v.waiting-- // woken by a send, not by the timers
		}
	}
}

// fire fires the timers if every running node waits and nothing is in
// flight (a waiting node may not have run yet since a send woke it); v.mu is
// held.
func (v *vnet) fire() bool {
	if v.running == 0 || v.waiting < v.running {
		return false
	}
	for _, q := range v.inbox {
		if len(q) > 0 {
			return false
		}
	}
	v.gen++
	v.waiting = 0
	v.cond.Broadcast()
	return true
}

func (v *vnet) exit(id int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.running--
	v.exited[id] = true
	v.inbox[id] = nil
	v.fire()
}

var params = Params{N: 7, K: 4, Alpha: 3, Beta: 4, Seed: 42, Step: time.Hour}

func runVirtual(prefs []string, polls int) []Outcome[string] {
	v := newVnet(len(prefs))
	out := make([]Outcome[string], len(prefs))
	var wg sync.WaitGroup
	for id := range prefs {
		wg.Go(func() {
			out[id] = Run(id, params, vport{v, id}, prefs[id], polls)
			v.exit(id)
		})
	}
	wg.Wait()
	return out
}

// TestMajorityWins: blue is held by two nodes only, so no poll can ever see
// alpha = 3 blue answers: every node must decide red.
func TestMajorityWins(t *testing.T) {
	nodes := runVirtual([]string{"red", "blue", "red", "red", "blue", "red", "red"}, 20)
	for id, nd := range nodes {
		if c, ok := nd.Decision, nd.Decided; !ok || c != "red" {
			t.Errorf("node %d: decision %q (decided %v), want red", id, c, ok)
		}
	}
}

// TestUnanimousDecidesAfterBeta: when all agree and no message is lost,
// every poll succeeds, so every node decides after exactly beta polls.
func TestUnanimousDecidesAfterBeta(t *testing.T) {
	prefs := []string{"blue", "blue", "blue", "blue", "blue", "blue", "blue"}
	nodes := runVirtual(prefs, params.Beta)
	for id, nd := range nodes {
		want := Outcome[string]{Decided: true, Decision: "blue", Preference: "blue", Confidence: params.Beta, Rounds: params.Beta}
		if nd != want {
			t.Errorf("node %d: %+v, want %+v", id, nd, want)
		}
	}
}

// TestDeterministic: two runs with the same seeds decide alike, poll for
// poll.
func TestDeterministic(t *testing.T) {
	prefs := []string{"red", "blue", "blue", "red", "blue", "red", "blue"}
	a, b := runVirtual(prefs, 12), runVirtual(prefs, 12)
	for id := range a {
		if a[id] != b[id] {
			t.Errorf("node %d: run 1 %+v, run 2 %+v", id, a[id], b[id])
		}
	}
}

// TestRealTimeSafety runs over Mem with real timers: steps may end before
// every message arrives, but blue can still never be decided.
func TestRealTimeSafety(t *testing.T) {
	p := params
	p.Step = 3 * time.Millisecond
	prefs := []string{"red", "blue", "red", "red", "blue", "red", "red"}
	mem := NewMem(p.N)
	out := make([]Outcome[string], p.N)
	var wg sync.WaitGroup
	for id := range out {
		wg.Go(func() { out[id] = Run(id, p, mem.Endpoint(id), prefs[id], 20) })
	}
	wg.Wait()
	for id, o := range out {
		if o.Decided && o.Decision != "red" {
			t.Errorf("node %d decided %q", id, o.Decision)
		}
	}
}
