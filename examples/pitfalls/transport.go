package pitfalls

import "time"

// Network is a tiny in-memory network connecting processes 0..n-1, each
// with a buffered inbox.
type Network struct {
	inbox []chan Message
}

// NewNetwork returns a network of n processes whose inboxes hold up to
// capacity undelivered messages each.
func NewNetwork(n, capacity int) *Network {
	nw := &Network{inbox: make([]chan Message, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Message, capacity)
	}
	return nw
}

// Size returns the number of processes.
func (nw *Network) Size() int { return len(nw.inbox) }

// Send sends m to process to; the copy is lost when its inbox is full.
//
//sync:send
func (nw *Network) Send(to int, m Message) {
	select {
	case nw.inbox[to] <- m:
	default:
	}
}

// Broadcast sends a copy of m to every process, the sender included.
//
//sync:send
func (nw *Network) Broadcast(m Message) {
	for to := range nw.inbox {
		nw.Send(to, m)
	}
}

// Recv returns the next message delivered to process id, waiting at most
// until deadline; ok is false on a time-out.
//
//sync:recv
func (nw *Network) Recv(id int, deadline time.Time) (m Message, ok bool) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case m := <-nw.inbox[id]:
		return m, true
	case <-timer.C:
		return Message{}, false
	}
}
