package caspaxos

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestCommitsFormAChain(t *testing.T) {
	const n = 3
	nw := NewNetwork(n)
	nodes := make([]*Node, n)
	for i := range nodes {
		// Node i sets bits 2i and 2i+1 of a grow-only set: changes are
		// idempotent, so a committed value must contain every value
		// committed in an earlier ballot.
		set := func(bit int) func(int) int { return func(v int) int { return v | 1<<bit } }
		nodes[i] = NewNode(i, nw, 50*time.Millisecond, []func(int) int{set(2 * i), set(2*i + 1)})
	}
	var wg sync.WaitGroup
	for _, p := range nodes {
		wg.Go(func() { p.Run(8) })
	}
	wg.Wait()
	var all []Commit
	for _, p := range nodes {
		all = append(all, p.Commits()...)
	}
	if len(all) == 0 {
		t.Fatal("nothing was committed")
	}
	slices.SortFunc(all, func(a, b Commit) int { return a.Ballot - b.Ballot })
	for k := 1; k < len(all); k++ {
		prev, cur := all[k-1], all[k]
		if prev.Ballot == cur.Ballot {
			t.Errorf("two commits in ballot %d", cur.Ballot)
		}
		if cur.Value&prev.Value != prev.Value {
			t.Errorf("ballot %d committed %b, which loses bits of %b committed in ballot %d",
				cur.Ballot, cur.Value, prev.Value, prev.Ballot)
		}
	}
}
