package vsr

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// run drives n replicas over an in-memory network that delivers in a random
// order and loses one message in ten; clients submit ops to every replica,
// primaries heartbeat and backups' timers fire now and then. After every
// event the committed logs must be prefixes of one another; run returns the
// length of the longest.
func run(t *testing.T, n int, seed int64, steps int) int {
	rng := rand.New(rand.NewSource(seed))
	rs := make([]*Replica, n)
	for i := range rs {
		rs[i] = NewReplica(i, n)
	}
	var pending []Envelope[Message]
	longest := []string{}
	for k := range steps {
		switch x := rng.Intn(100); {
		case x < 2:
			rs[rng.Intn(n)].OnTimeout()
		case x < 8:
			for _, r := range rs {
				r.OnHeartbeat()
			}
		case x < 15:
			for _, r := range rs {
				r.OnRequest(fmt.Sprint("op", k))
			}
		case len(pending) > 0:
			i := rng.Intn(len(pending))
			e := pending[i]
			pending = slices.Delete(pending, i, i+1)
			if rng.Intn(10) > 0 {
				rs[e.To].Step(e.Msg)
			}
		}
		for _, r := range rs {
			pending = append(pending, r.Outbox().Take()...)
			if c := r.Committed(); len(c) > len(longest) {
				longest = c
			}
		}
		for i, r := range rs {
			if c := r.Committed(); !slices.Equal(c, longest[:len(c)]) {
				t.Fatalf("seed %d: replica %d committed %v, not a prefix of %v", seed, i, c, longest)
			}
		}
	}
	return len(longest)
}

func TestCommittedPrefix(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		n := 3 + 2*int(seed%2)
		if got := run(t, n, seed, 2000); got < 20 {
			t.Errorf("seed %d (n=%d): only %d ops committed", seed, n, got)
		}
	}
}
