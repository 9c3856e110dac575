package raftlog

import (
	"fmt"
	"sync"
	"time"
)

// NewCluster returns n replicas connected by buffered channels. Replica i
// proposes the commands "i.0", "i.1", ... when it leads. drop, if not nil,
// loses the messages it returns true for.
func NewCluster(n int, timeout time.Duration, drop func(to int, m any) bool) []*Replica {
	chans := make([]chan any, n)
	peers := make([]chan<- any, n)
	for i := range chans {
		chans[i] = make(chan any, 256)
		peers[i] = chans[i]
	}
	wire := new(sync.Mutex)
	rs := make([]*Replica, n)
	for i := range rs {
		var q []string
		for k := range 8 {
			q = append(q, fmt.Sprintf("%d.%d", i, k))
		}
		rs[i] = &Replica{id: i, n: n, in: chans[i], peers: peers, wire: wire, timeout: timeout, drop: drop, queue: q}
	}
	return rs
}
