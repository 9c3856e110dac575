package kset

import (
	"math"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// network delivers every broadcast to all inboxes one millisecond later;
// inside a synctest bubble this paces the processes, so that none runs
// ahead of a message it waits for. Inboxes never fill up in these tests.
type network struct {
	mu    sync.Mutex
	inbox []chan Value
	drop  func(to int, m Value) bool // loss model; nil loses nothing
}

type endpoint struct {
	nw *network
	id int
}

func (e endpoint) Broadcast(m Value) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for to, ch := range e.nw.inbox {
		if e.nw.drop == nil || !e.nw.drop(to, m) {
			time.AfterFunc(time.Millisecond, func() { ch <- m })
		}
	}
}

func (e endpoint) Recv(deadline time.Time) (Value, error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case m := <-e.nw.inbox[e.id]:
		return m, nil
	case <-timer.C:
		return Value{}, ErrTimeout
	}
}

// run runs the processes of inputs inside a synctest bubble; start[id] is
// how long process id waits before it starts, and a negative start means
// the process has crashed from the beginning.
func run(t *testing.T, inputs []float64, f, rounds int, start []time.Duration, drop func(int, Value) bool) []Result {
	t.Helper()
	res := make([]Result, len(inputs))
	synctest.Test(t, func(t *testing.T) {
		nw := &network{inbox: make([]chan Value, len(inputs)), drop: drop}
		for i := range nw.inbox {
			nw.inbox[i] = make(chan Value, 4096)
		}
		var wg sync.WaitGroup
		for id, x := range inputs {
			if start != nil && start[id] < 0 {
				continue
			}
			wg.Go(func() {
				if start != nil {
					time.Sleep(start[id])
				}
				res[id] = Run(Config{ID: id, N: len(inputs), F: f, Input: x, Rounds: rounds,
					Timeout: time.Second}, endpoint{nw: nw, id: id})
			})
		}
		wg.Wait()
	})
	return res
}

// check asserts validity (every estimate in [lo, hi]) and that the final
// estimates of the processes in ids are within (hi-lo)/2^rounds.
func check(t *testing.T, res []Result, ids []int, lo, hi float64, rounds int) {
	t.Helper()
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, id := range ids {
		r := res[id]
		if len(r.History) != rounds {
			t.Errorf("process %d updated %d times, want %d", id, len(r.History), rounds)
		}
		for _, x := range r.History {
			if x < lo || x > hi {
				t.Errorf("process %d: estimate %v outside [%v, %v]", id, x, lo, hi)
			}
		}
		minX, maxX = min(minX, r.X), max(maxX, r.X)
	}
	if bound := (hi - lo) / math.Exp2(float64(rounds)); maxX-minX > bound {
		t.Errorf("final estimates span %v, more than %v", maxX-minX, bound)
	}
}

func TestConverges(t *testing.T) {
	res := run(t, []float64{0, 10, 20, 30}, 1, 8, nil, nil)
	check(t, res, []int{0, 1, 2, 3}, 0, 30, 8)
}

func TestCrashed(t *testing.T) {
	res := run(t, []float64{0, 10, 20, 30, 40}, 2, 6, []time.Duration{0, 0, 0, -1, -1}, nil)
	check(t, res, []int{0, 1, 2}, 0, 40, 6)
}

// TestLateStarter: process 3 starts after the others finished; it finds all
// their messages queued and goes through the rounds on them.
func TestLateStarter(t *testing.T) {
	res := run(t, []float64{0, 10, 20, 30}, 1, 5, []time.Duration{0, 0, 0, time.Minute}, nil)
	check(t, res, []int{0, 1, 2, 3}, 0, 30, 5)
}

// TestCatchUp: process 3 starts late and loses every message of rounds 1
// and 2 from the others; in its round 1 it finds the values of rounds 3 to
// 5, jumps to round 5 and updates once, from the round-5 values.
func TestCatchUp(t *testing.T) {
	lost := func(to int, m Value) bool { return to == 3 && m.From != 3 && m.Round <= 2 }
	res := run(t, []float64{0, 10, 20, 30}, 1, 5, []time.Duration{0, 0, 0, time.Minute}, lost)
	check(t, res, []int{0, 1, 2}, 0, 30, 5)
	if len(res[3].History) != 1 {
		t.Fatalf("process 3 updated %d times, want 1", len(res[3].History))
	}
	sent := []Value{{X: res[0].History[3]}, {X: res[1].History[3]}, {X: res[2].History[3]}}
	if want := midpoint(sent); res[3].X != want {
		t.Errorf("process 3 ends with %v, want the midpoint %v of the round-5 values", res[3].X, want)
	}
}
