package twopc

import (
	"context"
	"maps"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func canDo(i, t int) bool { return (i*7+t)%5 != 0 }

// TestOutcomes: without loss, a transaction commits iff every participant
// can do it, and everybody learns every outcome.
func TestOutcomes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n, txns = 4, 6
		ns := NewNodes(n, txns, canDo, time.Second)
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for _, nd := range ns[1:] {
			wg.Go(func() { nd.Run(ctx) })
		}
		ns[Coordinator].Run(ctx)
		synctest.Wait()
		cancel()
		wg.Wait()

		want := map[int]bool{}
		for tx := 1; tx <= txns; tx++ {
			all := true
			for i := 1; i < n; i++ {
				all = all && canDo(i, tx)
			}
			want[tx] = all
		}
		for i, nd := range ns {
			if got := nd.Outcomes(); !maps.Equal(got, want) {
				t.Errorf("node %d: outcomes %v, want %v", i, got, want)
			}
		}
	})
}

// TestLostVotes: participants that stop early make the coordinator abort
// on its timer; no transaction commits unless all voted yes, and nobody
// learns a different outcome.
func TestLostVotes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n, txns = 5, 8
		ns := NewNodes(n, txns, func(int, int) bool { return true }, time.Second)
		ctx, cancel := context.WithCancel(context.Background())
		crash, stop := context.WithTimeout(ctx, 3500*time.Millisecond)
		defer stop()
		var wg sync.WaitGroup
		for i, nd := range ns[1:] {
			c := ctx
			if i == 2 {
				c = crash // participant 3 stops during transaction 3
			}
			wg.Go(func() { nd.Run(c) })
		}
		ns[Coordinator].Run(ctx)
		synctest.Wait()
		cancel()
		wg.Wait()

		coord := ns[Coordinator].Outcomes()
		commits := 0
		for tx, c := range coord {
			if c {
				commits++
				for i, nd := range ns[1:] {
					if !nd.Votes()[tx] {
						t.Errorf("txn %d committed without participant %d's yes", tx, i+1)
					}
				}
			}
		}
		if commits != 3 || len(coord) != txns {
			t.Errorf("coordinator outcomes %v: want 3 commits of %d", coord, txns)
		}
		for i, nd := range ns[1:] {
			for tx, c := range nd.Outcomes() {
				if c != coord[tx] {
					t.Errorf("participant %d: txn %d outcome %v, coordinator %v", i+1, tx, c, coord[tx])
				}
			}
		}
	})
}
