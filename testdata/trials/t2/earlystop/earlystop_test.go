package earlystop

import (
	"context"
	"sync"
	"testing"
	"time"
)

type result struct {
	decision int
	ok       bool
}

func run(t *testing.T, inputs []int, tf int, crashes map[int]*Crash) []result {
	t.Helper()
	n := len(inputs)
	inboxes := make([]chan Flood, n)
	peers := make([]chan<- Flood, n)
	for i := range inboxes {
		inboxes[i] = make(chan Flood, 256)
		peers[i] = inboxes[i]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out := make([]result, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range n {
		p := NewProcess(i, tf, peers, &mu, inboxes[i], 100*time.Millisecond, crashes[i])
		wg.Go(func() {
			d, ok := p.Consensus(ctx, 7, inputs[i])
			out[i] = result{d, ok}
		})
	}
	wg.Wait()
	return out
}

func TestNoCrash(t *testing.T) {
	got := run(t, []int{5, 3, 8, 4}, 2, nil)
	for i, r := range got {
		if !r.ok || r.decision != 3 {
			t.Errorf("process %d: %+v, want decision 3", i, r)
		}
	}
}

func TestSilentCrash(t *testing.T) {
	// Process 3, holding the minimum, crashes before sending anything: the
	// others decide the minimum of their own values in round 2.
	got := run(t, []int{5, 3, 8, 1}, 2, map[int]*Crash{3: {Round: 1}})
	for i, r := range got[:3] {
		if !r.ok || r.decision != 3 {
			t.Errorf("process %d: %+v, want decision 3", i, r)
		}
	}
	if got[3].ok {
		t.Errorf("crashed process 3 decided %d", got[3].decision)
	}
}

func TestPartialCrash(t *testing.T) {
	// Process 3 crashes in round 1 after reaching process 0 only. Process 0
	// heard everybody and decides 1 at once; it tells the others in round 2.
	got := run(t, []int{5, 3, 8, 1}, 2, map[int]*Crash{3: {Round: 1, Reach: []int{0}}})
	for i, r := range got[:3] {
		if !r.ok || r.decision != 1 {
			t.Errorf("process %d: %+v, want decision 1", i, r)
		}
	}
}
