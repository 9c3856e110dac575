package ctcons

import (
	"context"
	"errors"
	"sync"
)

// ErrTimeout is returned by Recv when nothing arrives in time.
var ErrTimeout = errors.New("ctcons: receive timed out")

// Net is an in-memory network of n processes.
type Net struct {
	mu    sync.Mutex
	inbox []chan Msg
	drop  func(to int, m Msg) bool
}

// NewNet returns a network of n processes; drop, if not nil, loses the
// copies it returns true for.
func NewNet(n int, drop func(to int, m Msg) bool) *Net {
	nt := &Net{inbox: make([]chan Msg, n), drop: drop}
	for i := range nt.inbox {
		nt.inbox[i] = make(chan Msg, 256)
	}
	return nt
}

// Send sends m to process to.
//
//sync:send
func (nt *Net) Send(to int, m Msg) {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	nt.put(to, m)
}

// Broadcast sends m to every process.
//
//sync:send
func (nt *Net) Broadcast(m Msg) {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	for to := range nt.inbox {
		nt.put(to, m)
	}
}

func (nt *Net) put(to int, m Msg) {
	if nt.drop != nil && nt.drop(to, m) {
		return
	}
	select {
	case nt.inbox[to] <- m:
	default:
	}
}

// Recv returns the next message for process id, or ErrTimeout when ctx is
// done first.
//
//sync:recv
func (nt *Net) Recv(ctx context.Context, id int) (Msg, error) {
	select {
	case m := <-nt.inbox[id]:
		return m, nil
	case <-ctx.Done():
		return Msg{}, ErrTimeout
	}
}
