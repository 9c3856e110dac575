package ctcons

import (
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func run(n, phases int, drop func(int, Msg) bool) []*Process {
	nt := NewNet(n, drop)
	ps := make([]*Process, n)
	for i := range ps {
		ps[i] = NewProcess(i, n, nt, time.Second)
	}
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() { p.Propose(100+i, phases) })
	}
	wg.Wait()
	return ps
}

// TestLossless: everybody decides, on one of the estimates the first
// coordinator heard (which majority it hears first depends on scheduling).
func TestLossless(t *testing.T) {
	for _, n := range []int{3, 5} {
		synctest.Test(t, func(t *testing.T) {
			vals := map[int]int{}
			for _, p := range run(n, 3, nil) {
				if v, ok := p.Decision(); ok {
					vals[v]++
				}
			}
			if len(vals) != 1 {
				t.Fatalf("n=%d: decisions %v, want one value", n, vals)
			}
			for v, k := range vals {
				if k != n || v < 100 || v >= 100+n {
					t.Errorf("n=%d: %d processes decided %d, want %d deciding a proposal", n, k, v, n)
				}
			}
		})
	}
}

// TestAgreementUnderLoss: decided values agree and were proposed.
func TestAgreementUnderLoss(t *testing.T) {
	for seed := range uint64(30) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 1))
			drop := func(int, Msg) bool { return rng.IntN(100) < 30 }
			vals := map[int]bool{}
			for _, p := range run(5, 10, drop) {
				if v, ok := p.Decision(); ok {
					if v < 100 || v > 104 {
						t.Errorf("seed %d: decided %d, never proposed", seed, v)
					}
					vals[v] = true
				}
			}
			if len(vals) > 1 {
				t.Errorf("seed %d: decisions %v", seed, vals)
			}
		})
	}
}
