package hrsvote

import (
	"slices"
	"sync"
	"testing"
	"time"
)

type gossip struct {
	mu     sync.Mutex
	inbox  []chan Message
	silent map[int]bool // crashed processes: what they publish is lost
}

type member struct {
	*gossip
	id int
}

func (m member) Publish(msg Message) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.silent[m.id] {
		return
	}
	for _, in := range m.inbox {
		in <- msg
	}
}

func run(n, f int, heights int64, silent map[int]bool) [][]string {
	g := &gossip{silent: silent}
	for range n {
		g.inbox = append(g.inbox, make(chan Message, 1024))
	}
	out := make([][]string, n)
	var wg sync.WaitGroup
	for i := range n {
		if silent[i] {
			continue
		}
		wg.Go(func() {
			out[i] = Run(Config{ID: i, N: n, F: f, Heights: heights, Timeout: 50 * time.Millisecond}, member{g, i}, g.inbox[i])
		})
	}
	wg.Wait()
	return out
}

func TestAllDecideTheSameValues(t *testing.T) {
	got := run(4, 1, 3, nil)
	// The proposer of (h, 0) is h mod 4 and proposes a fresh value.
	want := []string{"h1/p1", "h2/p2", "h3/p3"}
	for i, d := range got {
		if !slices.Equal(d, want) {
			t.Errorf("process %d decided %v, want %v", i, d, want)
		}
	}
}

func TestCrashedProposerCostsARound(t *testing.T) {
	// Process 2 is crashed: height 2 round 0 has no proposal, round 1 is
	// led by process 3.
	got := run(4, 1, 2, map[int]bool{2: true})
	want := []string{"h1/p1", "h2/p3"}
	for _, i := range []int{0, 1, 3} {
		if !slices.Equal(got[i], want) {
			t.Errorf("process %d decided %v, want %v", i, got[i], want)
		}
	}
}
