package chainedhotstuff

import (
	"sync"
	"testing"
	"time"
)

func run(n, views int, timeout time.Duration, drop func(int, Msg) bool) []*Replica {
	nw := NewNetwork(n)
	nw.SetDrop(drop)
	reps := make([]*Replica, n)
	for i := range reps {
		reps[i] = NewReplica(i, n, nw.Endpoint(i), timeout)
	}
	var wg sync.WaitGroup
	for _, r := range reps {
		wg.Go(func() { r.Run(views) })
	}
	wg.Wait()
	return reps
}

func TestCommit(t *testing.T) {
	reps := run(4, 8, 500*time.Millisecond, nil)
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

func TestLostProposal(t *testing.T) {
	// The proposal of view 3 is lost: everybody sends a NewView to the
	// leader of view 4, which extends the highest QC of a quorum of them.
	drop := func(_ int, m Msg) bool {
		p, ok := m.(*Proposal)
		return ok && p.View == 3
	}
	reps := run(4, 12, 50*time.Millisecond, drop)
	// Safety: committed chains are prefixes of one another (a replica that
	// timed out before a late proposal may be behind), they are chains, and
	// the lost block of view 3 is in none of them.
	for i, a := range reps {
		ca := a.Committed()
		if len(ca) == 0 {
			t.Errorf("replica %d committed nothing", i)
		}
		for k, b := range ca {
			if b.View == 3 {
				t.Errorf("replica %d committed the lost block of view 3", i)
			}
			if k > 0 && b.Parent != ca[k-1].Hash {
				t.Errorf("replica %d: committed block %d does not extend block %d", i, k, k-1)
			}
		}
		for j, b := range reps {
			cb := b.Committed()
			for k := range min(len(ca), len(cb)) {
				if ca[k].Hash != cb[k].Hash {
					t.Errorf("replicas %d and %d committed different blocks at position %d", i, j, k)
					break
				}
			}
		}
	}
}
