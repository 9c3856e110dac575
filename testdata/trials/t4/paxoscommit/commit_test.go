package paxoscommit

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"
)

// run runs the processes ids of an n-process network through transactions
// 0..last-1; canCommit(id, txn) is the vote of resource manager id.
func run(t *testing.T, n int, ids []int32, last int64, timeout time.Duration, canCommit func(id int32, txn int64) bool) map[int32][]Outcome {
	t.Helper()
	nw := NewNetwork(n)
	procs := make(map[int32]*Process)
	for _, id := range ids {
		p, err := NewProcess(Config{ID: id, N: n, Net: nw.Endpoint(id), Timeout: timeout,
			CanCommit: func(txn int64) bool { return canCommit(id, txn) }})
		if err != nil {
			t.Fatal(err)
		}
		procs[id] = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() {
			if err := p.Run(ctx, last); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	out := make(map[int32][]Outcome)
	for id, p := range procs {
		out[id] = p.Outcomes()
	}
	return out
}

func check(t *testing.T, out map[int32][]Outcome, want []Outcome) {
	t.Helper()
	for id, got := range out {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("process %d: got %v, want %v", id, got, want)
		}
	}
}

func TestAllUp(t *testing.T) {
	// Resource manager 2 cannot prepare transaction 1.
	out := run(t, 4, []int32{0, 1, 2, 3}, 3, 5*time.Second, func(id int32, txn int64) bool {
		return id != 2 || txn != 1
	})
	check(t, out, []Outcome{{0, true}, {1, false}, {2, true}})
}

func TestResourceManagerDown(t *testing.T) {
	// Resource manager 3 never votes: ballot 0 cannot choose its instance,
	// and the leader of ballot 1 proposes Aborted for it.
	out := run(t, 4, []int32{0, 1, 2}, 1, 100*time.Millisecond, func(int32, int64) bool { return true })
	check(t, out, []Outcome{{0, false}})
}

func TestTransactionManagerDown(t *testing.T) {
	// Process 0, the leader of ballot 0, is down: nobody votes in ballot 0,
	// and ballot 1 aborts the transaction.
	out := run(t, 4, []int32{1, 2, 3}, 1, 100*time.Millisecond, func(int32, int64) bool { return true })
	check(t, out, []Outcome{{0, false}})
}

func TestBadConfig(t *testing.T) {
	_, err := NewProcess(Config{ID: 4, N: 4, Net: NewNetwork(4).Endpoint(0), CanCommit: func(int64) bool { return true }})
	if err == nil || err.Error() != "paxoscommit: bad config: id 4 of 4 processes" {
		t.Errorf("got %v", err)
	}
}
