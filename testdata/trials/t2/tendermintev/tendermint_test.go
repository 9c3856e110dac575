package tendermintev

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

func run(t *testing.T, n, heights int, timeout time.Duration, drop func(int, *Msg) bool) []*Node {
	t.Helper()
	nw := NewNetwork(n, (n-1)/3)
	defer nw.Close()
	nw.SetDrop(drop)
	nodes := make([]*Node, n)
	for i := range nodes {
		nodes[i] = NewNode(Config{ID: i, N: n, Net: nw, Timeout: timeout,
			Proposal: func(h int) string { return fmt.Sprintf("h%d-by-%d", h, i) }})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range nodes {
		wg.Go(func() {
			if err := c.Run(ctx, heights); err != nil {
				t.Errorf("%v: %v", c, err)
			}
		})
	}
	wg.Wait()
	return nodes
}

func TestLossless(t *testing.T) {
	nodes := run(t, 4, 3, time.Second, nil)
	want := []string{"h0-by-0", "h1-by-1", "h2-by-2"}
	for i, c := range nodes {
		if got := c.Decided(); !slices.Equal(got, want) {
			t.Errorf("node %d decided %v, want %v", i, got, want)
		}
	}
}

func TestSilentProposer(t *testing.T) {
	// The proposal of height 0, round 0 is lost everywhere: every node
	// prevotes and precommits nil, and round 1 (proposer 1) decides.
	drop := func(_ int, m *Msg) bool { return m.Height == 0 && m.Round == 0 && m.Step == Propose }
	nodes := run(t, 4, 1, 150*time.Millisecond, drop)
	for i, c := range nodes {
		if got := c.Decided(); !slices.Equal(got, []string{"h0-by-1"}) {
			t.Errorf("node %d decided %v, want [h0-by-1]", i, got)
		}
	}
}
