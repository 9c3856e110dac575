package mrbinary

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

func run(t *testing.T, inputs []int, f, rounds int) ([]int, []bool) {
	t.Helper()
	n := len(inputs)
	nw := NewNet(n)
	vals, oks := make([]int, n), make([]bool, n)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, in := range inputs {
		wg.Go(func() { vals[i], oks[i] = Propose(ctx, nw, i, n, f, in, rounds) })
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatal("processes did not finish their rounds")
	}
	return vals, oks
}

func TestUnanimousDecidesInput(t *testing.T) {
	// Round 1's coin is 1, so a unanimous 1 is decided in round 1.
	vals, oks := run(t, []int{1, 1, 1, 1}, 1, 3)
	for i := range vals {
		if !oks[i] || vals[i] != 1 {
			t.Errorf("process %d: decided %d (%v), want 1", i, vals[i], oks[i])
		}
	}
}

func TestMixedInputsAgree(t *testing.T) {
	inputs := []int{0, 1, 1, 0, 1, 0, 0}
	vals, oks := run(t, inputs, 2, 8)
	first := -1
	for i := range vals {
		if !oks[i] {
			continue
		}
		if !slices.Contains(inputs, vals[i]) {
			t.Errorf("process %d decided %d, nobody's input", i, vals[i])
		}
		if first >= 0 && vals[i] != first {
			t.Errorf("process %d decided %d, another %d", i, vals[i], first)
		}
		first = vals[i]
	}
}
