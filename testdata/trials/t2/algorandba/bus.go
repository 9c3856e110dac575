package algorandba

import (
	"sync"
	"time"
)

// Bus is an in-memory gossip network: every vote reaches every process
// (the sender included) in the same order.
type Bus struct {
	mu    sync.Mutex
	inbox []chan Vote
}

// NewBus returns a bus for n processes.
func NewBus(n int) *Bus {
	b := &Bus{inbox: make([]chan Vote, n)}
	for i := range b.inbox {
		b.inbox[i] = make(chan Vote, 4096)
	}
	return b
}

// Gossip delivers v to every process.
//
//sync:send
func (b *Bus) Gossip(v Vote) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.inbox {
		select {
		case ch <- v:
		default:
		}
	}
}

// Next returns the next vote for process id, or false after timeout.
//
//sync:recv
func (b *Bus) Next(id int, timeout time.Duration) (Vote, bool) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case v := <-b.inbox[id]:
		return v, true
	case <-t.C:
		return Vote{}, false
	}
}
