package phasequeen

import (
	"sync"
	"time"
)

// Transport moves messages of type M between the processes.
type Transport[M any] interface {
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m M)
	// Recv returns the next message for this process; ok is false if none
	// arrived before deadline.
	//
	//sync:recv
	Recv(deadline time.Time) (m M, ok bool)
}

// Network is an in-memory network for messages of type M, with one FIFO
// inbox per process; the copies of a broadcast are enqueued under one lock,
// so delivery is causal.
type Network[M any] struct {
	mu      sync.Mutex
	inboxes []chan M
}

// NewNetwork returns a network of n processes.
func NewNetwork[M any](n int) *Network[M] {
	nw := &Network[M]{inboxes: make([]chan M, n)}
	for i := range nw.inboxes {
		nw.inboxes[i] = make(chan M, 16*n)
	}
	return nw
}

// Endpoint returns the transport of process id.
func (nw *Network[M]) Endpoint(id int) Transport[M] { return endpoint[M]{nw: nw, id: id} }

type endpoint[M any] struct {
	nw *Network[M]
	id int
}

// Broadcast implements Transport.
func (e endpoint[M]) Broadcast(m M) {
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
func (e endpoint[M]) Recv(deadline time.Time) (m M, ok bool) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case m = <-e.nw.inboxes[e.id]:
		return m, true
	case <-timer.C:
		return m, false
	}
}
