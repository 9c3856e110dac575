package raftlog

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// cluster is an in-memory network of nodes whose messages are delivered in
// a random order, some lost, under a seeded generator.
type cluster struct {
	nodes   map[uint64]*Raft
	ids     []uint64
	pending []Message
	rng     *rand.Rand
	leaders map[uint64]uint64 // term -> the node that led it
}

func newCluster(n int, seed int64) *cluster {
	c := &cluster{nodes: map[uint64]*Raft{}, rng: rand.New(rand.NewSource(seed)), leaders: map[uint64]uint64{}}
	for i := 1; i <= n; i++ {
		c.ids = append(c.ids, uint64(i))
	}
	for _, id := range c.ids {
		c.nodes[id] = New(id, c.ids)
	}
	return c
}

func (c *cluster) step(t *testing.T, id uint64, m *Message) {
	r := c.nodes[id]
	r.Step(m)
	c.pending = append(c.pending, r.ReadMessages()...)
	if r.IsLeader() {
		if l, ok := c.leaders[r.Term()]; ok && l != id {
			t.Fatalf("two leaders in term %d: %d and %d", r.Term(), l, id)
		}
		c.leaders[r.Term()] = id
	}
}

// event runs one random event: a delivery (or loss), a timeout or a proposal.
func (c *cluster) event(t *testing.T, k int) {
	switch x := c.rng.Intn(100); {
	case x < 3:
		c.step(t, c.ids[c.rng.Intn(len(c.ids))], &Message{Type: MsgHup})
	case x < 10:
		for _, id := range c.ids {
			c.step(t, id, &Message{Type: MsgBeat})
		}
	case x < 20:
		for _, id := range c.ids {
			c.step(t, id, &Message{Type: MsgProp, Entries: []Entry{{Data: fmt.Sprint("cmd", k)}}})
		}
	case len(c.pending) > 0:
		i := c.rng.Intn(len(c.pending))
		m := c.pending[i]
		c.pending = slices.Delete(c.pending, i, i+1)
		if c.rng.Intn(10) > 0 {
			c.step(t, m.To, &m)
		}
	}
}

// checkPrefix checks State Machine Safety: the committed logs are prefixes
// of one another. It returns the length of the longest.
func (c *cluster) checkPrefix(t *testing.T) int {
	committed := func(r *Raft) []Entry { return r.log[1 : r.commit+1] } // no copy: called after every event
	longest := []Entry{}
	for _, id := range c.ids {
		if e := committed(c.nodes[id]); len(e) > len(longest) {
			longest = e
		}
	}
	for _, id := range c.ids {
		if e := committed(c.nodes[id]); !slices.Equal(e, longest[:len(e)]) {
			t.Fatalf("node %d committed %v, not a prefix of %v", id, e, longest)
		}
	}
	return len(longest)
}

func TestLogSafety(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		c := newCluster(3+int(seed%3), seed)
		for k := range 3000 {
			c.event(t, k)
			c.checkPrefix(t)
		}
		if n := c.checkPrefix(t); n < 20 {
			t.Errorf("seed %d: only %d entries committed", seed, n)
		}
	}
}
