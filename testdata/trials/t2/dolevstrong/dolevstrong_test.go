package dolevstrong

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestAgreementAndValidity(t *testing.T) {
	const n, f, slots = 4, 1, 4
	nw := NewNetwork(n)
	keys := NewKeyring(n)
	out := make([][]string, n)
	var wg sync.WaitGroup
	for i := range n {
		p := NewProcess(i, n, f, nw.Endpoint(i), keys, time.Second, func(slot int) string {
			return fmt.Sprintf("v%d", slot)
		})
		wg.Go(func() { out[i] = p.Run(slots) })
	}
	wg.Wait()
	want := []string{"v0", "v1", "v2", "v3"}
	for i, o := range out {
		if !slices.Equal(o, want) {
			t.Errorf("process %d output %v, want %v", i, o, want)
		}
	}
}

func TestForgedChainRejected(t *testing.T) {
	p := NewProcess(1, 4, 1, nil, NewKeyring(4), time.Second, nil)
	dealt := p.sign(0, []Chain{{Value: "x"}}) // signed by 1, but 0 deals slot 0
	if p.valid(0, 1, dealt[0]) {
		t.Error("a chain not started by the dealer was accepted")
	}
	q := NewProcess(0, 4, 1, nil, p.keys, time.Second, nil)
	good := q.sign(0, []Chain{{Value: "x"}})
	if !p.valid(0, 1, good[0]) || p.valid(0, 2, good[0]) {
		t.Error("round-1 chain of the dealer misjudged")
	}
	good[0].Value = "y"
	if p.valid(0, 1, good[0]) {
		t.Error("a chain whose value was changed was accepted")
	}
}
