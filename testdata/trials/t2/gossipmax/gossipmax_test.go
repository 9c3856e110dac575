package gossipmax

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestAllAgreeOnMax(t *testing.T) {
	const size, epochs = 4, 3
	chans := make([]chan Report, size)
	peers := make([]chan<- Report, size)
	for i := range chans {
		chans[i] = make(chan Report, 256)
		peers[i] = chans[i]
	}
	results := make([][]int, size)
	var wire sync.Mutex
	var wg sync.WaitGroup
	for i := range size {
		cfg := Config{ID: i, Rounds: 3, Timeout: time.Second,
			Reading: func(epoch int) int { return (i*7 + epoch*3) % 10 }}
		node := NewNode(cfg, &wire, peers, chans[i])
		wg.Go(func() { results[i] = node.Run(epochs) })
	}
	wg.Wait()
	want := make([]int, epochs)
	for e := range epochs {
		for i := range size {
			want[e] = max(want[e], (i*7+(e+1)*3)%10)
		}
	}
	for i, r := range results {
		if !slices.Equal(r, want) {
			t.Errorf("node %d: results %v, want %v", i, r, want)
		}
	}
}
