package threepc

import (
	"maps"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// run runs n sites for txns transactions; sites in crashed never start, and
// no[s] lists the transactions site s votes no on.
func run(t *testing.T, n, txns int, crashed map[int]bool, no map[int]map[int]bool) []map[int]Outcome {
	t.Helper()
	out := make([]map[int]Outcome, n)
	synctest.Test(t, func(t *testing.T) {
		nw := NewNetwork(n)
		var wg sync.WaitGroup
		for id := range n {
			if crashed[id] {
				continue
			}
			p := New(id, n, nw, time.Second, func(txn int) bool { return !no[id][txn] })
			wg.Go(func() {
				p.Run(txns)
				out[id] = maps.Clone(p.Outcomes())
			})
		}
		wg.Wait()
	})
	return out
}

func want(t *testing.T, got []map[int]Outcome, sites []int, exp map[int]Outcome) {
	t.Helper()
	for _, s := range sites {
		if !maps.Equal(got[s], exp) {
			t.Errorf("site %d: outcomes %v, want %v", s, got[s], exp)
		}
	}
}

func TestAllCommit(t *testing.T) {
	got := run(t, 4, 3, nil, nil)
	want(t, got, []int{0, 1, 2, 3}, map[int]Outcome{1: Committed, 2: Committed, 3: Committed})
}

func TestOneNoAbortsEverywhere(t *testing.T) {
	got := run(t, 4, 3, nil, map[int]map[int]bool{2: {2: true}})
	want(t, got, []int{0, 1, 2, 3}, map[int]Outcome{1: Committed, 2: Aborted, 3: Committed})
}

func TestCrashedParticipantAborts(t *testing.T) {
	got := run(t, 4, 2, map[int]bool{3: true}, nil)
	want(t, got, []int{0, 1, 2}, map[int]Outcome{1: Aborted, 2: Aborted})
}
