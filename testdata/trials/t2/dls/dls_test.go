package dls

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestAgreementAndValidity(t *testing.T) {
	const n, f = 4, 1
	inputs := []int{7, 3, 9, 3}
	inboxes := make([]chan Msg, n)
	peers := make([]chan<- Msg, n)
	for i := range inboxes {
		inboxes[i] = make(chan Msg, 256)
		peers[i] = inboxes[i]
	}
	start := time.Now().Add(5 * time.Millisecond)
	vals := make([]int, n)
	oks := make([]bool, n)
	var wg sync.WaitGroup
	for i := range n {
		p := NewProc(Config{ID: i, N: n, F: f, Input: inputs[i], Start: start, RoundLen: 15 * time.Millisecond}, peers, inboxes[i])
		wg.Go(func() { vals[i], oks[i] = p.Run(3) })
	}
	wg.Wait()
	decided := -1
	for i := range n {
		if !oks[i] {
			continue
		}
		if !slices.Contains(inputs, vals[i]) {
			t.Errorf("process %d decided %d, nobody's input", i, vals[i])
		}
		if decided >= 0 && vals[i] != decided {
			t.Errorf("process %d decided %d, another %d", i, vals[i], decided)
		}
		decided = vals[i]
	}
	if decided < 0 {
		t.Error("nobody decided")
	}
}
