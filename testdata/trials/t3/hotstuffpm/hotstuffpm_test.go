package hotstuffpm

import (
	"math/rand"
	"slices"
	"testing"
)

// envelope is a message in flight: deliver hands it to its replica.
type envelope struct {
	to      int
	deliver func(*Replica)
}

// network is an in-memory Transport for all replicas: messages wait in one
// pool and the test delivers them in a random order.
type network struct {
	n       int
	pending []envelope
}

type port struct {
	nw   *network
	from int
}

func (p port) BroadcastProposal(m Proposal) {
	for to := range p.nw.n {
		if to != p.from {
			p.nw.pending = append(p.nw.pending, envelope{to, func(r *Replica) { r.OnProposal(m) }})
		}
	}
}

func (p port) SendVote(to int, v Vote) {
	p.nw.pending = append(p.nw.pending, envelope{to, func(r *Replica) { r.OnVote(v) }})
}

func (p port) SendNewView(to int, m NewView) {
	p.nw.pending = append(p.nw.pending, envelope{to, func(r *Replica) { r.OnNewView(m) }})
}

// run drives n replicas for steps events under seed and checks after each
// event that the committed chains are prefixes of one another; it returns
// the length of the longest one.
func run(t *testing.T, n int, seed int64, steps int) int {
	rng := rand.New(rand.NewSource(seed))
	nw := &network{n: n}
	rs := make([]*Replica, n)
	for i := range rs {
		rs[i] = NewReplica(i, n, port{nw, i})
	}
	for _, r := range rs {
		r.Start()
	}
	longest := []string{}
	for range steps {
		switch {
		case len(nw.pending) == 0 || rng.Intn(100) < 2:
			r := rs[rng.Intn(n)]
			r.OnTimeout(r.View())
		default:
			i := rng.Intn(len(nw.pending))
			e := nw.pending[i]
			nw.pending = slices.Delete(nw.pending, i, i+1)
			if rng.Intn(10) > 0 {
				e.deliver(rs[e.to])
			}
		}
		for _, r := range rs {
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

func TestChainSafety(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		if got := run(t, 4, seed, 3000); got < 10 {
			t.Errorf("seed %d: only %d blocks committed", seed, got)
		}
	}
}
