package raftelect

import (
	"sync"
	"time"
)

// Transport moves messages between nodes.
type Transport interface {
	// Send sends m to node to.
	//
	//sync:send
	Send(to int, m any)

	// Broadcast sends m to every node, the sender included.
	//
	//sync:send
	Broadcast(m any)

	// Recv waits at most timeout for a message; ok is false on a timeout.
	//
	//sync:recv
	Recv(timeout time.Duration) (m any, ok bool)
}

// Cluster is an in-memory network of nodes.
type Cluster struct {
	mu    sync.Mutex
	inbox []chan any
	drop  func(to int, m any) bool
}

// NewCluster returns a network of n nodes; drop, if not nil, loses the
// copies it returns true for.
func NewCluster(n int, drop func(to int, m any) bool) *Cluster {
	c := &Cluster{inbox: make([]chan any, n), drop: drop}
	for i := range c.inbox {
		c.inbox[i] = make(chan any, 256)
	}
	return c
}

// Transport returns the transport of node id.
func (c *Cluster) Transport(id int) Transport { return port{c, id} }

type port struct {
	c  *Cluster
	id int
}

func (p port) deliver(to int, m any) {
	if p.c.drop != nil && p.c.drop(to, m) {
		return
	}
	select {
	case p.c.inbox[to] <- m:
	default:
	}
}

// Send implements Transport.
func (p port) Send(to int, m any) {
	p.c.mu.Lock()
	defer p.c.mu.Unlock()
	p.deliver(to, m)
}

// Broadcast implements Transport.
func (p port) Broadcast(m any) {
	p.c.mu.Lock()
	defer p.c.mu.Unlock()
	for to := range p.c.inbox {
		p.deliver(to, m)
	}
}

// Recv implements Transport.
func (p port) Recv(timeout time.Duration) (any, bool) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case m := <-p.c.inbox[p.id]:
		return m, true
	case <-t.C:
		return nil, false
	}
}
