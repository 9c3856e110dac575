package raftprevote

import (
	"context"
	"sync"
	"testing"
	"time"
)

type cluster struct {
	nodes []*Node
	ticks []chan struct{}
}

func newCluster(cfgs []Config) *cluster {
	c := &cluster{}
	inboxes := make([]chan Message, len(cfgs))
	peers := make([]chan<- Message, len(cfgs))
	for i := range inboxes {
		inboxes[i] = make(chan Message, 256)
		peers[i] = inboxes[i]
	}
	for i, cfg := range cfgs {
		tick := make(chan struct{})
		c.ticks = append(c.ticks, tick)
		c.nodes = append(c.nodes, NewNode(cfg, peers, inboxes[i], tick))
	}
	return c
}

// run ticks every node k times, pausing between ticks so that the messages
// a tick causes are handled before the next one.
func (c *cluster) run(k int) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, n := range c.nodes {
		wg.Go(func() { n.Run(ctx) })
	}
	for range k {
		for _, t := range c.ticks {
			t <- struct{}{}
		}
		time.Sleep(4 * time.Millisecond)
	}
	cancel()
	wg.Wait()
}

func TestOneLeaderPerTerm(t *testing.T) {
	cfgs := []Config{
		{ID: 0, Size: 3, ElectionTimeout: 3, LastLogTerm: 1, LastLogIndex: 5},
		{ID: 1, Size: 3, ElectionTimeout: 6, LastLogTerm: 1, LastLogIndex: 5},
		{ID: 2, Size: 3, ElectionTimeout: 9, LastLogTerm: 1, LastLogIndex: 4},
	}
	c := newCluster(cfgs)
	c.run(20)
	leaders := make(map[int]int)
	for i, n := range c.nodes {
		for _, term := range n.Led() {
			if l, ok := leaders[term]; ok {
				t.Errorf("term %d has two leaders, %d and %d", term, l, i)
			}
			leaders[term] = i
		}
	}
	// Node 0 times out first and has an up-to-date log: it wins term 1 and
	// keeps it, since its heartbeats reset the others' timers.
	if len(leaders) != 1 || leaders[1] != 0 {
		t.Errorf("leaders by term %v, want map[1:0]", leaders)
	}
	for i, n := range c.nodes {
		if n.Lead() != 0 {
			t.Errorf("node %d follows %d, want 0", i, n.Lead())
		}
	}
}

func TestStaleLogLosesPreVote(t *testing.T) {
	// Node 2 times out first (tick 3) but its log is behind: its pre-vote
	// fails. Node 0 times out at tick 5 and wins; node 1 never times out.
	cfgs := []Config{
		{ID: 0, Size: 3, ElectionTimeout: 5, LastLogTerm: 2, LastLogIndex: 5},
		{ID: 1, Size: 3, ElectionTimeout: 100, LastLogTerm: 2, LastLogIndex: 5},
		{ID: 2, Size: 3, ElectionTimeout: 3, LastLogTerm: 1, LastLogIndex: 9},
	}
	c := newCluster(cfgs)
	c.run(20)
	if got := c.nodes[2].Led(); len(got) != 0 {
		t.Errorf("node 2, with a stale log, led terms %v", got)
	}
	if got := c.nodes[0].Led(); len(got) != 1 || got[0] != 2 {
		t.Errorf("node 0 led terms %v, want [2]", got)
	}
}
