package simplex

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

func run(t *testing.T, n int, ids []int, last int, delta time.Duration) map[int][]Block {
	t.Helper()
	nw := NewNetwork(n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := make(map[int][]Block)
	for _, id := range ids {
		wg.Go(func() {
			cfg := Config{ID: id, Net: nw, Delta: delta, Payload: func(h int) string { return fmt.Sprintf("tx%d", h) }}
			chain, err := Run(cfg, last)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			out[id] = chain
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

func block(h, parent int) Block {
	return Block{Iter: h, Parent: parent, Payload: fmt.Sprintf("tx%d", h)}
}

func TestAllCorrect(t *testing.T) {
	out := run(t, 4, []int{0, 1, 2, 3}, 4, 2*time.Second)
	want := []Block{block(1, 0), block(2, 1), block(3, 2), block(4, 3)}
	for id, got := range out {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("process %d finalized %+v, want %+v", id, got, want)
		}
	}
}

func TestCrashedLeader(t *testing.T) {
	// Process 1 is down: iterations 1 and 5, which it leads, notarize the
	// dummy block, and the chain skips them.
	out := run(t, 4, []int{0, 2, 3}, 5, 100*time.Millisecond)
	want := []Block{block(2, 0), block(3, 2), block(4, 3)}
	for id, got := range out {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("process %d finalized %+v, want %+v", id, got, want)
		}
	}
}

func TestBadConfig(t *testing.T) {
	_, err := Run(Config{ID: 4, Net: NewNetwork(4), Delta: time.Second}, 1)
	if err == nil || err.Error() != "simplex: bad config: id 4 of 4 processes, delta 1s" {
		t.Errorf("got %v", err)
	}
}
