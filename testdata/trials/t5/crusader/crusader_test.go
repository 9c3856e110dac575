package crusader

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"
)

// memNet is an in-memory network. A broadcast enqueues all its copies under
// one lock and inboxes are FIFO, so delivery respects causality.
type memNet struct {
	mu    sync.Mutex
	inbox []chan Msg
}

func newMemNet(n int) *memNet {
	nw := &memNet{inbox: make([]chan Msg, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Msg, 1024)
	}
	return nw
}

func (nw *memNet) sendTo(to int, m Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.inbox[to] <- m
}

// endpoint is process id's view of the network: a Transport.
type endpoint struct {
	nw *memNet
	id int
}

func (e endpoint) Broadcast(m Msg) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for _, in := range e.nw.inbox {
		in <- m
	}
}

func (e endpoint) Recv(deadline time.Time) (Msg, bool) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case m := <-e.nw.inbox[e.id]:
		return m, true
	case <-timer.C:
		return nil, false
	}
}

// byzantine equivocates: for every instance and round it sends each
// correct process a value chosen at random among vals.
func byzantine(nw *memNet, id, n int, instances uint64, vals []string, rng *rand.Rand) {
	for inst := uint64(1); inst <= instances; inst++ {
		for to := 0; to < n; to++ {
			if to == id {
				continue
			}
			pick := func() string { return vals[rng.Intn(len(vals))] }
			nw.sendTo(to, InputMsg{Instance: inst, From: id, Value: pick()})
			nw.sendTo(to, EchoMsg{Instance: inst, From: id, Value: pick()})
			nw.sendTo(to, VoteMsg{Instance: inst, From: id, Value: pick()})
		}
	}
}

// runAll runs the correct processes 0..n-2 over two batches of inputs (so
// instances continue across calls of Run) and returns their decisions.
func runAll(t *testing.T, n, f int, inputs [][]string, byz bool, seed int64, timeout time.Duration) [][]Decision {
	t.Helper()
	nw := newMemNet(n)
	correct := n - f
	if byz {
		byzantine(nw, n-1, n, uint64(len(inputs[0])), []string{"a", "b", Bottom}, rand.New(rand.NewSource(seed)))
	}
	out := make([][]Decision, correct)
	var wg sync.WaitGroup
	for i := 0; i < correct; i++ {
		node, err := NewNode(i, n, f, endpoint{nw, i}, timeout)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			half := len(inputs[i]) / 2
			out[i] = append(node.Run(inputs[i][:half]), node.Run(inputs[i][half:])...)
		}()
	}
	wg.Wait()
	return out
}

// checkGraded checks crusader agreement and graded agreement.
func checkGraded(t *testing.T, out [][]Decision) {
	t.Helper()
	for k := range out[0] {
		crusader, two := Bottom, Bottom
		for p := range out {
			d := out[p][k]
			if d.Instance != uint64(k+1) {
				t.Fatalf("process %d: decision %d is of instance %d", p, k, d.Instance)
			}
			if d.Crusader != Bottom {
				if crusader != Bottom && crusader != d.Crusader {
					t.Fatalf("instance %d: crusader values %q and %q", k+1, crusader, d.Crusader)
				}
				crusader = d.Crusader
			}
			if d.Grade == 2 {
				two = d.Value
			}
		}
		if two == Bottom {
			continue
		}
		for p := range out {
			if d := out[p][k]; d.Grade == 0 || d.Value != two {
				t.Fatalf("instance %d: a process has (%q, 2) and process %d has (%q, %d)", k+1, two, p, d.Value, d.Grade)
			}
		}
	}
}

func TestUnanimousSilentFault(t *testing.T) {
	inputs := make([][]string, 3)
	for p := range inputs {
		inputs[p] = []string{"x", "y", "z", "w"}
	}
	out := runAll(t, 4, 1, inputs, false, 0, 2*time.Second)
	for p := range out {
		got := fmt.Sprint(out[p])
		want := "[{1 x x 2} {2 y y 2} {3 z z 2} {4 w w 2}]"
		if got != want {
			t.Fatalf("process %d decided %s, want %s", p, got, want)
		}
	}
}

func TestByzantineEquivocation(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		rng := rand.New(rand.NewSource(seed))
		inputs := make([][]string, 3)
		for p := range inputs {
			for k := 0; k < 6; k++ {
				inputs[p] = append(inputs[p], []string{"a", "b"}[rng.Intn(2)])
			}
		}
		out := runAll(t, 4, 1, inputs, true, seed, 30*time.Millisecond)
		checkGraded(t, out)
	}
}

func TestNewNodeRejectsSmallN(t *testing.T) {
	if _, err := NewNode(0, 3, 1, nil, time.Second); err == nil || err.Error() != "crusader: need n > 3t" {
		t.Fatalf("NewNode(n=3, t=1) error = %v", err)
	}
}
