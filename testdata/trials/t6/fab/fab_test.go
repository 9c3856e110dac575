package fab

import (
	"fmt"
	"math/rand"
	"testing"
)

type envelope struct {
	from, to int
	m        any
}

// cluster runs nodes over an in-memory FIFO network. Timers are virtual:
// when nothing is in flight and some live node has not learned, the timer of
// every live node's current view fires.
type cluster struct {
	nodes   []*Node
	crashed map[int]bool
	queue   []envelope
	drop    func(e envelope) bool
}

type port struct {
	c    *cluster
	from int
}

func (p port) Send(to int, m any) { p.c.queue = append(p.c.queue, envelope{p.from, to, m}) }

func (p port) Broadcast(m any) {
	for to := range p.c.nodes {
		p.Send(to, m)
	}
}

func newCluster(f int) *cluster {
	n := 5*f + 1
	c := &cluster{crashed: map[int]bool{}}
	for id := 0; id < n; id++ {
		c.nodes = append(c.nodes, NewNode(id, n, f, port{c, id}, fmt.Sprintf("v%d", id)))
	}
	return c
}

func (c *cluster) allLearned() bool {
	for id, nd := range c.nodes {
		if _, ok := nd.Learned(); !ok && !c.crashed[id] {
			return false
		}
	}
	return true
}

// run delivers messages and fires timers until every live node learned or
// maxSteps steps were taken; it returns the number of views that timed out.
func (c *cluster) run(maxSteps int) int {
	timeouts := 0
	for id, nd := range c.nodes {
		if !c.crashed[id] {
			nd.Start()
		}
	}
	for step := 0; step < maxSteps; step++ {
		if len(c.queue) == 0 {
			if c.allLearned() {
				break
			}
			timeouts++
			for id, nd := range c.nodes {
				if !c.crashed[id] {
					nd.OnTimeout(nd.View())
				}
			}
			continue
		}
		e := c.queue[0]
		c.queue = c.queue[1:]
		if c.crashed[e.from] || c.crashed[e.to] || c.drop != nil && c.drop(e) {
			continue
		}
		nd := c.nodes[e.to]
		switch m := e.m.(type) {
		case *Report:
			nd.OnReport(m)
		case *Propose:
			nd.OnPropose(m)
		case *Accepted:
			nd.OnAccepted(m)
		}
	}
	return timeouts
}

// learned returns the value every live node learned; it fails the test if
// two nodes learned different values or a live node learned nothing.
func (c *cluster) learned(t *testing.T) string {
	t.Helper()
	var first string
	for id, nd := range c.nodes {
		if c.crashed[id] {
			continue
		}
		v, ok := nd.Learned()
		if !ok {
			t.Fatalf("node %d learned nothing", id)
		}
		if first == "" {
			first = v
		} else if v != first {
			t.Fatalf("node %d learned %q, another node %q", id, v, first)
		}
	}
	return first
}

func TestFastPath(t *testing.T) {
	c := newCluster(1)
	if n := c.run(1000); n != 0 {
		t.Fatalf("%d time-outs, want 0", n)
	}
	if v := c.learned(t); v != "v0" {
		t.Fatalf("learned %q, want v0", v)
	}
}

func TestCrashedLeaderIsReplaced(t *testing.T) {
	c := newCluster(1)
	c.crashed[0] = true
	if n := c.run(1000); n != 1 {
		t.Fatalf("%d time-outs, want 1", n)
	}
	if v := c.learned(t); v != "v1" {
		t.Fatalf("learned %q, want v1 (the input of the leader of view 1)", v)
	}
}

// TestRecoveryKeepsLearnedValue: in view 0 only nodes 0-2 hear the
// acceptances and learn v0; the leader then crashes. The leader of view 1
// must find v0 vouched for in its certificate and propose it again.
func TestRecoveryKeepsLearnedValue(t *testing.T) {
	c := newCluster(1)
	crashedAfterView0 := false
	c.drop = func(e envelope) bool {
		if a, ok := e.m.(*Accepted); ok && a.View == 0 && e.to >= 3 {
			return true
		}
		if !crashedAfterView0 {
			if _, ok := e.m.(*Report); ok {
				crashedAfterView0 = true
				c.crashed[0] = true
			}
		}
		return false
	}
	if n := c.run(1000); n != 1 {
		t.Fatalf("%d time-outs, want 1", n)
	}
	if v := c.learned(t); v != "v0" {
		t.Fatalf("learned %q, want v0", v)
	}
}

// TestAgreementUnderLoss loses messages at random; learned values must agree.
func TestAgreementUnderLoss(t *testing.T) {
	learnedSomewhere := 0
	for seed := int64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		c := newCluster(1)
		c.drop = func(envelope) bool { return rng.Intn(4) == 0 }
		c.run(5000)
		var first string
		for id, nd := range c.nodes {
			v, ok := nd.Learned()
			if !ok {
				continue
			}
			learnedSomewhere++
			if first == "" {
				first = v
			} else if v != first {
				t.Fatalf("seed %d: node %d learned %q, another node %q", seed, id, v, first)
			}
		}
	}
	if learnedSomewhere == 0 {
		t.Fatal("nothing learned in 300 lossy runs")
	}
}
