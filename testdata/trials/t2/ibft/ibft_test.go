package ibft

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

func runNodes(t *testing.T, n, heights int, timeout time.Duration, drop func(int, Message) bool) []*Node {
	t.Helper()
	nw := NewNetwork(n)
	nw.SetDrop(drop)
	nodes := make([]*Node, n)
	for i := range nodes {
		nodes[i] = NewNode(Config{
			ID: i, N: n, Transport: nw.Endpoint(i), Timeout: timeout,
			Propose: func(h int) string { return fmt.Sprintf("block-%d-by-%d", h, i) },
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	for _, nd := range nodes {
		wg.Go(func() { _ = nd.Run(ctx, heights) })
	}
	wg.Wait()
	return nodes
}

// checkAgreement: no two replicas decide different blocks at one height.
func checkAgreement(t *testing.T, nodes []*Node) {
	t.Helper()
	for _, a := range nodes {
		for _, b := range nodes {
			da, db := a.Decided(), b.Decided()
			for h := 0; h < min(len(da), len(db)); h++ {
				if da[h] != db[h] {
					t.Errorf("height %d: %q vs %q", h, da[h], db[h])
				}
			}
		}
	}
}

func TestLossless(t *testing.T) {
	nodes := runNodes(t, 4, 3, 500*time.Millisecond, nil)
	checkAgreement(t, nodes)
	for i, nd := range nodes {
		want := []string{"block-0-by-0", "block-1-by-1", "block-2-by-2"}
		if got := nd.Decided(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("node %d decided %v, want %v", i, got, want)
		}
	}
}

func TestSilentProposer(t *testing.T) {
	// Every PrePrepare of round 0 is lost: a later round decides. Replicas
	// time out at slightly different moments and drop messages of rounds
	// they have not reached, so which round decides depends on timing; a
	// quorum must decide, and on the same block, which is not round 0's.
	drop := func(_ int, m Message) bool { return m.Hdr.Step == PrePrepare && m.Hdr.Round == 0 }
	nodes := runNodes(t, 4, 1, 50*time.Millisecond, drop)
	checkAgreement(t, nodes)
	decided := 0
	for i, nd := range nodes {
		got := nd.Decided()
		if len(got) == 0 {
			continue
		}
		decided++
		if got[0] == "block-0-by-0" {
			t.Errorf("node %d decided the block of the silent round 0", i)
		}
	}
	if decided < 3 {
		t.Errorf("%d replicas decided, want a quorum of 3", decided)
	}
}
