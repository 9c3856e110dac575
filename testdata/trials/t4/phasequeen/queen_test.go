package phasequeen

import (
	"sync"
	"testing"
	"time"
)

// run runs the processes ids of nw, process i with inputs[i], and returns
// their decisions.
func run(t *testing.T, nw *Network[Msg], f int, ids []int, inputs []string, timeout time.Duration) map[int]string {
	t.Helper()
	n := len(nw.inboxes)
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := make(map[int]string)
	for _, id := range ids {
		p, err := NewProcess(id, n, f, nw.Endpoint(id), inputs[id], timeout)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			d := p.Run()
			mu.Lock()
			out[id] = d
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

func checkAll(t *testing.T, out map[int]string, want string) {
	t.Helper()
	for id, got := range out {
		if got != want {
			t.Errorf("process %d decided %q, want %q", id, got, want)
		}
	}
}

func TestAllHonest(t *testing.T) {
	nw := NewNetwork[Msg](5)
	out := run(t, nw, 1, []int{0, 1, 2, 3, 4}, []string{"a", "b", "a", "b", "a"}, 5*time.Second)
	checkAll(t, out, "a")
}

func TestUnanimityIsKept(t *testing.T) {
	nw := NewNetwork[Msg](5)
	out := run(t, nw, 1, []int{0, 1, 2, 3, 4}, []string{"z", "z", "z", "z", "z"}, 5*time.Second)
	checkAll(t, out, "z")
}

func TestEquivocatingProcess(t *testing.T) {
	// Process 4 is Byzantine: in phase 1 it tells 0 and 1 "a" and 2 and 3
	// "b", then falls silent. Processes 0-1 and 2-3 see different
	// majorities, both below n/2+f, and all follow queen 0.
	nw := NewNetwork[Msg](5)
	for to, v := range []string{"a", "a", "b", "b"} {
		nw.inboxes[to] <- Value{Phase: 1, From: 4, V: v}
	}
	out := run(t, nw, 1, []int{0, 1, 2, 3}, []string{"a", "a", "b", "b", ""}, 100*time.Millisecond)
	checkAll(t, out, "a")
}

func TestBadConfig(t *testing.T) {
	_, err := NewProcess(0, 4, 1, NewNetwork[Msg](4).Endpoint(0), "a", time.Second)
	if err == nil || err.Error() != "phasequeen: need 0 <= id < n and n > 4f, got id=0 n=4 f=1" {
		t.Errorf("got %v", err)
	}
}
