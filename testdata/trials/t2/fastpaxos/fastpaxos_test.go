package fastpaxos

import (
	"sync"
	"testing"
	"time"
)

// net is a causal in-memory network: a broadcast reaches every inbox
// before anything sent later.
type net struct {
	mu    sync.Mutex
	inbox []chan Msg
}

func (nw *net) Send(to int, m Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.inbox[to] <- m
}

func (nw *net) Broadcast(m Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, in := range nw.inbox {
		in <- m
	}
}

type endpoint struct {
	*net
	id int
}

func (e endpoint) Recv(timeout time.Duration) (Msg, bool) {
	select {
	case m := <-e.inbox[e.id]:
		return m, true
	case <-time.After(timeout):
		return Msg{}, false
	}
}

func run(t *testing.T, proposals []string) []string {
	t.Helper()
	nw := &net{}
	for range proposals {
		nw.inbox = append(nw.inbox, make(chan Msg, 1024))
	}
	out := make([]string, len(proposals))
	var wg sync.WaitGroup
	for i, v := range proposals {
		wg.Go(func() {
			d, ok := Run(Config{ID: i, N: len(proposals), Proposal: v, Net: endpoint{nw, i},
				Timeout: 100 * time.Millisecond, MaxBallots: 4})
			if ok {
				out[i] = d
			}
		})
	}
	wg.Wait()
	return out
}

func TestFastBallotDecides(t *testing.T) {
	// Everybody proposes the same value: ballot 1 (fast) decides it.
	got := run(t, []string{"x", "x", "x", "x"})
	for i, v := range got {
		if v != "x" {
			t.Errorf("process %d learned %q, want x", i, v)
		}
	}
}

func TestCollisionIsResolvedConsistently(t *testing.T) {
	got := run(t, []string{"a", "b", "c", "d", "e"})
	var first string
	for i, v := range got {
		if v == "" {
			continue
		}
		if first == "" {
			first = v
		}
		if v != first {
			t.Errorf("process %d learned %q, another %q", i, v, first)
		}
	}
	if first == "" {
		t.Error("nobody learned a value")
	}
}
