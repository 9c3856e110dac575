package gradecast

import "sync"

// Network is an in-memory network of buffered channels, one inbox per
// process. A broadcast enqueues all its copies under one lock and inboxes
// are FIFO, so a process receives every message that caused another one
// before it: in a run without loss the rounds stay aligned without timing
// assumptions, and the time-outs fire only for silent processes.
type Network struct {
	mu      sync.Mutex
	inboxes []chan Msg
}

// NewNetwork returns a network of n processes whose inboxes hold capacity
// messages each; a copy sent to a full inbox is lost.
func NewNetwork(n, capacity int) *Network {
	nw := &Network{inboxes: make([]chan Msg, n)}
	for i := range nw.inboxes {
		nw.inboxes[i] = make(chan Msg, capacity)
	}
	return nw
}

// Size returns the number of processes.
func (nw *Network) Size() int { return len(nw.inboxes) }

// Inject delivers m to process to as if a (possibly Byzantine) process had
// sent it; tests use it to play faulty dealers.
func (nw *Network) Inject(to int, m Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	select {
	case nw.inboxes[to] <- m:
	default:
	}
}
