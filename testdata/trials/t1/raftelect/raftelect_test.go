package raftelect

import (
	"maps"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func run(size, terms int, stand func(id, term int) bool, drop func(int, any) bool) []*Node {
	c := NewCluster(size, drop)
	ns := make([]*Node, size)
	for i := range ns {
		ns[i] = NewNode(i, size, c.Transport(i), func(t int) bool { return stand(i, t) }, time.Second)
	}
	var wg sync.WaitGroup
	for _, n := range ns {
		wg.Go(func() { n.Run(terms) })
	}
	wg.Wait()
	return ns
}

// TestRoundRobin: one candidate per term, no loss: it wins every term.
func TestRoundRobin(t *testing.T) {
	for _, size := range []int{3, 5} {
		synctest.Test(t, func(t *testing.T) {
			want := map[int]int{}
			for term := 1; term <= 4; term++ {
				want[term] = term % size
			}
			for i, n := range run(size, 4, func(id, t int) bool { return t%size == id }, nil) {
				if !maps.Equal(n.Leaders(), want) {
					t.Errorf("size %d node %d: leaders %v, want %v", size, i, n.Leaders(), want)
				}
			}
		})
	}
}

// TestSplitVote: everybody stands every term and votes for itself.
func TestSplitVote(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for i, n := range run(3, 3, func(int, int) bool { return true }, nil) {
			if len(n.Leaders()) != 0 {
				t.Errorf("node %d saw leaders %v, want none", i, n.Leaders())
			}
		}
	})
}

// TestElectionSafety: random candidates and loss never elect two leaders
// in one term.
func TestElectionSafety(t *testing.T) {
	for seed := range uint64(20) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 11))
			var mu sync.Mutex
			stand := func(int, int) bool { mu.Lock(); defer mu.Unlock(); return rng.IntN(3) == 0 }
			drop := func(int, any) bool { return rng.IntN(100) < 20 }
			safeDrop := func(to int, m any) bool { mu.Lock(); defer mu.Unlock(); return drop(to, m) }
			seen := map[int]int{}
			for i, n := range run(5, 10, stand, safeDrop) {
				for term, l := range n.Leaders() {
					if w, ok := seen[term]; ok && w != l {
						t.Errorf("seed %d: term %d has leaders %d and %d (node %d)", seed, term, w, l, i)
					}
					seen[term] = l
				}
			}
		})
	}
}
