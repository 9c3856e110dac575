package bracha

import (
	"fmt"
	"maps"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// delay is the transit time of every message. Inside a synctest bubble it
// paces the processes: nobody can run ahead of a message it waits for.
const delay = time.Millisecond

// network returns n inboxes and the wires that feed them after delay,
// losing the envelopes for which lost returns true.
func network(n int, lost func(to int, e Envelope) bool) (inboxes []chan Envelope, wires []chan<- Envelope, stop func()) {
	var all []chan Envelope
	for to := range n {
		in := make(chan Envelope, 4096)
		w := make(chan Envelope, 4096)
		go func() {
			for e := range w {
				if lost == nil || !lost(to, e) {
					time.AfterFunc(delay, func() { in <- e })
				}
			}
		}()
		inboxes = append(inboxes, in)
		wires = append(wires, w)
		all = append(all, w)
	}
	return inboxes, wires, func() {
		for _, w := range all {
			close(w)
		}
	}
}

// run runs the processes 0..n-1 that are not faulty over instances
// 1..last; start[id] delays the start of process id; play, if not nil,
// plays the faulty processes on the wires.
func run(t *testing.T, n, f, last int, faulty map[int]bool, start map[int]time.Duration,
	lost func(int, Envelope) bool, play func(wires []chan<- Envelope)) []map[int]string {
	t.Helper()
	out := make([]map[int]string, n)
	synctest.Test(t, func(t *testing.T) {
		inboxes, wires, stop := network(n, lost)
		var wg sync.WaitGroup
		for id := range n {
			if faulty[id] {
				continue
			}
			src := func(inst int) string { return fmt.Sprintf("v%d", inst) }
			p := New(id, n, f, time.Second, src, inboxes[id], wires)
			wg.Go(func() {
				time.Sleep(start[id])
				p.Run(last)
				out[id] = maps.Clone(p.Delivered())
			})
		}
		if play != nil {
			go play(wires)
		}
		wg.Wait()
		stop()
	})
	return out
}

func expect(t *testing.T, out []map[int]string, ids []int, want map[int]string) {
	t.Helper()
	for _, id := range ids {
		if !maps.Equal(out[id], want) {
			t.Errorf("process %d delivered %v, want %v", id, out[id], want)
		}
	}
}

func TestAllCorrect(t *testing.T) {
	out := run(t, 4, 1, 4, nil, nil, nil, nil)
	expect(t, out, []int{0, 1, 2, 3}, map[int]string{1: "v1", 2: "v2", 3: "v3", 4: "v4"})
}

// TestSenderCrashesAfterInitial: process 3, the sender of instance 3,
// reaches processes 0, 1 and 2 with its Initial and crashes.
func TestSenderCrashesAfterInitial(t *testing.T) {
	play := func(wires []chan<- Envelope) {
		time.Sleep(time.Second / 2) // instances 1 and 2 are over
		for q := range 3 {
			wires[q] <- Envelope{From: 3, Msg: Initial{Inst: 3, Value: "x"}}
		}
	}
	out := run(t, 4, 1, 3, map[int]bool{3: true}, nil, nil, play)
	expect(t, out, []int{0, 1, 2}, map[int]string{1: "v1", 2: "v2", 3: "x"})
}

// TestSenderReachesTwo: the Initial of instance 3 reaches only processes 0
// and 1; two echoes are not a quorum, so nobody delivers it.
func TestSenderReachesTwo(t *testing.T) {
	play := func(wires []chan<- Envelope) {
		time.Sleep(time.Second / 2)
		for q := range 2 {
			wires[q] <- Envelope{From: 3, Msg: Initial{Inst: 3, Value: "x"}}
		}
	}
	out := run(t, 4, 1, 3, map[int]bool{3: true}, nil, nil, play)
	expect(t, out, []int{0, 1, 2}, map[int]string{1: "v1", 2: "v2"})
}

// TestCatchUp: process 3 starts late and every message of instances 1 and
// 2 to it is lost. The others deliver instances 1, 2 and 4 (process 3 is
// the silent sender of instance 3). Process 3, in the Initial round of
// instance 1, finds the Initial of instance 4, jumps there and delivers it.
func TestCatchUp(t *testing.T) {
	lost := func(to int, e Envelope) bool { return to == 3 && instOf(e.Msg) <= 2 }
	out := run(t, 4, 1, 4, nil, map[int]time.Duration{3: time.Minute}, lost, nil)
	expect(t, out, []int{0, 1, 2}, map[int]string{1: "v1", 2: "v2", 4: "v4"})
	expect(t, out, []int{3}, map[int]string{4: "v4"})
}

func instOf(m any) int {
	switch m := m.(type) {
	case Initial:
		return m.Inst
	case Echo:
		return m.Inst
	case Ready:
		return m.Inst
	}
	return 0
}
