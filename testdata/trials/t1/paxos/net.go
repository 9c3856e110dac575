package paxos

import (
	"sync"
	"time"
)

// Network is an in-memory network of n replicas. Each replica has a
// buffered inbox; a copy is lost when the inbox is full or the drop
// function installed by SetDrop says so.
type Network struct {
	mu    sync.Mutex
	inbox []chan Msg
	drop  func(to int, m Msg) bool
}

// NewNetwork returns a lossless network of n replicas.
func NewNetwork(n int) *Network {
	nw := &Network{inbox: make([]chan Msg, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Msg, 256)
	}
	return nw
}

// SetDrop installs a loss model, called for every copy sent afterwards.
func (nw *Network) SetDrop(drop func(to int, m Msg) bool) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.drop = drop
}

// Size is the number of replicas.
func (nw *Network) Size() int { return len(nw.inbox) }

// Send sends m to replica to.
//
//sync:send
func (nw *Network) Send(to int, m Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.put(to, m)
}

// Broadcast sends m to every replica, the sender included.
//
//sync:send
func (nw *Network) Broadcast(m Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for to := range nw.inbox {
		nw.put(to, m)
	}
}

func (nw *Network) put(to int, m Msg) {
	if nw.drop != nil && nw.drop(to, m) {
		return
	}
	select {
	case nw.inbox[to] <- m:
	default:
	}
}

// Recv returns the next message for replica id, waiting until deadline at
// most; ok is false on a timeout.
//
//sync:recv
func (nw *Network) Recv(id int, deadline time.Time) (m Msg, ok bool) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case m = <-nw.inbox[id]:
		return m, true
	case <-t.C:
		return Msg{}, false
	}
}
