package pbftview

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type outcome struct {
	installed bool
	view      int
	log       []Entry
}

// run starts the replicas of start (replica id -> its view) that are not
// missing, each with its prepared requests, and runs one view change.
func run(t *testing.T, n int, start map[int]int, prepared map[int][]Entry) map[int]outcome {
	t.Helper()
	out := make(map[int]outcome)
	synctest.Test(t, func(t *testing.T) {
		peers := make([]*Inbox, n)
		for i := range peers {
			peers[i] = NewInbox(256)
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for id, view := range start {
			r := NewReplica(id, n, view, time.Second, peers[id], peers, prepared[id])
			wg.Go(func() {
				ok := r.ChangeView(5)
				v, log := r.View()
				mu.Lock()
				out[id] = outcome{ok, v, log}
				mu.Unlock()
			})
		}
		wg.Wait()
	})
	return out
}

func expect(t *testing.T, out map[int]outcome, want outcome) {
	t.Helper()
	for id, o := range out {
		if o.installed != want.installed || o.view != want.view || !slices.Equal(o.log, want.log) {
			t.Errorf("replica %d: %+v, want %+v", id, o, want)
		}
	}
}

// TestHighestPreparedWins: primary 3 of view 3 crashed; replicas 0, 1 and 2
// move to view 4, led by replica 0, which re-proposes for sequence number 1
// the request prepared in the highest view.
func TestHighestPreparedWins(t *testing.T) {
	prepared := map[int][]Entry{
		0: {{Seq: 1, View: 1, Request: "x"}},
		1: {{Seq: 1, View: 2, Request: "y"}, {Seq: 2, View: 2, Request: "z"}},
	}
	out := run(t, 4, map[int]int{0: 3, 1: 3, 2: 3}, prepared)
	expect(t, out, outcome{true, 4, []Entry{{1, 2, "y"}, {2, 2, "z"}}})
}

// TestLaggingReplicaJoins: replica 2 is still in view 0 and asks for view 1;
// the ViewChange messages of view 4 from replicas 0, 1 and 3 (f+1 of them
// and more) make it join view 4.
func TestLaggingReplicaJoins(t *testing.T) {
	prepared := map[int][]Entry{3: {{Seq: 5, View: 3, Request: "w"}}}
	out := run(t, 4, map[int]int{0: 3, 1: 3, 2: 0, 3: 3}, prepared)
	expect(t, out, outcome{true, 4, []Entry{{5, 3, "w"}}})
}

// TestNextPrimaryAlsoCrashed: with n = 7 and f = 2, the primaries of views
// 6 and 7 (replicas 6 and 0) crashed; the others give up on view 7 when its
// NewView does not come and install view 8, led by replica 1.
func TestNextPrimaryAlsoCrashed(t *testing.T) {
	out := run(t, 7, map[int]int{1: 6, 2: 6, 3: 6, 4: 6, 5: 6}, nil)
	expect(t, out, outcome{true, 8, nil})
}
