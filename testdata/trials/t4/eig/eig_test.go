package eig

import (
	"fmt"
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

// liar is the transport of a Byzantine process: it relays "lie0" for
// every label to the even processes and "lie1" to the odd ones.
type liar struct {
	nw *Network
	id int
}

func (l liar) Broadcast(m Relay) {
	l.nw.mu.Lock()
	defer l.nw.mu.Unlock()
	for to, in := range l.nw.inboxes {
		c := m
		c.Values = make(map[string]string)
		for label := range m.Values {
			c.Values[label] = fmt.Sprintf("lie%d", to%2)
		}
		in <- c
	}
}

func (l liar) Recv(deadline time.Time) (Relay, bool) { return l.nw.Endpoint(l.id).Recv(deadline) }

func TestByzantineProcess(t *testing.T) {
	// Process 3 equivocates in every round; the honest processes, which
	// share the input a, still decide a (validity), in both slots.
	nw := NewNetwork(4)
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := make(map[int][]string)
	for id := range 4 {
		var net Transport = nw.Endpoint(id)
		if id == 3 {
			net = liar{nw: nw, id: id}
		}
		wg.Go(func() {
			d, err := Agree(Config{ID: id, N: 4, F: 1, Net: net, Timeout: 5 * time.Second}, []string{"a", "a"})
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			out[id] = d
			mu.Unlock()
		})
	}
	wg.Wait()
	for id := range 3 {
		if got := out[id]; !reflect.DeepEqual(got, []string{"a", "a"}) {
			t.Errorf("process %d decided %q, want [a a]", id, got)
		}
	}
}

func TestBadConfig(t *testing.T) {
	_, err := Agree(Config{ID: 0, N: 3, F: 1, Net: NewNetwork(3).Endpoint(0)}, []string{"a"})
	if err == nil || err.Error() != "eig: need 0 <= id < n <= 10 and n > 3f, got id=0 n=3 f=1" {
		t.Errorf("got %v", err)
	}
}
