package floodmin

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

const (
	period = 10 * time.Millisecond
	delay  = time.Millisecond // message delay, shorter than a round
)

// wires returns n inboxes and, for each, a channel whose messages reach the
// inbox after delay: the network of a synchronous system.
func wires(n int) (inboxes []chan Flood, peers []chan<- Flood) {
	for range n {
		in := make(chan Flood, 1024)
		w := make(chan Flood, 1024)
		go func() {
			for m := range w {
				time.AfterFunc(delay, func() { in <- m })
			}
		}()
		inboxes = append(inboxes, in)
		peers = append(peers, w)
	}
	return inboxes, peers
}

// faulty describes a crashed process: in round r it reaches only the
// processes sends[r] with the values it holds, then stays silent.
type faulty struct {
	id    int
	sends [][]int
	vals  [][]int
}

func run(t *testing.T, inputs []int, f int, bad []faulty) []int {
	t.Helper()
	var got []int
	synctest.Test(t, func(t *testing.T) {
		n := len(inputs) + len(bad)
		inboxes, peers := wires(n)
		out := make([]int, len(inputs))
		var wg sync.WaitGroup
		for id, in := range inputs {
			p := New(id, f, in, period, inboxes[id], peers)
			wg.Go(func() { out[id] = p.Run() })
		}
		for _, b := range bad {
			go func() {
				for r, to := range b.sends {
					for _, q := range to {
						peers[q] <- Flood{Round: r, From: b.id, Values: b.vals[r]}
					}
					time.Sleep(period)
				}
			}()
		}
		wg.Wait()
		for _, w := range peers {
			close(w)
		}
		got = out
	})
	return got
}

func TestNoFailures(t *testing.T) {
	got := run(t, []int{7, 3, 9, 4}, 1, nil)
	for id, d := range got {
		if d != 3 {
			t.Errorf("process %d decided %d, want 3", id, d)
		}
	}
}

// TestCrashChain hides the value 0 behind a chain of two crashes: process 4
// reaches only process 3 in round 0, process 3 reaches only process 2 in
// round 1, and process 2 floods it to everybody in round 2, the last one.
func TestCrashChain(t *testing.T) {
	bad := []faulty{
		{id: 4, sends: [][]int{{3}}, vals: [][]int{{0}}},
		{id: 3, sends: [][]int{{0, 1, 2, 3}, {2}}, vals: [][]int{{1}, {0, 1}}},
	}
	got := run(t, []int{5, 6, 7}, 2, bad)
	for id, d := range got {
		if d != 0 {
			t.Errorf("process %d decided %d, want 0", id, d)
		}
	}
}

// TestCrashOneRound: with f = 1 (two rounds), a process that crashes in
// round 0 after reaching only process 0 has its value relayed in round 1.
func TestCrashOneRound(t *testing.T) {
	bad := []faulty{{id: 3, sends: [][]int{{0}}, vals: [][]int{{1}}}}
	got := run(t, []int{5, 6, 7}, 1, bad)
	for id, d := range got {
		if d != 1 {
			t.Errorf("process %d decided %d, want 1", id, d)
		}
	}
}
