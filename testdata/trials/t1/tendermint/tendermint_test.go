package tendermint

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// run runs nodes 0..n-1 except the crashed ones until they decided heights
// heights. Messages reach their inbox a millisecond after they are sent,
// unless lost says otherwise; inside the synctest bubble this keeps the
// nodes in step.
func run(t *testing.T, n, heights int, crashed map[int]bool, lost func(to int, m any) bool) [][]string {
	t.Helper()
	out := make([][]string, n)
	synctest.Test(t, func(t *testing.T) {
		var inboxes []chan any
		var peers []chan<- any
		for to := range n {
			in := make(chan any, 4096)
			wire := make(chan any, 4096)
			go func() {
				for m := range wire {
					if lost == nil || !lost(to, m) {
						time.AfterFunc(time.Millisecond, func() { in <- m })
					}
				}
			}()
			inboxes = append(inboxes, in)
			peers = append(peers, wire)
		}
		var wg sync.WaitGroup
		for id := range n {
			if crashed[id] {
				continue
			}
			cfg := Config{ID: id, N: n, Timeouts: [3]time.Duration{time.Second, time.Second, time.Second},
				Value: func(h int) string { return fmt.Sprintf("h%d-p%d", h, id) }}
			nd := NewNode(cfg, inboxes[id], peers)
			wg.Go(func() {
				nd.Run(heights)
				out[id] = nd.Decisions()
			})
		}
		wg.Wait()
		for _, w := range peers {
			close(w)
		}
	})
	return out
}

func expect(t *testing.T, out [][]string, ids []int, want []string) {
	t.Helper()
	for _, id := range ids {
		if !slices.Equal(out[id], want) {
			t.Errorf("node %d decided %v, want %v", id, out[id], want)
		}
	}
}

func TestRoundZeroDecides(t *testing.T) {
	out := run(t, 4, 3, nil, nil)
	expect(t, out, []int{0, 1, 2, 3}, []string{"h1-p1", "h2-p2", "h3-p3"})
}

// TestCrashedProposer: node 2 crashed; at height 2 its round 0 times out
// and round 1, proposed by node 3, decides.
func TestCrashedProposer(t *testing.T) {
	out := run(t, 4, 3, map[int]bool{2: true}, nil)
	expect(t, out, []int{0, 1, 3}, []string{"h1-p1", "h2-p3", "h3-p3"})
}

// TestRoundSkip: node 3 crashed, and every message of height 1, round 0
// to node 0 is lost, so round 0 reaches no quorum. Node 0 runs its round-0
// steps on time-outs alone and is still in round 0's Precommit step when
// node 2's proposal of round 1 arrives: it skips to round 1, which decides.
func TestRoundSkip(t *testing.T) {
	lost := func(to int, m any) bool {
		switch m := m.(type) {
		case Proposal:
			return to == 0 && m.Height == 1 && m.Round == 0
		case Vote:
			return to == 0 && m.Height == 1 && m.Round == 0
		}
		return false
	}
	out := run(t, 4, 2, map[int]bool{3: true}, lost)
	expect(t, out, []int{0, 1, 2}, []string{"h1-p2", "h2-p2"})
}
