package streamlet

import (
	"context"
	"sync"
	"testing"
	"time"
)

func run(t *testing.T, n, epochs int) []*Replica {
	t.Helper()
	inboxes := make([]chan any, n)
	peers := make([]chan<- any, n)
	for i := range inboxes {
		inboxes[i] = make(chan any, 1024)
		peers[i] = inboxes[i]
	}
	var mu sync.Mutex
	reps := make([]*Replica, n)
	for i := range reps {
		reps[i] = NewReplica(i, peers, &mu, inboxes[i], 500*time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, r := range reps {
		wg.Go(func() {
			if err := r.Run(ctx, epochs); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	return reps
}

func TestFinality(t *testing.T) {
	reps := run(t, 4, 6)
	ref := reps[0].Finalized()
	for i, r := range reps {
		got := r.Finalized()
		// Without loss every epoch notarizes its block, so blocks 4, 5 and 6
		// finalize the chain up to the block of epoch 5.
		if len(got) != 5 {
			t.Fatalf("replica %d finalized %d blocks, want 5", i, len(got))
		}
		if tr := r.Trace(); len(tr) != 12 || tr[0] != "1/0" || tr[1] != "1/1" || tr[11] != "6/1" {
			t.Errorf("replica %d went through rounds %v, want 1/0 1/1 ... 6/1", i, tr)
		}
		for k, b := range got {
			if b.Epoch != k+1 || b.Hash != ref[k].Hash {
				t.Errorf("replica %d: final block %d is %+v, want epoch %d hash %s", i, k, b, k+1, ref[k].Hash)
			}
		}
	}
}
