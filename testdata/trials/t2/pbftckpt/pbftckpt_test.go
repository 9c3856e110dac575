package pbftckpt

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

func run(t *testing.T, n int, windows uint64, drop func(int, any) bool) []*Replica {
	t.Helper()
	nw := NewNetwork(n)
	nw.SetDrop(drop)
	reps := make([]*Replica, n)
	for i := range reps {
		reps[i] = NewReplica(int32(i), n, 3, nw.Endpoint(i), 200*time.Millisecond, func(w uint64, k int) []string {
			var reqs []string
			for j := range k {
				reqs = append(reqs, fmt.Sprintf("w%d.r%d", w, j))
			}
			return reqs
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, r := range reps {
		wg.Go(func() {
			if err := r.Run(ctx, windows); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	return reps
}

func TestStableCheckpoints(t *testing.T) {
	reps := run(t, 4, 4, nil)
	ref := reps[0].Checkpoints()
	if len(ref) != 4 {
		t.Fatalf("replica 0 has %d stable checkpoints, want 4", len(ref))
	}
	for i, r := range reps {
		cps := r.Checkpoints()
		if len(cps) != 4 {
			t.Fatalf("replica %d has %d stable checkpoints, want 4", i, len(cps))
		}
		for w, c := range cps {
			if c.Window != uint64(w+1) || c.Seq != uint64(3*(w+1)) || !bytes.Equal(c.Digest, ref[w].Digest) {
				t.Errorf("replica %d checkpoint %d = %+v, want window %d seq %d digest %x", i, w, c, w+1, 3*(w+1), ref[w].Digest)
			}
		}
		if len(r.Log()) != 0 {
			t.Errorf("replica %d kept %d log entries after the last stable checkpoint", i, len(r.Log()))
		}
	}
}

func TestReplicaMissesBatch(t *testing.T) {
	// Replica 3 never gets window 2's batch: it still learns window 2's
	// stable checkpoint from the other three, and knows it must fetch state.
	drop := func(to int, msg any) bool {
		b, ok := msg.(*Batch)
		return ok && to == 3 && b.Window == 2
	}
	reps := run(t, 4, 2, drop)
	want := reps[0].Checkpoints()
	got := reps[3].Checkpoints()
	if len(got) != 2 || !bytes.Equal(got[1].Digest, want[1].Digest) {
		t.Errorf("replica 3 checkpoints %+v, want %+v", got, want)
	}
	if !reps[3].needsFetch || reps[0].needsFetch {
		t.Errorf("needsFetch: replica 3 %v, replica 0 %v; want true, false", reps[3].needsFetch, reps[0].needsFetch)
	}
}
