package phaseking

import (
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func run(f int, init []int, lie []func(int, int) int) []*Proc {
	ps := NewGroup(f, init, lie, time.Second)
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Go(p.Run)
	}
	wg.Wait()
	return ps
}

func liar(seed uint64) func(int, int) int {
	rng := rand.New(rand.NewPCG(seed, 8))
	var mu sync.Mutex
	return func(int, int) int { mu.Lock(); defer mu.Unlock(); return rng.IntN(2) }
}

// TestValidity: honest processes that start with 1 end with 1, whatever
// the liar (process 3) sends.
func TestValidity(t *testing.T) {
	for seed := range uint64(10) {
		synctest.Test(t, func(t *testing.T) {
			ps := run(1, []int{1, 1, 1, 0}, []func(int, int) int{nil, nil, nil, liar(seed)})
			for i, p := range ps[:3] {
				if p.Value() != 1 {
					t.Errorf("seed %d: honest process %d ended with %d, want 1", seed, i, p.Value())
				}
			}
		})
	}
}

// TestAgreement: honest processes end with the same value, with a liar
// that is the first king or not, n = 4 and n = 7.
func TestAgreement(t *testing.T) {
	cases := []struct {
		f     int
		init  []int
		liars []int
	}{
		{1, []int{0, 1, 0, 1}, []int{0}},
		{1, []int{1, 0, 1, 0}, []int{3}},
		{2, []int{0, 1, 1, 0, 1, 0, 0}, []int{0, 5}},
		{2, []int{1, 1, 0, 0, 1, 0, 1}, []int{2, 6}},
	}
	for ci, c := range cases {
		for seed := range uint64(10) {
			synctest.Test(t, func(t *testing.T) {
				lie := make([]func(int, int) int, len(c.init))
				for _, l := range c.liars {
					lie[l] = liar(seed*31 + uint64(l))
				}
				vals := map[int]bool{}
				for i, p := range run(c.f, c.init, lie) {
					if lie[i] == nil {
						vals[p.Value()] = true
					}
				}
				if len(vals) != 1 {
					t.Errorf("case %d seed %d: honest values %v", ci, seed, vals)
				}
			})
		}
	}
}
