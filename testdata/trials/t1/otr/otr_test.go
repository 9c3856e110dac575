package otr

import (
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func run(init []int, rounds int, drop func(from, to int) bool) []*Proc {
	n := len(init)
	bus := NewBus[Est](n, drop)
	ps := make([]*Proc, n)
	for i := range ps {
		ps[i] = NewProc(i, n, init[i], bus.Port(i), time.Second)
	}
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Go(func() { p.Run(rounds) })
	}
	wg.Wait()
	return ps
}

// TestLossless: round 1 makes every x equal to 1 (3 of 5), round 2 decides.
func TestLossless(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for i, p := range run([]int{1, 2, 1, 2, 1}, 2, nil) {
			if v, ok := p.Decision(); !ok || v != 1 {
				t.Errorf("process %d decided %d, %v; want 1", i, v, ok)
			}
		}
	})
}

// TestAgreementUnderLoss: decisions agree and were initial values.
func TestAgreementUnderLoss(t *testing.T) {
	for seed := range uint64(30) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 4))
			drop := func(int, int) bool { return rng.IntN(100) < 15 }
			vals := map[int]bool{}
			for _, p := range run([]int{3, 4, 3, 4, 5, 4, 3}, 6, drop) {
				if v, ok := p.Decision(); ok {
					if v < 3 || v > 5 {
						t.Errorf("seed %d: decided %d", seed, v)
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
