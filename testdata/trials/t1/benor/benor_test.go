package benor

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// envelope is a message in flight with its sender.
type envelope struct {
	from int
	m    any
}

// network is an in-memory network. A broadcast enqueues all its copies under
// one lock, so delivery is causal; inboxes are large enough never to block.
type network struct {
	mu    sync.Mutex
	inbox []chan envelope
}

func newNetwork(n int) *network {
	nw := &network{inbox: make([]chan envelope, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan envelope, 1<<14)
	}
	return nw
}

// endpoint is the Transport of process id.
type endpoint struct {
	nw *network
	id int
}

func (e endpoint) Broadcast(m any) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for _, ch := range e.nw.inbox {
		ch <- envelope{from: e.id, m: m}
	}
}

func (e endpoint) Recv(timeout time.Duration) (any, int, bool) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case env := <-e.nw.inbox[e.id]:
		return env.m, env.from, true
	case <-timer.C:
		return nil, 0, false
	}
}

// runAll runs the processes whose ids are not in crashed, inside a synctest
// bubble so that time-outs fire only when every process is blocked.
func runAll(t *testing.T, inputs []int, f int, crashed map[int]bool, seed uint64) []Result {
	t.Helper()
	res := make([]Result, len(inputs))
	synctest.Test(t, func(t *testing.T) {
		nw := newNetwork(len(inputs))
		var wg sync.WaitGroup
		for id, in := range inputs {
			if crashed[id] {
				continue
			}
			wg.Go(func() {
				res[id] = Run(Config{ID: id, N: len(inputs), F: f, Input: in, Seed: seed,
					Timeout: time.Second, MaxPhases: 100}, endpoint{nw: nw, id: id})
			})
		}
		wg.Wait()
	})
	return res
}

func TestUnanimousDecidesInPhaseOne(t *testing.T) {
	for _, v := range []int{0, 1} {
		res := runAll(t, []int{v, v, v, v, v}, 2, nil, 1)
		for id, r := range res {
			if !r.Decided || r.Value != v || r.Phase != 1 {
				t.Errorf("input %d: process %d: got %+v, want a decision of %d in phase 1", v, id, r, v)
			}
		}
	}
}

func TestAgreementMixedInputs(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		for _, crashed := range []map[int]bool{nil, {4: true}, {0: true, 3: true}} {
			res := runAll(t, []int{0, 1, 0, 1, 1}, 2, crashed, seed)
			want := -1
			for id, r := range res {
				if crashed[id] {
					continue
				}
				if !r.Decided || r.Phases != 100 {
					t.Fatalf("seed %d crashed %v: process %d: %+v, want a decision and 100 phases", seed, crashed, id, r)
				}
				if want < 0 {
					want = r.Value
				}
				if r.Value != want {
					t.Fatalf("seed %d crashed %v: process %d decided %d, another %d", seed, crashed, id, r.Value, want)
				}
			}
		}
	}
}
