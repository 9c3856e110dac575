package sbft

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

type realClock struct{}

func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// cluster runs 3f+1 replicas over buffered channels; the replicas in down
// never run (crashed from the start). It returns, per replica, the block
// it committed in each slot, and the last view of each.
func cluster(t *testing.T, f int, slots uint64, timeout time.Duration, down map[int]bool) ([]map[uint64]string, []uint64) {
	t.Helper()
	n := 3*f + 1
	inboxes := make([]chan Msg, n)
	peers := make([]chan<- Msg, n)
	for i := range inboxes {
		inboxes[i] = make(chan Msg, 4096)
		peers[i] = inboxes[i]
	}
	logs := make([]map[uint64]string, n)
	views := make([]uint64, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range n {
		logs[i] = make(map[uint64]string)
		if down[i] {
			continue
		}
		cfg := Config{
			ID: i, F: f, Slots: slots, MaxView: 8, Timeout: timeout, Clock: realClock{},
			Propose: func(view, seq uint64, id int) string { return fmt.Sprintf("b%d.%d.%d", seq, view, id) },
			Decision: func(seq uint64, block string) {
				mu.Lock()
				defer mu.Unlock()
				if _, dup := logs[i][seq]; dup {
					t.Errorf("replica %d committed slot %d twice", i, seq)
				}
				logs[i][seq] = block
			},
		}
		r := NewReplica(cfg, inboxes[i], peers)
		wg.Add(1)
		go func() {
			defer wg.Done()
			views[i] = r.Run()
		}()
	}
	wg.Wait()
	return logs, views
}

// agree checks that no two replicas committed different blocks in a slot
// and that every live replica committed every slot.
func agree(t *testing.T, logs []map[uint64]string, slots uint64, down map[int]bool) {
	t.Helper()
	for s := uint64(1); s <= slots; s++ {
		var chosen string
		for i, l := range logs {
			b, ok := l[s]
			if !ok {
				if !down[i] {
					t.Errorf("replica %d did not commit slot %d", i, s)
				}
				continue
			}
			if chosen != "" && b != chosen {
				t.Errorf("slot %d: replica %d committed %q, another %q", s, i, b, chosen)
			}
			chosen = b
		}
	}
}

func TestNormalCase(t *testing.T) {
	logs, views := cluster(t, 1, 6, 2*time.Second, nil)
	agree(t, logs, 6, nil)
	for i, v := range views {
		if v != 0 {
			t.Errorf("replica %d ended in view %d, want 0 (no view change without faults)", i, v)
		}
		if logs[i][3] != "b3.0.0" {
			t.Errorf("replica %d: slot 3 is %q, want the view-0 primary's b3.0.0", i, logs[i][3])
		}
	}
}

func TestCrashedPrimaryViewChange(t *testing.T) {
	down := map[int]bool{0: true}
	logs, views := cluster(t, 1, 4, 100*time.Millisecond, down)
	agree(t, logs, 4, down)
	for i, v := range views {
		if !down[i] && v == 0 {
			t.Errorf("replica %d never left view 0 although its primary is down", i)
		}
	}
}
