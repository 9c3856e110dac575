package zab

import (
	"sync"
	"time"
)

// Network is a tiny in-memory network connecting processes 0..n-1. Every
// process owns a buffered inbox channel of messages.
//
// Send, Multicast and Broadcast enqueue all the copies of a message while
// holding one network-wide lock, and inboxes are FIFO. So when a process
// reacts to a message m by sending m', every copy of m is already queued
// ahead of m' in every inbox: delivery respects causality. In a run without
// loss this keeps the processes in step without relying on timing; the
// time-outs of the protocol only fire when messages are lost or a process is
// scheduled very late.
//
// The network never duplicates messages. It loses a copy when the loss model
// installed with SetDrop says so, or when the receiver's inbox is full.
type Network struct {
	mu    sync.Mutex
	inbox []chan Msg
	drop  func(to int, m Msg) bool
}

// NewNetwork returns a lossless network of n processes whose inboxes hold up
// to capacity undelivered messages each.
func NewNetwork(n, capacity int) *Network {
	nw := &Network{inbox: make([]chan Msg, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Msg, capacity)
	}
	return nw
}

// Size returns the number of processes connected by the network.
func (nw *Network) Size() int { return len(nw.inbox) }

// SetDrop installs a loss model: drop is called, with the network lock held,
// for every copy of every message sent afterwards, and that copy is lost if
// it returns true. A nil drop makes the network lossless again.
func (nw *Network) SetDrop(drop func(to int, m Msg) bool) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.drop = drop
}

// Send sends m to process to.
//
//sync:send
func (nw *Network) Send(to int, m Msg) {
	nw.Multicast([]int{to}, m)
}

// Multicast sends a copy of m to every process in to, atomically with respect
// to all other sends.
//
//sync:send
func (nw *Network) Multicast(to []int, m Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, q := range to {
		if nw.drop != nil && nw.drop(q, m) {
			continue
		}
		select {
		case nw.inbox[q] <- m:
		default: // inbox full: the copy is lost
		}
	}
}

// Broadcast sends a copy of m to every process, the sender included.
//
//sync:send
func (nw *Network) Broadcast(m Msg) {
	all := make([]int, len(nw.inbox))
	for i := range all {
		all[i] = i
	}
	nw.Multicast(all, m)
}

// Recv returns the next message delivered to process id. It waits at most
// until deadline; ok is false if nothing was received by then (a time-out).
//
//sync:recv
func (nw *Network) Recv(id int, deadline time.Time) (m Msg, ok bool) {
	select {
	case m := <-nw.inbox[id]:
		return m, true
	default:
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case m := <-nw.inbox[id]:
		return m, true
	case <-timer.C:
		return nil, false
	}
}
