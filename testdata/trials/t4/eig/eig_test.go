package eig

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

// run runs the processes ids of an n-process network, process i with
// inputs[i], and returns their decisions.
func run(t *testing.T, n, f int, ids []int, inputs [][]string, timeout time.Duration) map[int][]string {
	t.Helper()
	nw := NewNetwork(n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := make(map[int][]string)
	for _, id := range ids {
		wg.Go(func() {
			d, err := Agree(Config{ID: id, N: n, F: f, Net: nw.Endpoint(id), Timeout: timeout}, inputs[id])
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			out[id] = d
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

func TestAllHonest(t *testing.T) {
	inputs := [][]string{{"a", "x"}, {"a", "x"}, {"a", "y"}, {"b", "y"}}
	// Slot 0: three of four inputs are a. Slot 1: no strict majority.
	want := []string{"a", Default}
	out := run(t, 4, 1, []int{0, 1, 2, 3}, inputs, 5*time.Second)
	for id, got := range out {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("process %d decided %q, want %q", id, got, want)
		}
	}
}

func TestSilentProcess(t *testing.T) {
	// Process 3 never sends: every relay it should have sent defaults, and
	// the honest processes still agree on their common input.
	inputs := [][]string{{"a"}, {"a"}, {"a"}, {"b"}}
	out := run(t, 4, 1, []int{0, 1, 2}, inputs, 100*time.Millisecond)
	for id, got := range out {
		if !reflect.DeepEqual(got, []string{"a"}) {
			t.Errorf("process %d decided %q, want [a]", id, got)
		}
	}
}

func TestBadConfig(t *testing.T) {
	_, err := Agree(Config{ID: 0, N: 3, F: 1, Net: NewNetwork(3).Endpoint(0)}, []string{"a"})
	if err == nil || err.Error() != "eig: need 0 <= id < n <= 10 and n > 3f, got id=0 n=3 f=1" {
		t.Errorf("got %v", err)
	}
}
