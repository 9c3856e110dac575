package minbft

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// run starts n replicas (except the crashed ones) over buffered channels and
// returns them once every started replica returned.
func run(t *testing.T, n int, requests []string, crashed map[int]bool) []*Replica {
	t.Helper()
	chans := make([]chan Message, n)
	peers := make([]chan<- Message, n)
	for i := range chans {
		chans[i] = make(chan Message, 1024)
		peers[i] = chans[i]
	}
	reps := make([]*Replica, n)
	var wg sync.WaitGroup
	for id := range n {
		reps[id] = NewReplica(id, chans[id], peers, requests, 50*time.Millisecond, 12)
		if crashed[id] {
			continue
		}
		wg.Go(func() { reps[id].Run(len(requests)) })
	}
	wg.Wait()
	return reps
}

var requests = []string{"put a 1", "put b 2", "del a", "put c 3", "get b"}

func TestNormalCase(t *testing.T) {
	reps := run(t, 3, requests, nil)
	for id, r := range reps {
		if got := r.Log(); !slices.Equal(got, requests) {
			t.Errorf("replica %d executed %q, want %q", id, got, requests)
		}
	}
}

func TestPrimaryCrash(t *testing.T) {
	reps := run(t, 3, requests, map[int]bool{0: true})
	for id, r := range reps[1:] {
		if got := r.Log(); !slices.Equal(got, requests) {
			t.Errorf("replica %d executed %q, want %q", id+1, got, requests)
		}
		if r.View() == 0 {
			t.Errorf("replica %d is still in view 0", id+1)
		}
	}
}
