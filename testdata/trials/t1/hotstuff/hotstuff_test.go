package hotstuff

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// network delivers each message a millisecond after it is sent (which paces
// the replicas inside a synctest bubble), unless lost says otherwise.
type network struct {
	inbox []chan Msg
	lost  func(to int, m Msg) bool
}

type endpoint struct {
	nw *network
	id int
}

func (e endpoint) Send(to int, m Msg) {
	if e.nw.lost != nil && e.nw.lost(to, m) {
		return
	}
	time.AfterFunc(time.Millisecond, func() { e.nw.inbox[to] <- m })
}

func (e endpoint) Recv(timeout time.Duration) (Msg, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case m := <-e.nw.inbox[e.id]:
		return m, nil
	case <-timer.C:
		return Msg{}, ErrTimeout
	}
}

// run runs the replicas 0..3 not in crashed over views 1..last and returns
// their committed branches.
func run(t *testing.T, last int, crashed map[int]bool, lost func(int, Msg) bool) [][]string {
	t.Helper()
	out := make([][]string, 4)
	synctest.Test(t, func(t *testing.T) {
		nw := &network{lost: lost}
		for range 4 {
			nw.inbox = append(nw.inbox, make(chan Msg, 4096))
		}
		var wg sync.WaitGroup
		for id := range 4 {
			if crashed[id] {
				continue
			}
			cmd := func(view int) string { return fmt.Sprintf("c%d", view) }
			r := NewReplica(id, 4, endpoint{nw, id}, time.Second, cmd)
			wg.Go(func() {
				r.Run(last)
				out[id] = r.Committed()
			})
		}
		wg.Wait()
	})
	return out
}

func expect(t *testing.T, out [][]string, ids []int, want []string) {
	t.Helper()
	for _, id := range ids {
		if !slices.Equal(out[id], want) {
			t.Errorf("replica %d committed %v, want %v", id, out[id], want)
		}
	}
}

func TestEveryViewCommits(t *testing.T) {
	out := run(t, 6, nil, nil)
	expect(t, out, []int{0, 1, 2, 3}, []string{"c1", "c2", "c3", "c4", "c5", "c6"})
}

// TestCrashedLeader: replica 2 crashed, so views 2 and 6, which it leads,
// time out and commit nothing; the branch goes on from the previous QC.
func TestCrashedLeader(t *testing.T) {
	out := run(t, 7, map[int]bool{2: true}, nil)
	expect(t, out, []int{0, 1, 3}, []string{"c1", "c3", "c4", "c5", "c7"})
}

// TestLaggingReplicaJumps: every message of views 3 and 4 to replica 2 is
// lost. The others go on without it; still waiting for the proposal of view
// 3, replica 2 receives the Prepare of view 5, jumps there, and then leads
// view 6. Its committed branch ends up the same.
func TestLaggingReplicaJumps(t *testing.T) {
	lost := func(to int, m Msg) bool { return to == 2 && (m.Hdr.View == 3 || m.Hdr.View == 4) }
	out := run(t, 6, nil, lost)
	expect(t, out, []int{0, 1, 2, 3}, []string{"c1", "c2", "c3", "c4", "c5", "c6"})
}
