package paxos

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func runAll(n, ballots int, drop func(int, Msg) bool) []*Replica {
	nw := NewNetwork(n)
	nw.SetDrop(drop)
	rs := make([]*Replica, n)
	for i := range rs {
		rs[i] = NewReplica(i, nw, fmt.Sprintf("v%d", i), time.Second)
	}
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Go(func() { r.Run(ballots) })
	}
	wg.Wait()
	return rs
}

// TestLossless: every replica decides the value of the leader of ballot 1.
func TestLossless(t *testing.T) {
	for _, n := range []int{3, 5} {
		synctest.Test(t, func(t *testing.T) {
			for i, r := range runAll(n, 4, nil) {
				v, ok := r.Decision()
				if !ok || v != "v1" {
					t.Errorf("n=%d replica %d: decision %q, %v; want v1", n, i, v, ok)
				}
			}
		})
	}
}

// TestAgreementUnderLoss: no two replicas decide differently.
func TestAgreementUnderLoss(t *testing.T) {
	for seed := range uint64(20) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			drop := func(int, Msg) bool { return rng.IntN(100) < 30 }
			decided := map[string]bool{}
			for _, r := range runAll(5, 12, drop) {
				if v, ok := r.Decision(); ok {
					decided[v] = true
				}
			}
			if len(decided) > 1 {
				t.Errorf("seed %d: replicas decided %v", seed, decided)
			}
		})
	}
}
