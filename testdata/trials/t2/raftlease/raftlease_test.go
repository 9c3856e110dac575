package raftlease

import (
	"context"
	"sync"
	"testing"
	"time"
)

type chanNet []chan Message

func (c chanNet) Send(to int, m Message) {
	select {
	case c[to] <- m:
	default:
	}
}

func TestStableLeaderRenewsLease(t *testing.T) {
	const size = 3
	net := make(chanNet, size)
	for i := range net {
		net[i] = make(chan Message, 256)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	nodes := make([]*Node, size)
	var wg sync.WaitGroup
	for i := range nodes {
		nodes[i] = NewNode(Config{ID: i, Size: size, HeartbeatInterval: 3 * time.Millisecond,
			ElectionTimeout: 10 * time.Second, Lease: 5 * time.Second}, net, net[i])
		wg.Go(func() { _ = nodes[i].Run(ctx) })
	}
	wg.Wait()
	for i, n := range nodes {
		if n.Term() != 0 {
			t.Errorf("node %d moved to term %d under a stable leader", i, n.Term())
		}
		if i != 0 && len(n.Grants()) != 0 {
			t.Errorf("follower %d obtained leases %v", i, n.Grants())
		}
	}
	g := nodes[0].Grants()
	if len(g) == 0 {
		t.Fatal("the leader never obtained a lease")
	}
	for k := range g {
		if g[k].Term != 0 || k > 0 && g[k].Beat <= g[k-1].Beat {
			t.Errorf("lease %d is %+v after %+v", k, g[k], g[max(k-1, 0)])
		}
	}
}

func TestLeaderStepsDownToLaterTerm(t *testing.T) {
	// Node 0 starts as leader of term 0; node 1 behaves as leader of term 1
	// (its election timer is tiny), and node 0 must follow it.
	const size = 3
	net := make(chanNet, size)
	for i := range net {
		net[i] = make(chan Message, 256)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 80*time.Millisecond)
	defer cancel()
	nodes := make([]*Node, size)
	var wg sync.WaitGroup
	for i := range nodes {
		et := 10 * time.Second
		if i == 1 {
			et = time.Millisecond
		}
		nodes[i] = NewNode(Config{ID: i, Size: size, HeartbeatInterval: 3 * time.Millisecond,
			ElectionTimeout: et, Lease: time.Millisecond}, net, net[i])
		wg.Go(func() { _ = nodes[i].Run(ctx) })
	}
	wg.Wait()
	for i, n := range nodes {
		if n.Term() != 1 {
			t.Errorf("node %d ends in term %d, want 1", i, n.Term())
		}
	}
}
