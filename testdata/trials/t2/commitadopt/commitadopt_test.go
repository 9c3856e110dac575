package commitadopt

import (
	"context"
	"sync"
	"testing"
	"time"
)

type outcome struct {
	value string
	phase int
}

func run(t *testing.T, inputs []string, f int, crashed map[int]bool) []outcome {
	t.Helper()
	n := len(inputs)
	props := make([]chan Proposal, n)
	checks := make([]chan Check, n)
	propPeers := make([]chan<- Proposal, n)
	checkPeers := make([]chan<- Check, n)
	for i := range n {
		props[i] = make(chan Proposal, 1024)
		checks[i] = make(chan Check, 1024)
		propPeers[i], checkPeers[i] = props[i], checks[i]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out := make([]outcome, n)
	var wg sync.WaitGroup
	for i := range n {
		if crashed[i] {
			continue
		}
		p := NewProcess(i, f, propPeers, checkPeers, props[i], checks[i])
		wg.Go(func() {
			v, at, err := p.Consensus(ctx, inputs[i])
			if err != nil {
				t.Errorf("process %d: %v", i, err)
			}
			out[i] = outcome{v, at}
		})
	}
	wg.Wait()
	return out
}

func TestUnanimousCommitsInPhaseOne(t *testing.T) {
	for i, o := range run(t, []string{"x", "x", "x"}, 1, nil) {
		if o != (outcome{"x", 1}) {
			t.Errorf("process %d: %+v, want x in phase 1", i, o)
		}
	}
}

func TestAgreement(t *testing.T) {
	inputs := [][]string{
		{"a", "b", "c"},
		{"a", "a", "b", "b", "c"},
		{"b", "a", "a", "c", "c"},
	}
	for _, in := range inputs {
		got := run(t, in, (len(in)-1)/2, nil)
		for i, o := range got {
			if o.value != got[0].value || o.value == "" {
				t.Errorf("inputs %v: process %d committed %q, process 0 %q", in, i, o.value, got[0].value)
			}
		}
	}
}

func TestOneCrashed(t *testing.T) {
	got := run(t, []string{"a", "b", "b"}, 1, map[int]bool{0: true})
	if got[1].value != "b" || got[2].value != "b" {
		t.Errorf("with process 0 crashed, processes 1 and 2 committed %q and %q, want b", got[1].value, got[2].value)
	}
}
