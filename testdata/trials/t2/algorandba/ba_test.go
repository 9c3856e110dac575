package algorandba

import (
	"sync"
	"testing"
	"time"
)

func agree(t *testing.T, inputs []int) []int {
	t.Helper()
	n := len(inputs)
	bus := NewBus(n)
	out := make([]int, n)
	var wg sync.WaitGroup
	for i := range inputs {
		p := NewProcess(i, n, bus, 300*time.Millisecond, "seed")
		wg.Go(func() {
			d, ok := p.Agree(inputs[i], 8)
			if !ok {
				t.Errorf("process %d did not decide", i)
			}
			out[i] = d
		})
	}
	wg.Wait()
	return out
}

func TestUnanimous(t *testing.T) {
	for _, b := range []int{0, 1} {
		got := agree(t, []int{b, b, b, b})
		for i, d := range got {
			if d != b {
				t.Errorf("inputs all %d: process %d decided %d", b, i, d)
			}
		}
	}
}

func TestSplit(t *testing.T) {
	got := agree(t, []int{0, 1, 0, 1})
	for i, d := range got {
		if d != got[0] {
			t.Errorf("process %d decided %d, process 0 decided %d", i, d, got[0])
		}
	}
}
