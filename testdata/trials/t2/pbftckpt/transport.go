package pbftckpt

import (
	"context"
	"sync"
)

// Transport is a replica's connection to the group; messages are *Batch or
// *Checkpoint.
type Transport interface {
	// Broadcast sends msg to every replica, the sender included.
	//
	//sync:send
	Broadcast(msg any)
	// Recv returns the next message, or ctx's error.
	//
	//sync:recv
	Recv(ctx context.Context) (any, error)
}

// Network is an in-memory group; broadcasts are atomic and inboxes FIFO.
type Network struct {
	mu    sync.Mutex
	inbox []chan any
	drop  func(to int, msg any) bool
}

// NewNetwork returns a network of n replicas.
func NewNetwork(n int) *Network {
	nw := &Network{inbox: make([]chan any, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan any, 4096)
	}
	return nw
}

// SetDrop installs a loss model, called under the network lock.
func (nw *Network) SetDrop(drop func(to int, msg any) bool) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.drop = drop
}

// Endpoint returns replica id's Transport.
func (nw *Network) Endpoint(id int) Transport { return endpoint{nw, id} }

type endpoint struct {
	nw *Network
	id int
}

func (e endpoint) Broadcast(msg any) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for to, ch := range e.nw.inbox {
		if e.nw.drop != nil && e.nw.drop(to, msg) {
			continue
		}
		select {
		case ch <- msg:
		default:
		}
	}
}

func (e endpoint) Recv(ctx context.Context) (any, error) {
	select {
	case m := <-e.nw.inbox[e.id]:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
