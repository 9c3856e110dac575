package zabsync

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func run(n int, oracle func(id, epoch int) int, attempts func(id int) int) []*Peer {
	inboxes := make([]*Inbox, n)
	for i := range inboxes {
		inboxes[i] = NewInbox(64)
	}
	ps := make([]*Peer, n)
	for i := range ps {
		ps[i] = NewPeer(i, inboxes, func(e int) int { return oracle(i, e) }, time.Second)
	}
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() { p.Run(attempts(i)) })
	}
	wg.Wait()
	return ps
}

// TestAgreeingOracle: every attempt establishes a leader in the next epoch.
func TestAgreeingOracle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ps := run(3, func(_, e int) int { return e % 3 }, func(int) int { return 3 })
		want := []Txn{{2, "e2"}, {4, "e4"}, {6, "e6"}}
		wantLed := [][]int{{4}, {2}, {6}}
		for i, p := range ps {
			if got := p.Delivered(); !slices.Equal(got, want) {
				t.Errorf("peer %d delivered %v, want %v", i, got, want)
			}
			if got := p.Established(); !slices.Equal(got, wantLed[i]) {
				t.Errorf("peer %d established %v, want %v", i, got, wantLed[i])
			}
		}
	})
}

// TestDisagreeingOracles: peers suggest random leaders and some stop early;
// delivered histories stay prefixes of one another and an epoch has at
// most one leader.
func TestDisagreeingOracles(t *testing.T) {
	for seed := range uint64(20) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 9))
			var mu sync.Mutex
			oracle := func(_, e int) int {
				mu.Lock()
				defer mu.Unlock()
				if rng.IntN(3) == 0 {
					return rng.IntN(5)
				}
				return e % 5
			}
			stops := []int{10, 10, 10, 3 + int(seed%5), 10}
			ps := run(5, oracle, func(i int) int { return stops[i] })
			leaders := map[int]int{}
			for i, a := range ps {
				for _, e := range a.Established() {
					if l, ok := leaders[e]; ok {
						t.Errorf("seed %d: epoch %d established by %d and %d", seed, e, l, i)
					}
					leaders[e] = i
				}
				for _, b := range ps {
					da, db := a.Delivered(), b.Delivered()
					if len(da) <= len(db) && !slices.Equal(da, db[:len(da)]) {
						t.Errorf("seed %d: delivered %v and %v", seed, da, db)
					}
				}
			}
		})
	}
}
