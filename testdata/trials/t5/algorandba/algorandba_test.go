package algorandba

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// cluster wires n processes to a sequencer goroutine: every vote sent on
// the shared channel is delivered to every inbox before the next one, so
// delivery is causal. Processes in crashed are never started and their
// inboxes are drained.
func cluster(t *testing.T, n, f int, crashed map[int]bool, heights uint64, timeout time.Duration) [][]string {
	t.Helper()
	out := make(chan Vote)
	inboxes := make([]chan Vote, n)
	for i := range inboxes {
		inboxes[i] = make(chan Vote, 4096)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case m := <-out:
				for i, in := range inboxes {
					if !crashed[i] {
						in <- m
					}
				}
			case <-done:
				return
			}
		}
	}()
	defer close(done)

	decided := make([][]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		if crashed[i] {
			continue
		}
		p, err := NewProcess(Config{ID: i, N: n, F: f, Out: out, Inbox: inboxes[i], Timeout: timeout,
			Input: func(h uint64) string { return fmt.Sprintf("b%d.%d", h, i) }})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			decided[i], errs[i] = p.Run(heights)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("process %d: %v", i, err)
		}
	}
	return decided
}

func TestAllCorrect(t *testing.T) {
	got := cluster(t, 4, 1, nil, 3, time.Second)
	// The leader of (h, period 1) is (h+1) mod 4 and proposes its own input.
	want := []string{"b0.1", "b1.2", "b2.3"}
	for i, d := range got {
		if !slices.Equal(d, want) {
			t.Fatalf("process %d decided %v, want %v", i, d, want)
		}
	}
}

func TestCrashedLeader(t *testing.T) {
	// Process 1, the leader of (0, 1), has crashed: period 1 of height 0
	// ends with a quorum of next votes for ⊥ and process 2 leads period 2.
	got := cluster(t, 4, 1, map[int]bool{1: true}, 2, 60*time.Millisecond)
	want := []string{"b0.2", "b1.2"}
	for i, d := range got {
		if i == 1 {
			continue
		}
		if !slices.Equal(d, want) {
			t.Fatalf("process %d decided %v, want %v", i, d, want)
		}
	}
}

func TestNewProcessRejectsSmallN(t *testing.T) {
	_, err := NewProcess(Config{N: 3, F: 1})
	if err == nil || err.Error() != "algorandba: n=3 < 3f+1 with f=1" {
		t.Fatalf("err = %v", err)
	}
}
