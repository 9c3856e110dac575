package bosco

import (
	"sync"
	"testing"
	"time"
)

// runAll runs n processes with the given inputs over buffered channels;
// processes listed in crashed never start. It returns the results of the
// others, indexed by id.
func runAll(t *testing.T, f int, inputs []int, crashed map[int]bool) map[int]Result {
	t.Helper()
	n := len(inputs)
	chans := make([]chan Msg, n)
	out := make([]chan<- Msg, n)
	for i := range chans {
		chans[i] = make(chan Msg, 16*n*(f+2))
		out[i] = chans[i]
	}
	cfg := Config{F: f, Timeout: 40 * time.Millisecond}
	var mu sync.Mutex
	res := map[int]Result{}
	var wg sync.WaitGroup
	for id := range n {
		if crashed[id] {
			continue
		}
		wg.Go(func() {
			r := Run(id, inputs[id], chans[id], out, cfg)
			mu.Lock()
			res[id] = r
			mu.Unlock()
		})
	}
	wg.Wait()
	return res
}

func TestUnanimousDecidesInOneStep(t *testing.T) {
	for _, v := range []int{0, 1} {
		res := runAll(t, 1, []int{v, v, v, v, v, v}, nil)
		for id, r := range res {
			if r != (Result{Decision: v, OneStep: true}) {
				t.Errorf("input %d: process %d got %+v", v, id, r)
			}
		}
	}
}

// TestOneDissenter: with five 1s and one 0, every process sees at least four
// 1s among its n-f votes and adopts 1, so all decide 1 whether or not they
// decided in one step.
func TestOneDissenter(t *testing.T) {
	res := runAll(t, 1, []int{1, 1, 0, 1, 1, 1}, nil)
	if len(res) != 6 {
		t.Fatalf("%d results, want 6", len(res))
	}
	for id, r := range res {
		if r.Decision != 1 {
			t.Errorf("process %d decided %d, want 1", id, r.Decision)
		}
	}
}

// TestCrashedKing: process 0, the king of phase 1, never starts; the others
// (all with input 0) wait for the round time-outs and still decide 0.
func TestCrashedKing(t *testing.T) {
	res := runAll(t, 1, []int{1, 0, 0, 0, 0, 0}, map[int]bool{0: true})
	if len(res) != 5 {
		t.Fatalf("%d results, want 5", len(res))
	}
	for id, r := range res {
		if r != (Result{Decision: 0, OneStep: true}) {
			t.Errorf("process %d got %+v, want a one-step decision of 0", id, r)
		}
	}
}
