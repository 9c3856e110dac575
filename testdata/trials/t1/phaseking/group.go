package phaseking

import (
	"sync"
	"time"
)

// NewGroup returns n processes tolerating f Byzantine ones, with initial
// values init; lie[i], if not nil, makes process i Byzantine.
func NewGroup(f int, init []int, lie []func(to, v int) int, timeout time.Duration) []*Proc {
	n := len(init)
	chans := make([]chan Envelope, n)
	peers := make([]chan<- Envelope, n)
	for i := range chans {
		chans[i] = make(chan Envelope, 256)
		peers[i] = chans[i]
	}
	wire := new(sync.Mutex)
	ps := make([]*Proc, n)
	for i := range ps {
		ps[i] = &Proc{id: i, n: n, f: f, in: chans[i], peers: peers, wire: wire, timeout: timeout, lie: lie[i], v: init[i]}
	}
	return ps
}
