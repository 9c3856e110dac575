package qbft

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

type envelope struct {
	to int
	m  Message
}

// cluster runs validators over an in-memory FIFO network. Timers are
// virtual: when no message is in flight, every live validator's timer of its
// current round fires.
type cluster struct {
	nodes   []*Instance
	crashed map[int]bool
	queue   []envelope
	drop    func(e envelope) bool
}

type port struct {
	c *cluster
}

func (p port) Broadcast(m Message) {
	for to := range p.c.nodes {
		p.c.queue = append(p.c.queue, envelope{to, m})
	}
}

func newCluster(n int) *cluster {
	c := &cluster{crashed: map[int]bool{}}
	for id := 0; id < n; id++ {
		id := id
		c.nodes = append(c.nodes, NewInstance(id, n, port{c}, func(h uint64) string {
			return fmt.Sprintf("block-%d-by-%d", h, id)
		}))
	}
	return c
}

func (c *cluster) deliver(e envelope) {
	if c.crashed[e.to] || c.crashed[e.m.Sender()] || (c.drop != nil && c.drop(e)) {
		return
	}
	v := c.nodes[e.to]
	switch m := e.m.(type) {
	case *PrePrepare:
		v.OnPrePrepare(m)
	case *Prepare:
		v.OnPrepare(m)
	case *Commit:
		v.OnCommit(m)
	case *RoundChange:
		v.OnRoundChange(m)
	}
}

// run delivers messages and fires timers until every live validator decided
// heights values or maxSteps messages were handled.
func (c *cluster) run(heights, maxSteps int) {
	for id, v := range c.nodes {
		if !c.crashed[id] {
			v.Start()
		}
	}
	for step := 0; step < maxSteps; step++ {
		if len(c.queue) > 0 {
			e := c.queue[0]
			c.queue = c.queue[1:]
			c.deliver(e)
			continue
		}
		done := true
		for id, v := range c.nodes {
			if !c.crashed[id] && len(v.decided) < heights {
				done = false
			}
		}
		if done {
			return
		}
		for id, v := range c.nodes {
			if !c.crashed[id] {
				v.OnTimeout(v.Tag())
			}
		}
	}
}

func TestNormalCase(t *testing.T) {
	c := newCluster(4)
	c.run(3, 10000)
	want := []string{"block-1-by-1", "block-2-by-2", "block-3-by-3"}
	for id, v := range c.nodes {
		if got := v.Decided(); !slices.Equal(got[:3], want) {
			t.Errorf("validator %d decided %v, want %v", id, got, want)
		}
	}
}

func TestCrashedLeaderIsReplaced(t *testing.T) {
	c := newCluster(4)
	c.crashed[1] = true // leader of round 0 of height 1
	c.run(3, 10000)
	// Height 1 is decided in round 1 (leader 2), height 2 in round 0
	// (leader 2), height 3 in round 0 (leader 3).
	want := []string{"block-1-by-2", "block-2-by-2", "block-3-by-3"}
	for id, v := range c.nodes {
		if id == 1 {
			continue
		}
		if got := v.Decided(); !slices.Equal(got[:3], want) {
			t.Errorf("validator %d decided %v, want %v", id, got, want)
		}
	}
}

// TestAgreementUnderLoss loses messages at random and checks that decided
// logs are prefixes of one another.
func TestAgreementUnderLoss(t *testing.T) {
	decidedSomething := 0
	for seed := int64(0); seed < 100; seed++ {
		rng := rand.New(rand.NewSource(seed))
		c := newCluster(4)
		c.drop = func(envelope) bool { return rng.Intn(5) == 0 }
		c.run(3, 20000)
		for a := range c.nodes {
			for b := range c.nodes {
				da, db := c.nodes[a].Decided(), c.nodes[b].Decided()
				k := min(len(da), len(db))
				if !slices.Equal(da[:k], db[:k]) {
					t.Fatalf("seed %d: validators %d and %d disagree: %v vs %v", seed, a, b, da, db)
				}
			}
			if len(c.nodes[a].Decided()) > 0 {
				decidedSomething++
			}
		}
	}
	if decidedSomething == 0 {
		t.Fatal("no validator decided anything in 100 lossy runs")
	}
}

// TestStaleTimerIgnored: a validator that jumped to round 2 on a
// ROUND-CHANGE ignores the late timer of round 0.
func TestStaleTimerIgnored(t *testing.T) {
	c := newCluster(4)
	v := c.nodes[0]
	v.OnRoundChange(&RoundChange{Hdr: Header{Height: 1, Round: 2, From: 3}})
	if h, r := v.Tag(); h != 1 || r != 2 {
		t.Fatalf("after the ROUND-CHANGE: height %d round %d, want 1 2", h, r)
	}
	v.OnTimeout(1, 0)
	if h, r := v.Tag(); h != 1 || r != 2 {
		t.Fatalf("after the stale timer: height %d round %d, want 1 2", h, r)
	}
	// The jump sent our own ROUND-CHANGE for round 2, and only that.
	if len(c.queue) != 4 {
		t.Fatalf("%d messages queued, want 4 (one ROUND-CHANGE to each validator)", len(c.queue))
	}
	for _, e := range c.queue {
		rc, ok := e.m.(*RoundChange)
		if !ok || rc.Hdr != (Header{Height: 1, Round: 2, From: 0}) {
			t.Fatalf("queued %#v, want validator 0's ROUND-CHANGE for round 2", e.m)
		}
	}
}
