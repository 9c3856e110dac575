package lastvoting

import (
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func run(n, phases int, coord func(id, phase int) int, drop func(int, any) bool) []*Proc {
	sw := NewSwitch(n, drop)
	ps := make([]*Proc, n)
	for i := range ps {
		ps[i] = NewProc(i, n, 10*(i+1), sw, func(ph int) int { return coord(i, ph) }, time.Second)
	}
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Go(func() { p.Run(phases) })
	}
	wg.Wait()
	return ps
}

// TestLossless: with an agreed coordinator and no loss, everybody decides
// process 0's value in phase 1.
func TestLossless(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		synctest.Test(t, func(t *testing.T) {
			for i, p := range run(n, 2, func(_, ph int) int { return (ph - 1) % n }, nil) {
				if v, ok := p.Decision(); !ok || v != 10 {
					t.Errorf("n=%d process %d decided %d, %v; want 10", n, i, v, ok)
				}
			}
		})
	}
}

// TestAgreement: coordinators that disagree, and loss, never lead to two
// decisions.
func TestAgreement(t *testing.T) {
	for seed := range uint64(30) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 2))
			var mu sync.Mutex
			coord := func(_, ph int) int {
				mu.Lock()
				defer mu.Unlock()
				if rng.IntN(4) == 0 {
					return rng.IntN(4)
				}
				return ph % 4
			}
			drop := func(int, any) bool { mu.Lock(); defer mu.Unlock(); return rng.IntN(100) < 10 }
			vals := map[int]bool{}
			for _, p := range run(4, 8, coord, drop) {
				if v, ok := p.Decision(); ok {
					vals[v] = true
				}
			}
			if len(vals) > 1 {
				t.Errorf("seed %d: decisions %v", seed, vals)
			}
		})
	}
}
