package primarybackup

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// network is a set of FIFO links with a latency of one millisecond (which
// paces the replicas inside a synctest bubble); lost, if set, loses
// messages.
type network struct {
	wire  []chan timed
	inbox []chan Message
	lost  func(to int, m Message) bool
}

type timed struct {
	due time.Time
	m   Message
}

func newNetwork(n int, lost func(int, Message) bool) *network {
	nw := &network{lost: lost}
	for range n {
		w, in := make(chan timed, 4096), make(chan Message, 4096)
		go func() {
			for t := range w {
				time.Sleep(time.Until(t.due))
				in <- t.m
			}
		}()
		nw.wire = append(nw.wire, w)
		nw.inbox = append(nw.inbox, in)
	}
	return nw
}

func (nw *network) close() {
	for _, w := range nw.wire {
		close(w)
	}
}

type endpoint struct {
	nw *network
	id int
}

func (e endpoint) Send(to int, m Message) error {
	if e.nw.lost != nil && e.nw.lost(to, m) {
		return nil
	}
	e.nw.wire[to] <- timed{time.Now().Add(time.Millisecond), m}
	return nil
}

func (e endpoint) Recv(timeout time.Duration) (Message, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case m := <-e.nw.inbox[e.id]:
		return m, nil
	case <-timer.C:
		return nil, ErrTimeout
	}
}

// requests: the primary of epoch 1 proposes a and b, of epoch 2 c, of
// epoch 3 d.
func requests(epoch int) []string {
	return map[int][]string{1: {"a", "b"}, 2: {"c"}, 3: {"d"}}[epoch]
}

// run runs replicas 0..2 except the crashed ones through epochs 1..3;
// start[id] delays replica id.
func run(t *testing.T, crashed map[int]bool, start map[int]time.Duration, lost func(int, Message) bool) [][]string {
	t.Helper()
	out := make([][]string, 3)
	synctest.Test(t, func(t *testing.T) {
		nw := newNetwork(3, lost)
		defer nw.close()
		var wg sync.WaitGroup
		for id := range 3 {
			if crashed[id] {
				continue
			}
			// Time-outs differ, as randomized ones would, so that replicas
			// giving up on a primary do not all do so at the same instant.
			timeout := time.Second + time.Duration(id)*100*time.Millisecond
			r := NewReplica(id, 3, endpoint{nw, id}, timeout, requests)
			wg.Go(func() {
				time.Sleep(start[id])
				r.Run(3)
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

func TestThreeEpochs(t *testing.T) {
	out := run(t, nil, nil, nil)
	expect(t, out, []int{0, 1, 2}, []string{"a", "b", "c", "d"})
}

// TestCrashedPrimary: replica 2, primary of epoch 2, crashed; epoch 2 never
// starts and epoch 3 goes on from the log of epoch 1.
func TestCrashedPrimary(t *testing.T) {
	out := run(t, map[int]bool{2: true}, nil, nil)
	expect(t, out, []int{0, 1}, []string{"a", "b", "d"})
}

// TestLateReplicaJoinsLaterEpoch: replica 0 starts late and loses every
// message of epoch 1; waiting for the Start of epoch 1, it receives the
// Start of epoch 2, jumps there and installs epoch 2's log.
func TestLateReplicaJoinsLaterEpoch(t *testing.T) {
	lost := func(to int, m Message) bool { return to == 0 && m.Header().Epoch == 1 }
	out := run(t, nil, map[int]time.Duration{0: time.Second / 2}, lost)
	expect(t, out, []int{0, 1, 2}, []string{"a", "b", "c", "d"})
}
