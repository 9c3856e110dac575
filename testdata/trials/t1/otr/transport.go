package otr

import (
	"sync"
	"time"
)

// Transport carries messages of type M between n processes.
type Transport[M any] interface {
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m M)

	// Recv waits at most d for a message; ok is false on a timeout.
	//
	//sync:recv
	Recv(d time.Duration) (m M, from int, ok bool)
}

type envelope[M any] struct {
	from int
	m    M
}

// Bus is an in-memory Transport factory.
type Bus[M any] struct {
	mu    sync.Mutex
	boxes []chan envelope[M]
	drop  func(from, to int) bool
}

// NewBus returns a bus of n processes; drop, if not nil, loses the copies
// it returns true for.
func NewBus[M any](n int, drop func(from, to int) bool) *Bus[M] {
	b := &Bus[M]{boxes: make([]chan envelope[M], n), drop: drop}
	for i := range b.boxes {
		b.boxes[i] = make(chan envelope[M], 256)
	}
	return b
}

// Port returns the transport of process id.
func (b *Bus[M]) Port(id int) Transport[M] { return &port[M]{b: b, id: id} }

type port[M any] struct {
	b  *Bus[M]
	id int
}

// Broadcast implements Transport.
func (p *port[M]) Broadcast(m M) {
	p.b.mu.Lock()
	defer p.b.mu.Unlock()
	for to, box := range p.b.boxes {
		if p.b.drop != nil && p.b.drop(p.id, to) {
			continue
		}
		select {
		case box <- envelope[M]{p.id, m}:
		default:
		}
	}
}

// Recv implements Transport.
func (p *port[M]) Recv(d time.Duration) (M, int, bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case e := <-p.b.boxes[p.id]:
		return e.m, e.from, true
	case <-t.C:
		var zero M
		return zero, -1, false
	}
}
