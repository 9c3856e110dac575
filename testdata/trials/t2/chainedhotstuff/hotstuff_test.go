package chainedhotstuff

import (
	"sync"
	"testing"
	"time"
)

func TestCommit(t *testing.T) {
	const n, views = 4, 8
	nw := NewNetwork(n)
	reps := make([]*Replica, n)
	for i := range reps {
		reps[i] = NewReplica(i, n, nw.Endpoint(i), 500*time.Millisecond)
	}
	var wg sync.WaitGroup
	for _, r := range reps {
		wg.Go(func() { r.Run(views) })
	}
	wg.Wait()
	// Every view certifies its block, so the proposal of view v commits the
	// block of view v-3: after view 8, blocks 1..5.
	for i, r := range reps {
		got := r.Committed()
		if len(got) != 5 {
			t.Fatalf("replica %d committed %d blocks, want 5", i, len(got))
		}
		for k, b := range got {
			if b.View != k+1 || b.Hash != reps[0].Committed()[k].Hash {
				t.Errorf("replica %d: committed block %d is %+v", i, k, b)
			}
		}
	}
}
