package uniformvoting

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type outcome struct {
	v     int64
	phase int32
	ok    bool
}

// run runs the nodes of inputs whose ids are not in crashed. Every inbox
// is fed through a relay that delays each message by its own amount, given
// by delay, so different nodes hear different majorities.
func run(t *testing.T, inputs []int64, crashed map[int]bool, delay func(to int, m *Estimate) time.Duration) []outcome {
	t.Helper()
	out := make([]outcome, len(inputs))
	synctest.Test(t, func(t *testing.T) {
		var inboxes []chan *Estimate
		var peers []chan<- *Estimate
		for to := range inputs {
			in := make(chan *Estimate, 1024)
			wire := make(chan *Estimate, 1024)
			go func() {
				for m := range wire {
					d := time.Duration(0)
					if delay != nil {
						d = delay(to, m)
					}
					time.AfterFunc(d, func() { in <- m })
				}
			}()
			inboxes = append(inboxes, in)
			peers = append(peers, wire)
		}
		var wg sync.WaitGroup
		for id, x := range inputs {
			if crashed[id] {
				continue
			}
			nd := NewNode(int32(id), x, time.Second, inboxes[id], peers)
			wg.Go(func() {
				nd.Run(10)
				v, ph, ok := nd.Decision()
				out[id] = outcome{v, ph, ok}
			})
		}
		wg.Wait()
		for _, w := range peers {
			close(w)
		}
	})
	return out
}

func checkAgreement(t *testing.T, out []outcome, crashed map[int]bool, want outcome) {
	t.Helper()
	for id, o := range out {
		if !crashed[id] && o != want {
			t.Errorf("node %d: %+v, want %+v", id, o, want)
		}
	}
}

// TestUniformRounds: node q's messages take q ms to arrive, so every node
// hears nodes 0, 1 and 2 first in every round. Phase 0 brings everybody to
// x = 2 (no vote: the values differ), and phase 1 decides 2.
func TestUniformRounds(t *testing.T) {
	delay := func(to int, m *Estimate) time.Duration { return time.Duration(m.GetFrom()) * time.Millisecond }
	out := run(t, []int64{4, 2, 9, 1, 7}, nil, delay)
	checkAgreement(t, out, nil, outcome{v: 2, phase: 1, ok: true})
}

// TestSplitEstimates: node q's messages reach node p after (p+q)%5 ms, so
// the nodes hear different majorities in round Estimate; no vote can be
// unanimous across them unless the values are, and agreement must hold.
func TestSplitEstimates(t *testing.T) {
	delay := func(to int, m *Estimate) time.Duration {
		return time.Duration((to+int(m.GetFrom()))%5) * time.Millisecond
	}
	out := run(t, []int64{3, 1, 4, 1, 5}, map[int]bool{}, delay)
	want := out[0]
	if !want.ok {
		t.Fatalf("node 0 did not decide in 10 phases")
	}
	checkAgreement(t, out, nil, want)
}

func TestCrashedMinority(t *testing.T) {
	crashed := map[int]bool{1: true, 3: true}
	out := run(t, []int64{6, 0, 6, 0, 6}, crashed, nil)
	checkAgreement(t, out, crashed, outcome{v: 6, phase: 0, ok: true})
}
