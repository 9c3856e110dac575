package eig

import (
	"sync"
	"time"
)

// Relay carries the values of one level of its sender's EIG tree: in round
// Round of slot Slot, the values of the labels of length Round-1 that do
// not contain From.
//
//sync:msg Slot,Round
type Relay struct {
	Slot   int
	Round  int
	From   int
	Values map[string]string // label -> value
}

// Transport is what a process needs from the network.
type Transport interface {
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m Relay)
	// Recv returns the next message for this process; ok is false if none
	// arrived before deadline.
	//
	//sync:recv
	Recv(deadline time.Time) (m Relay, ok bool)
}

// Network is an in-memory network with one FIFO inbox per process. A
// broadcast enqueues its copies under one lock, so delivery is causal and,
// without loss, the rounds stay aligned without timing assumptions.
type Network struct {
	mu      sync.Mutex
	inboxes []chan Relay
}

// NewNetwork returns a network of n processes.
func NewNetwork(n int) *Network {
	nw := &Network{inboxes: make([]chan Relay, n)}
	for i := range nw.inboxes {
		nw.inboxes[i] = make(chan Relay, 16*n)
	}
	return nw
}

// Endpoint returns the transport of process id.
func (nw *Network) Endpoint(id int) Transport { return endpoint{nw: nw, id: id} }

type endpoint struct {
	nw *Network
	id int
}

// Broadcast implements Transport.
func (e endpoint) Broadcast(m Relay) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for _, in := range e.nw.inboxes {
		select {
		case in <- m:
		default: // full inbox: lost
		}
	}
}

// Recv implements Transport.
func (e endpoint) Recv(deadline time.Time) (Relay, bool) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case m := <-e.nw.inboxes[e.id]:
		return m, true
	case <-timer.C:
		return Relay{}, false
	}
}
