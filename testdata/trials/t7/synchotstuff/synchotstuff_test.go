package synchotstuff

import (
	"sync"
	"testing"
	"time"
)

// net is an in-memory network: one buffered inbox per replica.
type net struct{ inbox []chan Message }

type endpoint struct {
	net *net
	id  int
}

func (e endpoint) Broadcast(m Message) {
	for _, in := range e.net.inbox {
		in <- m
	}
}

func (e endpoint) Send(to int, m Message) { e.net.inbox[to] <- m }

func (e endpoint) Recv(deadline time.Time) (Message, bool) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case m := <-e.net.inbox[e.id]:
		return m, true
	case <-t.C:
		return nil, false
	}
}

// run runs n replicas, those in down crashed from the start, and returns
// the blocks each committed, by height.
func run(t *testing.T, n int, heights uint64, down map[int]bool) []map[uint64]Block {
	t.Helper()
	nw := &net{}
	for range n {
		nw.inbox = append(nw.inbox, make(chan Message, 4096))
	}
	logs := make([]map[uint64]Block, n)
	var wg sync.WaitGroup
	for i := range n {
		logs[i] = make(map[uint64]Block)
		if down[i] {
			continue
		}
		r := NewReplica(i, n, 10*time.Millisecond, endpoint{nw, i}, func(b Block) { logs[i][b.Height] = b })
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Run(heights, 6); err != nil {
				t.Errorf("replica %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	return logs
}

// check verifies that all live replicas committed the same chain of
// heights 1..heights, each block the child of the previous one.
func check(t *testing.T, logs []map[uint64]Block, heights uint64, down map[int]bool) {
	t.Helper()
	for h := uint64(1); h <= heights; h++ {
		var chosen *Block
		for i, l := range logs {
			if down[i] {
				continue
			}
			b, ok := l[h]
			if !ok {
				t.Errorf("replica %d did not commit height %d", i, h)
				continue
			}
			if chosen != nil && b != *chosen {
				t.Errorf("height %d: replica %d committed %+v, another %+v", h, i, b, *chosen)
			}
			if h > 1 && b.Parent != l[h-1].ID {
				t.Errorf("replica %d: block %s at height %d does not extend %s", i, b.ID, h, l[h-1].ID)
			}
			chosen = &b
		}
	}
}

func TestSteadyState(t *testing.T) {
	logs := run(t, 3, 5, nil)
	check(t, logs, 5, nil)
	if got := logs[1][5].ID; got != "0/5/0/4/0/3/0/2/0/1/" {
		t.Errorf("height 5 is %q, want the view-0 chain 0/5/0/4/0/3/0/2/0/1/", got)
	}
}

func TestCrashedLeaderIsBlamed(t *testing.T) {
	down := map[int]bool{0: true}
	logs := run(t, 3, 3, down)
	check(t, logs, 3, down)
	if got := logs[1][1].ID; got != "1/1/" {
		t.Errorf("height 1 is %q, want the view-1 leader's block 1/1/", got)
	}
}
