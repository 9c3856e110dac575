package ibft

import (
	"context"
	"sync"
)

// Transport is what a replica needs from the network.
type Transport interface {
	// Broadcast sends m to every replica, the sender included.
	//
	//sync:send
	Broadcast(m Message)
	// Recv returns the next message for this replica, or ctx's error.
	//
	//sync:recv
	Recv(ctx context.Context) (Message, error)
}

// Network is an in-memory network of buffered inboxes. Broadcasts enqueue
// all copies under one lock, so delivery is causal and FIFO.
type Network struct {
	mu    sync.Mutex
	inbox []chan Message
	drop  func(to int, m Message) bool
}

// NewNetwork returns a lossless network of n replicas.
func NewNetwork(n int) *Network {
	nw := &Network{inbox: make([]chan Message, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Message, 4096)
	}
	return nw
}

// SetDrop installs a loss model, called under the network lock.
func (nw *Network) SetDrop(drop func(to int, m Message) bool) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.drop = drop
}

// Endpoint returns replica id's Transport.
func (nw *Network) Endpoint(id int) Transport { return endpoint{nw: nw, id: id} }

type endpoint struct {
	nw *Network
	id int
}

func (e endpoint) Broadcast(m Message) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for to, ch := range e.nw.inbox {
		if e.nw.drop != nil && e.nw.drop(to, m) {
			continue
		}
		select {
		case ch <- m:
		default:
		}
	}
}

func (e endpoint) Recv(ctx context.Context) (Message, error) {
	select {
	case m := <-e.nw.inbox[e.id]:
		return m, nil
	case <-ctx.Done():
		return Message{}, ctx.Err()
	}
}
