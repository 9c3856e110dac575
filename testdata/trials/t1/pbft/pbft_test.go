package pbft

import (
	"context"
	"maps"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type envelope struct {
	from int
	m    any
}

// network delivers every message after a millisecond, which paces the
// replicas inside a synctest bubble.
type network struct {
	inbox []chan envelope
	lost  func(to int, m any) bool // loss model; nil loses nothing
}

func newNetwork(n int) *network {
	nw := &network{}
	for range n {
		nw.inbox = append(nw.inbox, make(chan envelope, 4096))
	}
	return nw
}

func (nw *network) send(from, to int, m any) {
	if nw.lost != nil && nw.lost(to, m) {
		return
	}
	time.AfterFunc(time.Millisecond, func() { nw.inbox[to] <- envelope{from, m} })
}

type conn struct {
	nw *network
	id int
}

func (c conn) Multicast(m any) {
	for to := range c.nw.inbox {
		c.nw.send(c.id, to, m)
	}
}

func (c conn) Next(ctx context.Context) (any, int, error) {
	select {
	case e := <-c.nw.inbox[c.id]:
		return e.m, e.from, nil
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
}

// run runs the correct replicas over sequence numbers 1..last in view 0
// (primary 0); byzantine, if not nil, plays replica 0 instead.
func run(t *testing.T, n, last int, requests []string, lost func(int, any) bool, byzantine func(nw *network)) []map[int]string {
	t.Helper()
	out := make([]map[int]string, n)
	synctest.Test(t, func(t *testing.T) {
		nw := newNetwork(n)
		nw.lost = lost
		var wg sync.WaitGroup
		for id := range n {
			if id == 0 && byzantine != nil {
				continue
			}
			r := NewReplica(id, n, 0, conn{nw, id}, time.Second, requests)
			wg.Go(func() {
				r.Run(t.Context(), last)
				out[id] = maps.Clone(r.Log())
			})
		}
		if byzantine != nil {
			go byzantine(nw)
		}
		wg.Wait()
	})
	return out
}

func TestNormalCase(t *testing.T) {
	out := run(t, 4, 3, []string{"put a", "put b", "del a"}, nil, nil)
	want := map[int]string{1: "put a", 2: "put b", 3: "del a"}
	for id, l := range out {
		if !maps.Equal(l, want) {
			t.Errorf("replica %d: log %v, want %v", id, l, want)
		}
	}
}

// TestEquivocatingPrimary: the primary sends "a" to backups 1 and 2 and "b"
// to backup 3 at sequence number 1. Backups 1 and 2 prepare "a" (2f = 2
// Prepares) but only they commit it: two Commits are fewer than 2f+1, so
// nobody commits anything. At sequence number 2 the primary is silent.
func TestEquivocatingPrimary(t *testing.T) {
	byz := func(nw *network) {
		for to := 1; to <= 3; to++ {
			req := "a"
			if to == 3 {
				req = "b"
			}
			nw.send(0, to, PrePrepare{View: 0, Seq: 1, Digest: digest(req), Request: req})
		}
	}
	out := run(t, 4, 2, []string{"x"}, nil, byz)
	for id := 1; id < 4; id++ {
		if len(out[id]) != 0 {
			t.Errorf("replica %d committed %v, want nothing", id, out[id])
		}
	}
}

// TestLaggingBackup: the PrePrepare of sequence number 1 to backup 3 is
// lost. The others commit "a" at 1 (2f = 2 Prepares from backups 1 and 2,
// three Commits); backup 3, still waiting at 1, receives the PrePrepare of
// 2, jumps to 2 and commits "b" there with everybody.
func TestLaggingBackup(t *testing.T) {
	lost := func(to int, m any) bool {
		pp, ok := m.(PrePrepare)
		return ok && to == 3 && pp.Seq == 1
	}
	out := run(t, 4, 2, []string{"a", "b"}, lost, nil)
	want := []map[int]string{{1: "a", 2: "b"}, {1: "a", 2: "b"}, {1: "a", 2: "b"}, {2: "b"}}
	for id := range 4 {
		if !maps.Equal(out[id], want[id]) {
			t.Errorf("replica %d: log %v, want %v", id, out[id], want[id])
		}
	}
}
