package chainedhotstuff

import (
	"sync"
	"time"
)

// Transport is a replica's connection to the others.
type Transport interface {
	// Send sends m to replica to.
	//
	//sync:send
	Send(to int, m Msg)
	// Broadcast sends m to every replica, the sender included.
	//
	//sync:send
	Broadcast(m Msg)
	// Recv returns the next message, or false at the deadline.
	//
	//sync:recv
	Recv(deadline time.Time) (Msg, bool)
}

// Network is an in-memory network; sends are atomic and inboxes FIFO, so
// delivery is causal.
type Network struct {
	mu    sync.Mutex
	inbox []chan Msg
	drop  func(to int, m Msg) bool
}

// NewNetwork returns a network of n replicas.
func NewNetwork(n int) *Network {
	nw := &Network{inbox: make([]chan Msg, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Msg, 4096)
	}
	return nw
}

// SetDrop installs a loss model, called under the network lock.
func (nw *Network) SetDrop(drop func(to int, m Msg) bool) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.drop = drop
}

// deliver queues m for replica to unless the loss model drops it; the
// caller holds mu.
func (nw *Network) deliver(to int, m Msg) {
	if nw.drop != nil && nw.drop(to, m) {
		return
	}
	select {
	case nw.inbox[to] <- m:
	default:
	}
}

// Endpoint returns replica id's Transport.
func (nw *Network) Endpoint(id int) Transport { return &endpoint{nw, id} }

type endpoint struct {
	nw *Network
	id int
}

func (e *endpoint) Send(to int, m Msg) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	e.nw.deliver(to, m)
}

func (e *endpoint) Broadcast(m Msg) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for to := range e.nw.inbox {
		e.nw.deliver(to, m)
	}
}

func (e *endpoint) Recv(deadline time.Time) (Msg, bool) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case m := <-e.nw.inbox[e.id]:
		return m, true
	case <-t.C:
		return nil, false
	}
}
