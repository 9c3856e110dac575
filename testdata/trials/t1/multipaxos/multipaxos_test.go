package multipaxos

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func runAll(n int, drop func(int, Msg) bool) []*Replica {
	h := NewHub(n, drop)
	rs := make([]*Replica, n)
	for i := range rs {
		cmds := []string{fmt.Sprintf("r%d-a", i), fmt.Sprintf("r%d-b", i), fmt.Sprintf("r%d-c", i)}
		rs[i] = NewReplica(i, n, h.Endpoint(i), cmds, time.Second)
	}
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Go(func() { r.Run(3, 5) })
	}
	wg.Wait()
	return rs
}

// TestLossless: ballot 1 chooses replica 1's three commands, ballot 2
// keeps them and appends two of replica 2's; ballot 3 changes nothing.
func TestLossless(t *testing.T) {
	want := map[int]string{1: "r1-a", 2: "r1-b", 3: "r1-c", 4: "r2-a", 5: "r2-b"}
	for _, n := range []int{3, 5} {
		synctest.Test(t, func(t *testing.T) {
			for i, r := range runAll(n, nil) {
				if got := r.Chosen(); !maps.Equal(got, want) {
					t.Errorf("n=%d replica %d chose %v, want %v", n, i, got, want)
				}
			}
		})
	}
}

// TestAgreementUnderLoss: no slot is chosen with two values.
func TestAgreementUnderLoss(t *testing.T) {
	for seed := range uint64(20) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 3))
			drop := func(int, Msg) bool { return rng.IntN(100) < 25 }
			seen := map[int]string{}
			for i, r := range runAll(5, drop) {
				for s, v := range r.Chosen() {
					if w, ok := seen[s]; ok && w != v {
						t.Errorf("seed %d: slot %d chosen as %q and %q (replica %d)", seed, s, w, v, i)
					}
					seen[s] = v
				}
			}
		})
	}
}
