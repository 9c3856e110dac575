package raftlog

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func runAll(rs []*Replica, terms int) {
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Go(func() { r.Run(terms) })
	}
	wg.Wait()
}

// TestLossless: each term's leader appends and commits one command.
func TestLossless(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rs := NewCluster(3, time.Second, nil)
		runAll(rs, 4)
		want := []Entry{{1, "1.0"}, {2, "2.0"}, {3, "0.0"}, {4, "1.1"}}
		for i, r := range rs {
			if got := r.Committed(); !slices.Equal(got, want) {
				t.Errorf("replica %d committed %v, want %v", i, got, want)
			}
		}
	})
}

// TestPrefixUnderLoss: committed logs are prefixes of one another.
func TestPrefixUnderLoss(t *testing.T) {
	for seed := range uint64(20) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 5))
			var mu sync.Mutex
			drop := func(int, any) bool { mu.Lock(); defer mu.Unlock(); return rng.IntN(100) < 25 }
			rs := NewCluster(5, time.Second, drop)
			runAll(rs, 12)
			for i, a := range rs {
				for j, b := range rs {
					ca, cb := a.Committed(), b.Committed()
					if len(ca) <= len(cb) && !slices.Equal(ca, cb[:len(ca)]) {
						t.Errorf("seed %d: replica %d committed %v, replica %d %v", seed, i, ca, j, cb)
					}
				}
			}
		})
	}
}
