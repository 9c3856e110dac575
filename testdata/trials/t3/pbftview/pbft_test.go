package pbftview

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

type envelope struct {
	to int
	m  Message
}

// cluster is an in-memory network of 3f+1 replicas; the test chooses the
// order of delivery and which messages are lost, and checks after every
// step that the executed logs are prefixes of one another.
type cluster struct {
	t        *testing.T
	replicas []*Replica
	inflight []envelope
	down     map[int]bool // crashed replicas: nothing to or from them
}

// port is one replica's Network.
type port struct {
	c    *cluster
	from int
}

func (p port) Multicast(m Message) {
	if p.c.down[p.from] {
		return
	}
	for to := range p.c.replicas {
		if to != p.from && !p.c.down[to] {
			p.c.inflight = append(p.c.inflight, envelope{to, m})
		}
	}
}

func newCluster(t *testing.T, n int) *cluster {
	c := &cluster{t: t, down: map[int]bool{}}
	c.replicas = make([]*Replica, n)
	for i := range n {
		c.replicas[i] = NewReplica(i, n, port{c, i})
	}
	return c
}

func isPrefix(a, b []string) bool { return len(a) <= len(b) && slices.Equal(a, b[:len(a)]) }

func (c *cluster) check() {
	for i, a := range c.replicas {
		for j, b := range c.replicas[i+1:] {
			if la, lb := a.Log(), b.Log(); !isPrefix(la, lb) && !isPrefix(lb, la) {
				c.t.Fatalf("replicas %d and %d diverge: %v and %v", i, i+1+j, la, lb)
			}
		}
	}
}

func (c *cluster) deliver(k int) {
	e := c.inflight[k]
	c.inflight = append(c.inflight[:k], c.inflight[k+1:]...)
	c.replicas[e.to].OnMessage(e.m)
	c.check()
}

// deliverAll delivers every message in flight, in order, except the ones
// lost says are lost.
func (c *cluster) deliverAll(lost func(envelope) bool) {
	for len(c.inflight) > 0 {
		if lost != nil && lost(c.inflight[0]) {
			c.inflight = c.inflight[1:]
			continue
		}
		c.deliver(0)
	}
}

func (c *cluster) wantLogs(want string, replicas ...int) {
	c.t.Helper()
	for _, i := range replicas {
		if got := fmt.Sprint(c.replicas[i].Log()); got != want {
			c.t.Errorf("replica %d: log %s, want %s", i, got, want)
		}
	}
}

func TestNormalCase(t *testing.T) {
	c := newCluster(t, 4)
	for _, op := range []string{"a", "b", "c"} {
		c.replicas[0].Request(op)
		c.deliverAll(nil)
	}
	c.wantLogs("[a b c]", 0, 1, 2, 3)
}

// TestViewChangeKeepsPreparedRequest: "d" is prepared everywhere but its
// commits are lost; the primary crashes; view 1 proposes "d" again before
// the new request "e".
func TestViewChangeKeepsPreparedRequest(t *testing.T) {
	c := newCluster(t, 4)
	c.replicas[0].Request("a")
	c.deliverAll(nil)
	c.replicas[0].Request("d")
	c.deliverAll(func(e envelope) bool { _, ok := e.m.(Commit); return ok })
	c.wantLogs("[a]", 0, 1, 2, 3)
	c.down[0] = true
	for _, i := range []int{1, 2, 3} {
		c.replicas[i].Timeout()
	}
	c.deliverAll(nil)
	c.replicas[1].Request("e")
	c.deliverAll(nil)
	c.wantLogs("[a d e]", 1, 2, 3)
}

// TestViewChangeKeepsExecutedRequest: "d" is executed by replicas 0 and 1
// only; replica 0 crashes; view 1 must keep "d" at sequence number 2.
func TestViewChangeKeepsExecutedRequest(t *testing.T) {
	c := newCluster(t, 4)
	c.replicas[0].Request("a")
	c.deliverAll(nil)
	c.replicas[0].Request("d")
	c.deliverAll(func(e envelope) bool { _, ok := e.m.(Commit); return ok && e.to >= 2 })
	c.wantLogs("[a d]", 0, 1)
	c.wantLogs("[a]", 2, 3)
	c.down[0] = true
	for _, i := range []int{1, 2, 3} {
		c.replicas[i].Timeout()
	}
	c.deliverAll(nil)
	c.replicas[1].Request("e")
	c.deliverAll(nil)
	c.wantLogs("[a d e]", 1, 2, 3)
}

func TestLogsAgreeUnderChaos(t *testing.T) {
	executed := 0
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 9))
		c := newCluster(t, 4)
		for step := 0; step < 800; step++ {
			switch r := rng.IntN(60); {
			case r == 0:
				for _, rep := range c.replicas {
					if rng.IntN(4) != 0 { // most replicas' timers fire together
						rep.Timeout()
					}
				}
			case r < 6:
				for _, rep := range c.replicas {
					rep.Request(fmt.Sprintf("op%d", step)) // only the primaries take it
				}
			case len(c.inflight) > 0:
				k := 0
				if rng.IntN(4) == 0 {
					k = rng.IntN(len(c.inflight)) // reordered
				}
				if rng.IntN(8) == 0 {
					c.inflight = append(c.inflight[:k], c.inflight[k+1:]...) // lost
					continue
				}
				c.deliver(k)
			}
		}
		for _, rep := range c.replicas {
			executed += len(rep.Log())
		}
	}
	if executed == 0 {
		t.Fatal("nothing was ever executed")
	}
	t.Logf("%d executed requests over all replicas and seeds", executed)
}
