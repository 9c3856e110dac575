package hbbftba

import (
	"sync"
	"testing"
	"time"
)

// run runs len(inputs) processes over buffered channels and returns their
// results.
func run(t *testing.T, inputs []int, f int) []Result {
	t.Helper()
	n := len(inputs)
	chans := make([]chan Msg, n)
	out := make([]chan<- Msg, n)
	for i := range chans {
		chans[i] = make(chan Msg, 1024)
		out[i] = chans[i]
	}
	cfg := Config{
		F:         f,
		Coin:      func(epoch int) int { return epoch % 2 },
		Timeout:   300 * time.Millisecond,
		MaxEpochs: 8,
	}
	res := make([]Result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = Run(i, inputs[i], chans[i], out, cfg)
		}()
	}
	wg.Wait()
	return res
}

func TestUnanimousDecidesInput(t *testing.T) {
	for _, v := range []int{0, 1} {
		res := run(t, []int{v, v, v, v}, 1)
		for i, r := range res {
			// The coin is v in epoch v: every process decides there.
			if !r.Decided || r.Value != v || r.Epoch != v {
				t.Errorf("input %d: process %d: got %+v, want decision %d in epoch %d", v, i, r, v, v)
			}
		}
	}
}

func TestMixedInputsAgree(t *testing.T) {
	for _, inputs := range [][]int{{0, 0, 1, 1}, {0, 1, 1, 1}, {1, 0, 0, 0}} {
		res := run(t, inputs, 1)
		decided := -1
		for i, r := range res {
			if !r.Decided {
				continue
			}
			if decided >= 0 && r.Value != decided {
				t.Fatalf("inputs %v: process %d decided %d, another decided %d", inputs, i, r.Value, decided)
			}
			decided = r.Value
		}
		if decided < 0 {
			t.Errorf("inputs %v: nobody decided: %+v", inputs, res)
		}
	}
}
