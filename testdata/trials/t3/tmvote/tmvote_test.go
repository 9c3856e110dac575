package tmvote

import (
	"math/rand"
	"slices"
	"testing"
)

// delivery is one gossiped message on its way to one validator.
type delivery struct {
	to int
	p  *Proposal
	v  *Vote
	c  *Commit
}

// net is the reactor of the test: it drains the validators' outgoing
// channels after every handler call and delivers the messages in a random
// order, losing some.
type net struct {
	vals    []*State
	props   chan *Proposal
	votes   chan *Vote
	commits chan *Commit
	pending []delivery
}

func newNet(n int) *net {
	nw := &net{props: make(chan *Proposal, 64), votes: make(chan *Vote, 64), commits: make(chan *Commit, 64)}
	for i := range n {
		nw.vals = append(nw.vals, NewState(i, n, nw.props, nw.votes, nw.commits))
	}
	return nw
}

// drain moves the sent messages to the pending deliveries, one per validator.
func (nw *net) drain() {
	for {
		select {
		case p := <-nw.props:
			for to := range nw.vals {
				nw.pending = append(nw.pending, delivery{to: to, p: p})
			}
		case v := <-nw.votes:
			for to := range nw.vals {
				nw.pending = append(nw.pending, delivery{to: to, v: v})
			}
		case c := <-nw.commits:
			for to := range nw.vals {
				nw.pending = append(nw.pending, delivery{to: to, c: c})
			}
		default:
			return
		}
	}
}

// ahead reports whether d is of a later round or step than its receiver is
// in. Like Tendermint's reactor, which gossips to a peer the messages of the
// step the peer is in, the test mostly holds such messages back; a few get
// through, which makes the receiver skip ahead.
func (nw *net) ahead(d delivery) bool {
	cs := nw.vals[d.to]
	h, r, s := cs.Height(), cs.Round(), cs.step
	switch {
	case d.c != nil:
		return d.c.Height > h
	case d.p != nil:
		return d.p.Height > h || d.p.Height == h && d.p.Round > r
	}
	vs := stepOf(d.v.Type)
	return d.v.Height > h || d.v.Height == h && (d.v.Round > r || d.v.Round == r && vs > s)
}

func (nw *net) event(rng *rand.Rand) {
	var ready []int
	for i, d := range nw.pending {
		if !nw.ahead(d) || rng.Intn(20) == 0 {
			ready = append(ready, i)
		}
	}
	if len(ready) == 0 || rng.Intn(100) < 1 {
		// The timeout of the step a random validator is in expires.
		cs := nw.vals[rng.Intn(len(nw.vals))]
		switch cs.step {
		case RoundStepPropose:
			cs.OnTimeoutPropose(cs.Height(), cs.Round())
		case RoundStepPrevote:
			cs.OnTimeoutPrevote(cs.Height(), cs.Round())
		default:
			cs.OnTimeoutPrecommit(cs.Height(), cs.Round())
		}
		return
	}
	i := ready[rng.Intn(len(ready))]
	d := nw.pending[i]
	nw.pending = slices.Delete(nw.pending, i, i+1)
	if rng.Intn(20) == 0 {
		return // lost
	}
	switch {
	case d.c != nil:
		nw.vals[d.to].HandleCommit(d.c)
	case d.p != nil:
		nw.vals[d.to].HandleProposal(d.p)
	default:
		nw.vals[d.to].HandleVote(d.v)
	}
}

func TestAgreement(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewSource(seed))
		nw := newNet(4)
		for _, cs := range nw.vals {
			cs.Start()
			nw.drain()
		}
		for range 4000 {
			nw.event(rng)
			nw.drain()
		}
		var ref []string
		for _, cs := range nw.vals {
			if d := cs.Decisions(); len(d) > len(ref) {
				ref = d
			}
		}
		for i, cs := range nw.vals {
			if d := cs.Decisions(); !slices.Equal(d, ref[:len(d)]) {
				t.Fatalf("seed %d: validator %d decided %v, others %v", seed, i, d, ref)
			}
		}
		// A validator that missed a decision stays at its height (there is
		// no block sync), so only the longest chain must make progress.
		if len(ref) < 5 {
			t.Errorf("seed %d: only %d heights decided", seed, len(ref))
		}
	}
}
