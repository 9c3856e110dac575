package paxoscommit

import (
	"context"
	"sync"
)

// Transport is what a process needs from the network.
type Transport interface {
	// Send sends m to process to.
	//
	//sync:send
	Send(to int32, m *Msg)
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m *Msg)
	// Recv returns the next message for this process, or ctx's error when
	// ctx is done first.
	//
	//sync:recv
	Recv(ctx context.Context) (*Msg, error)
}

// Network is an in-memory network with one FIFO inbox per process. All the
// copies of a broadcast are enqueued under one lock, so delivery is causal.
type Network struct {
	mu      sync.Mutex
	inboxes []chan *Msg
}

// NewNetwork returns a network of n processes.
func NewNetwork(n int) *Network {
	nw := &Network{inboxes: make([]chan *Msg, n)}
	for i := range nw.inboxes {
		nw.inboxes[i] = make(chan *Msg, 32*n)
	}
	return nw
}

// Endpoint returns the transport of process id.
func (nw *Network) Endpoint(id int32) Transport { return &endpoint{nw: nw, id: id} }

type endpoint struct {
	nw *Network
	id int32
}

// Send implements Transport.
func (e *endpoint) Send(to int32, m *Msg) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	e.nw.put(to, m)
}

// Broadcast implements Transport.
func (e *endpoint) Broadcast(m *Msg) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for to := range e.nw.inboxes {
		e.nw.put(int32(to), m)
	}
}

// put queues a copy of m for process to; the caller holds nw.mu.
func (nw *Network) put(to int32, m *Msg) {
	c := *m
	c.Votes = cloneVotes(m.Votes)
	select {
	case nw.inboxes[to] <- &c:
	default: // full inbox: lost
	}
}

// Recv implements Transport.
func (e *endpoint) Recv(ctx context.Context) (*Msg, error) {
	select {
	case m := <-e.nw.inboxes[e.id]:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
