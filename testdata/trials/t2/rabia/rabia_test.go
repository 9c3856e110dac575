package rabia

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

type network struct {
	mu    sync.Mutex
	inbox []chan Msg
}

type port struct {
	nw *network
	id int
}

func (p port) Broadcast(m Msg) {
	p.nw.mu.Lock()
	defer p.nw.mu.Unlock()
	for _, ch := range p.nw.inbox {
		ch <- m
	}
}

func (p port) Inbox() <-chan Msg { return p.nw.inbox[p.id] }

// decideAll runs slot 0 at n replicas with the given proposals. Broadcasts
// are atomic and inboxes FIFO, so delivery is causal and no replica drops a
// message of a round it has not reached yet.
func decideAll(t *testing.T, proposals []string) []string {
	t.Helper()
	n := len(proposals)
	nw := &network{inbox: make([]chan Msg, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Msg, 1024)
	}
	out := make([]string, n)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i := range n {
		r := NewReplica(i, n, port{nw, i}, 500*time.Millisecond)
		wg.Go(func() {
			v, err := r.Decide(ctx, 0, proposals[i])
			if err != nil {
				t.Error(err)
			}
			out[i] = v
		})
	}
	wg.Wait()
	return out
}

func TestSameProposal(t *testing.T) {
	got := decideAll(t, []string{"put x", "put x", "put x"})
	for i, v := range got {
		if v != "put x" {
			t.Errorf("replica %d: slot holds %q, want %q", i, v, "put x")
		}
	}
}

func TestAgreement(t *testing.T) {
	for k := range 5 {
		props := []string{"a", fmt.Sprint("b", k%2), "b0", "c", "b1"}
		got := decideAll(t, props)
		for i, v := range got {
			if v != got[0] {
				t.Errorf("run %d: replica %d holds %q, replica 0 %q", k, i, v, got[0])
			}
		}
	}
}
