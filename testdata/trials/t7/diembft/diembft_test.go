package diembft

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// cluster is an in-memory network driven by a seeded generator: it
// delivers messages mostly in the order they were sent, sometimes out of
// order, loses some, and when nothing is in
// flight it fires the local timer of every live node (a round that made no
// progress).
type cluster struct {
	t        *testing.T
	rnd      *rand.Rand
	nodes    []*Node
	down     map[int]bool
	inflight []Envelope
	loss     float64
}

func newCluster(t *testing.T, n int, seed uint64, loss float64, down map[int]bool) *cluster {
	c := &cluster{t: t, rnd: rand.New(rand.NewPCG(seed, 3)), down: down, loss: loss}
	for i := range n {
		c.nodes = append(c.nodes, NewNode(i, n))
	}
	for i, nd := range c.nodes {
		if !down[i] {
			nd.Start()
			c.drain(i)
		}
	}
	return c
}

func (c *cluster) drain(i int) {
	for _, e := range c.nodes[i].Out {
		if e.To >= 0 {
			c.inflight = append(c.inflight, e)
			continue
		}
		for to := range c.nodes {
			c.inflight = append(c.inflight, Envelope{To: to, Msg: e.Msg})
		}
	}
	c.nodes[i].Out = nil
}

func (c *cluster) step() {
	if len(c.inflight) == 0 {
		for i, nd := range c.nodes {
			if !c.down[i] {
				nd.OnLocalTimeout()
				c.drain(i)
			}
		}
		return
	}
	k := 0
	if c.rnd.Float64() < 0.2 {
		k = c.rnd.IntN(len(c.inflight))
	}
	e := c.inflight[k]
	c.inflight = slices.Delete(c.inflight, k, k+1)
	if c.down[e.To] || c.rnd.Float64() < c.loss {
		return
	}
	nd := c.nodes[e.To]
	switch m := e.Msg.(type) {
	case *ProposalMsg:
		nd.OnProposal(m)
	case *VoteMsg:
		nd.OnVote(m)
	case *TimeoutMsg:
		nd.OnTimeout(m)
	}
	c.drain(e.To)
}

// check verifies that no node forked and that every two ledgers are
// prefixes of one another; it returns the longest ledger's length.
func (c *cluster) check() int {
	c.t.Helper()
	longest := 0
	for i, a := range c.nodes {
		if a.Forked {
			c.t.Fatalf("node %d committed a block that does not extend its ledger", i)
		}
		for j, b := range c.nodes {
			la, lb := a.Ledger(), b.Ledger()
			for k := range min(len(la), len(lb)) {
				if la[k].ID != lb[k].ID {
					c.t.Fatalf("ledgers of nodes %d and %d differ at %d: %s vs %s", i, j, k, la[k].ID, lb[k].ID)
				}
			}
		}
		longest = max(longest, len(a.Ledger()))
	}
	return longest
}

func TestJolteonSafety(t *testing.T) {
	for _, tc := range []struct {
		n    int
		seed uint64
		loss float64
		down map[int]bool
	}{
		{4, 1, 0, nil},
		{4, 2, 0.1, nil},
		{4, 3, 0.15, nil},
		{4, 4, 0.05, map[int]bool{2: true}},
		{7, 5, 0.1, map[int]bool{4: true}},
	} {
		c := newCluster(t, tc.n, tc.seed, tc.loss, tc.down)
		for i := range 10000 {
			c.step()
			if i%500 == 0 {
				c.check()
			}
		}
		committed := c.check()
		if committed < 5 {
			t.Errorf("n=%d loss=%.2f down=%v: only %d blocks committed", tc.n, tc.loss, tc.down, committed)
		}
		t.Logf("n=%d loss=%.2f down=%v: %d blocks committed, %d rounds", tc.n, tc.loss, tc.down, committed, c.nodes[1].round)
	}
}
