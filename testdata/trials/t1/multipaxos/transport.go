package multipaxos

import (
	"sync"
	"time"
)

// Transport moves messages between replicas.
type Transport interface {
	// Broadcast sends m to every replica, the sender included.
	//
	//sync:send
	Broadcast(m Msg)

	// Send sends m to replica to.
	//
	//sync:send
	Send(to int, m Msg)

	// Recv waits at most timeout for a message; ok is false on a timeout.
	//
	//sync:recv
	Recv(timeout time.Duration) (m Msg, ok bool)
}

// Hub connects n endpoints through buffered channels.
type Hub struct {
	mu    sync.Mutex
	boxes []chan Msg
	drop  func(to int, m Msg) bool
}

// NewHub returns a hub of n endpoints; drop, if not nil, loses the copies
// for which it returns true.
func NewHub(n int, drop func(to int, m Msg) bool) *Hub {
	h := &Hub{boxes: make([]chan Msg, n), drop: drop}
	for i := range h.boxes {
		h.boxes[i] = make(chan Msg, 512)
	}
	return h
}

// Endpoint returns replica id's transport.
func (h *Hub) Endpoint(id int) Transport { return &endpoint{h: h, id: id} }

type endpoint struct {
	h  *Hub
	id int
}

func (e *endpoint) put(to int, m Msg) {
	if e.h.drop != nil && e.h.drop(to, m) {
		return
	}
	select {
	case e.h.boxes[to] <- m:
	default:
	}
}

// Broadcast implements Transport.
func (e *endpoint) Broadcast(m Msg) {
	e.h.mu.Lock()
	defer e.h.mu.Unlock()
	for to := range e.h.boxes {
		e.put(to, m)
	}
}

// Send implements Transport.
func (e *endpoint) Send(to int, m Msg) {
	e.h.mu.Lock()
	defer e.h.mu.Unlock()
	e.put(to, m)
}

// Recv implements Transport.
func (e *endpoint) Recv(timeout time.Duration) (Msg, bool) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case m := <-e.h.boxes[e.id]:
		return m, true
	case <-t.C:
		return Msg{}, false
	}
}
