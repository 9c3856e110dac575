package raftelect

import (
	"math/rand/v2"
	"testing"
)

// cluster is an in-memory network of nodes: one FIFO queue of messages in
// flight, delivered by the test one at a time, possibly dropped.
type cluster struct {
	nodes   []*Node
	queue   []Message
	leaders map[uint64]int // term -> the one leader seen in it
	drop    func(m Message) bool
	t       *testing.T
}

func newCluster(t *testing.T, n int, timeouts []int, rng *rand.Rand) *cluster {
	peers := make([]int, n)
	for i := range peers {
		peers[i] = i
	}
	c := &cluster{leaders: map[uint64]int{}, drop: func(Message) bool { return false }, t: t}
	for i := range n {
		c.nodes = append(c.nodes, NewNode(Config{ID: i, Peers: peers, ElectionTimeout: timeouts[i], HeartbeatTimeout: 2, Rand: rng}))
	}
	return c
}

// collect moves the outbox of node i to the network and checks Election
// Safety: at most one leader per term.
func (c *cluster) collect(i int) {
	nd := c.nodes[i]
	if nd.Role() == Leader {
		if l, ok := c.leaders[nd.Term()]; ok && l != i {
			c.t.Fatalf("term %d has two leaders: %d and %d", nd.Term(), l, i)
		}
		c.leaders[nd.Term()] = i
	}
	for _, m := range nd.ReadMessages() {
		if !c.drop(m) {
			c.queue = append(c.queue, m)
		}
	}
}

// tick ticks every node, then delivers every message in flight.
func (c *cluster) tick() {
	for i, nd := range c.nodes {
		nd.Tick()
		c.collect(i)
	}
	for len(c.queue) > 0 {
		m := c.queue[0]
		c.queue = c.queue[1:]
		c.nodes[m.To].Step(m)
		c.collect(m.To)
	}
}

func TestFirstElection(t *testing.T) {
	c := newCluster(t, 5, []int{10, 13, 16, 19, 22}, nil)
	for range 40 {
		c.tick()
	}
	if len(c.leaders) != 1 || c.leaders[1] != 0 {
		t.Fatalf("leaders per term = %v, want map[1:0]", c.leaders)
	}
	for i, nd := range c.nodes {
		if nd.Term() != 1 || nd.Lead() != 0 {
			t.Errorf("node %d: term %d, lead %d; want term 1, lead 0", i, nd.Term(), nd.Lead())
		}
	}
}

func TestStaleCandidateStepsDown(t *testing.T) {
	c := newCluster(t, 3, []int{10, 30, 30}, nil)
	for range 12 {
		c.tick()
	}
	// Node 0 leads term 1. Node 2 is cut off, campaigns twice alone
	// (terms 2 and 3), then comes back: its vote requests of term 3 make
	// the others adopt term 3, and it loses the leader of term 1.
	c.drop = func(m Message) bool { return m.From == 2 || m.To == 2 }
	c.nodes[2].electionTimeout, c.nodes[2].randomized = 5, 5
	for range 10 {
		c.tick()
	}
	if got := c.nodes[2].Term(); got != 3 {
		t.Fatalf("isolated node is in term %d, want 3", got)
	}
	c.drop = func(Message) bool { return false }
	c.nodes[2].electionTimeout, c.nodes[2].randomized = 30, 30
	for range 40 {
		c.tick()
	}
	if c.leaders[1] != 0 {
		t.Errorf("leader of term 1 = %d, want 0", c.leaders[1])
	}
	if c.nodes[0].Term() < 4 {
		t.Errorf("node 0 in term %d after the partition healed, want >= 4", c.nodes[0].Term())
	}
}

func TestElectionSafetyUnderLoss(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		c := newCluster(t, 5, []int{5, 5, 5, 5, 5}, rng) // equal base timeouts: split votes happen
		c.drop = func(Message) bool { return rng.IntN(4) == 0 }
		for range 80 {
			c.tick()
		}
		if len(c.leaders) == 0 {
			t.Errorf("seed %d: no leader was ever elected", seed)
		}
	}
}
