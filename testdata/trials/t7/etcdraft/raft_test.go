package etcdraft

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// cluster is an in-memory network of nodes: a pool of messages in flight
// from which the driver delivers, drops or reorders, all drawn from a
// seeded generator so that a run is reproducible.
type cluster struct {
	t        *testing.T
	rnd      *rand.Rand
	nodes    map[uint64]*raft
	ids      []uint64
	inflight []Message
	leaders  map[uint64]uint64 // term -> the node that led it
	chosen   []Entry           // the committed entries seen so far, by index-1
	isolated uint64            // a node cut off from the others, or None
}

func newCluster(t *testing.T, n int, seed uint64) *cluster {
	c := &cluster{
		t:       t,
		rnd:     rand.New(rand.NewPCG(seed, 1)),
		nodes:   make(map[uint64]*raft),
		leaders: make(map[uint64]uint64),
	}
	for i := 1; i <= n; i++ {
		c.ids = append(c.ids, uint64(i))
	}
	for _, id := range c.ids {
		c.nodes[id] = newRaft(&Config{
			ID:            id,
			Peers:         c.ids,
			ElectionTick:  10,
			HeartbeatTick: 2,
			Rand:          rand.New(rand.NewPCG(seed, id+1)),
		})
	}
	return c
}

// drain moves the messages node id sent into the network.
func (c *cluster) drain(id uint64) {
	r := c.nodes[id]
	c.inflight = append(c.inflight, r.msgs...)
	r.msgs = nil
}

// step performs one random action: deliver, lose or hold a message, or
// tick a node; every twentieth action proposes a command to every leader,
// and every 1500 actions the current leader is cut off for 500 actions.
func (c *cluster) step(i int, loss float64) {
	switch i % 1500 {
	case 0:
		for _, id := range c.ids {
			if c.nodes[id].state == StateLeader {
				c.isolated = id
			}
		}
	case 500:
		c.isolated = None
	}
	if i%20 == 0 {
		for _, id := range c.ids {
			if c.nodes[id].state == StateLeader {
				c.nodes[id].Step(Message{Type: MsgProp, Entries: []Entry{{Data: fmt.Sprintf("cmd%d", i)}}})
				c.drain(id)
			}
		}
	}
	if len(c.inflight) > 0 && c.rnd.Float64() < 0.85 {
		k := c.rnd.IntN(len(c.inflight))
		m := c.inflight[k]
		c.inflight = slices.Delete(c.inflight, k, k+1)
		if c.rnd.Float64() < loss || m.To == c.isolated || m.From == c.isolated {
			return
		}
		c.nodes[m.To].Step(m)
		c.drain(m.To)
		return
	}
	id := c.ids[c.rnd.IntN(len(c.ids))]
	c.nodes[id].Tick()
	c.drain(id)
}

// check verifies election safety (one leader per term) and state machine
// safety (a committed entry never changes, on any node).
func (c *cluster) check() {
	c.t.Helper()
	for _, id := range c.ids {
		r := c.nodes[id]
		if r.state == StateLeader {
			if l, ok := c.leaders[r.Term]; ok && l != id {
				c.t.Fatalf("term %d has two leaders: %d and %d", r.Term, l, id)
			}
			c.leaders[r.Term] = id
		}
		for i := uint64(0); i < r.commit; i++ {
			e := r.log[i]
			if int(i) == len(c.chosen) {
				c.chosen = append(c.chosen, e)
			}
			if int(i) < len(c.chosen) && c.chosen[i] != e {
				c.t.Fatalf("node %d committed %+v at index %d, another node %+v", id, e, i+1, c.chosen[i])
			}
		}
	}
}

func TestRaftSafetyUnderLoss(t *testing.T) {
	for _, tc := range []struct {
		n    int
		loss float64
		seed uint64
	}{
		{3, 0, 1}, {3, 0.1, 2}, {5, 0.2, 3}, {5, 0.3, 4}, {4, 0.15, 5},
	} {
		c := newCluster(t, tc.n, tc.seed)
		for i := range 9000 {
			c.step(i, tc.loss)
			c.check()
		}
		if len(c.chosen) < 10 {
			t.Errorf("n=%d loss=%.2f: only %d entries committed in 9000 steps", tc.n, tc.loss, len(c.chosen))
		}
		t.Logf("n=%d loss=%.2f: %d terms led, %d entries committed", tc.n, tc.loss, len(c.leaders), len(c.chosen))
	}
}
