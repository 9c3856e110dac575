package crusader

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// run runs n processes; inputs[i] are process i's inputs.
func run(t *testing.T, f int, inputs [][]string) [][]string {
	t.Helper()
	n := len(inputs)
	var mu sync.Mutex
	peers := make([]chan<- Envelope, n)
	inboxes := make([]chan Envelope, n)
	for i := range inboxes {
		inboxes[i] = make(chan Envelope, 1024)
		peers[i] = inboxes[i]
	}
	procs := make([]*Crusader, n)
	for i := range procs {
		procs[i] = New(i, f, peers, &mu, inboxes[i], time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, p := range procs {
		wg.Go(func() {
			if err := p.Run(ctx, inputs[i]); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	out := make([][]string, n)
	for i, p := range procs {
		out[i] = p.Outputs()
	}
	return out
}

func TestCrusader(t *testing.T) {
	inputs := [][]string{
		{"a", "a", "x"},
		{"a", "b", "x"},
		{"a", "b", "y"},
		{"a", "b", "z"},
	}
	got := run(t, 1, inputs)
	// Instance 1 unanimous: "a". Instance 2: three "b" = n-f, so everybody
	// echoes "b". Instance 3: no value reaches n-f: Bottom.
	want := []string{"a", "b", Bottom}
	for i, o := range got {
		if !slices.Equal(o, want) {
			t.Errorf("process %d output %v, want %v", i, o, want)
		}
	}
}
