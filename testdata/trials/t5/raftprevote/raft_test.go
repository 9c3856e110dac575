package raftprevote

import (
	"math/rand"
	"slices"
	"testing"
)

// cluster drives nodes tick by tick over an in-memory network that loses
// messages with probability loss and never delivers to or from a node in
// cut.
type cluster struct {
	t       *testing.T
	nodes   []*Node
	rng     *rand.Rand
	loss    float64
	cut     map[int]bool
	leaders map[uint64]int // term -> the leader elected in it
}

func newCluster(t *testing.T, n int, seed int64, loss float64) *cluster {
	c := &cluster{t: t, rng: rand.New(rand.NewSource(seed)), loss: loss,
		cut: map[int]bool{}, leaders: map[uint64]int{}}
	var peers []int
	for i := 0; i < n; i++ {
		peers = append(peers, i)
	}
	for i := 0; i < n; i++ {
		// Distinct election timeouts, as the randomized ones of Raft.
		c.nodes = append(c.nodes, NewNode(Config{ID: i, Peers: peers,
			ElectionTimeout: 10 + 4*i, HeartbeatTimeout: 3}))
	}
	return c
}

// checkLeaders records every leader and fails on two leaders of one term.
func (c *cluster) checkLeaders() {
	c.t.Helper()
	for _, nd := range c.nodes {
		if nd.Role() != Leader {
			continue
		}
		if l, ok := c.leaders[nd.Term()]; ok && l != nd.id {
			c.t.Fatalf("term %d has two leaders, %d and %d", nd.Term(), l, nd.id)
		}
		c.leaders[nd.Term()] = nd.id
	}
}

// tick ticks every node once and delivers every message, in a random
// order, until the network is empty.
func (c *cluster) tick() {
	var flight []*Message
	for _, nd := range c.nodes {
		nd.Tick()
		flight = append(flight, nd.ReadMessages()...)
	}
	for len(flight) > 0 {
		k := c.rng.Intn(len(flight))
		m := flight[k]
		flight = slices.Delete(flight, k, k+1)
		if c.cut[m.From] || c.cut[m.To] || c.rng.Float64() < c.loss {
			continue
		}
		c.nodes[m.To].Step(m)
		flight = append(flight, c.nodes[m.To].ReadMessages()...)
		c.checkLeaders()
	}
	c.checkLeaders()
}

// leader returns the node every node follows, or None.
func (c *cluster) leader() int {
	l := c.nodes[0].Lead()
	for _, nd := range c.nodes {
		if c.cut[nd.id] {
			continue
		}
		if nd.Lead() != l {
			return None
		}
	}
	return l
}

func TestElectsOneLeader(t *testing.T) {
	c := newCluster(t, 3, 1, 0)
	for i := 0; i < 40; i++ {
		c.tick()
	}
	// Node 0 has the shortest election timeout: it pre-votes, then wins
	// term 1.
	if l := c.leader(); l != 0 || c.nodes[0].Term() != 1 {
		t.Fatalf("leader %d in term %d, want 0 in term 1", l, c.nodes[0].Term())
	}
}

func TestPartitionedNodeDoesNotDisrupt(t *testing.T) {
	c := newCluster(t, 5, 2, 0)
	for i := 0; i < 40; i++ {
		c.tick()
	}
	l, term := c.leader(), c.nodes[0].Term()
	if l == None {
		t.Fatal("no leader after 40 ticks")
	}
	victim := (l + 1) % 5
	c.cut[victim] = true
	for i := 0; i < 200; i++ {
		c.tick()
	}
	// Its pre-votes never get a quorum: its term has not moved.
	if got := c.nodes[victim].Term(); got != term {
		t.Fatalf("partitioned node is in term %d, want %d", got, term)
	}
	delete(c.cut, victim)
	for i := 0; i < 40; i++ {
		c.tick()
	}
	// The leader was not disturbed. The healed node, which left round
	// StepLead of the term, drops the leader's heartbeats until a later term.
	c.cut[victim] = true // for leader(): ignore it
	if got := c.leader(); got != l || c.nodes[l].Term() != term || c.nodes[victim].Term() != term {
		t.Fatalf("after healing: leader %d in term %d, want %d in term %d", got, c.nodes[l].Term(), l, term)
	}
}

func TestLossyElectionSafety(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		c := newCluster(t, 5, seed, 0.3)
		for i := 0; i < 300; i++ {
			c.tick()
		}
		if len(c.leaders) == 0 {
			t.Fatalf("seed %d: no leader in 300 ticks", seed)
		}
	}
}
