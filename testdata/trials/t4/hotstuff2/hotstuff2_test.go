package hotstuff2

import (
	"fmt"
	"slices"
	"testing"
)

type envelope struct {
	to int
	m  Msg
}

// network is a FIFO in-memory network; a broadcast queues all its copies at
// once, so delivery is causal and runs are deterministic.
type network struct {
	queue   []envelope
	n       int
	crashed map[int]bool
}

type port struct {
	nw   *network
	from int
}

func (p port) Send(to int, m Msg) {
	if !p.nw.crashed[p.from] {
		p.nw.queue = append(p.nw.queue, envelope{to, m})
	}
}

func (p port) Broadcast(m Msg) {
	for to := 0; to < p.nw.n; to++ {
		p.Send(to, m)
	}
}

func run(t *testing.T, n int, crashed map[int]bool, want int) []*Replica {
	t.Helper()
	nw := &network{n: n, crashed: crashed}
	reps := make([]*Replica, n)
	for i := range reps {
		reps[i] = NewReplica(i, n, port{nw, i}, []string{fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)})
	}
	done := func() bool {
		for i, r := range reps {
			if !crashed[i] && len(r.Committed) < want {
				return false
			}
		}
		return true
	}
	for steps := 0; steps < 100000 && !done(); steps++ {
		if len(nw.queue) == 0 {
			for i, r := range reps {
				if !crashed[i] {
					r.OnTimeout()
				}
			}
			continue
		}
		e := nw.queue[0]
		nw.queue = nw.queue[1:]
		if !crashed[e.to] {
			reps[e.to].OnMessage(e.m)
		}
	}
	if !done() {
		t.Fatalf("live replicas did not commit %d commands", want)
	}
	return reps
}

// consistent checks that the committed chains are prefixes of each other
// and returns the longest.
func consistent(t *testing.T, reps []*Replica) []string {
	t.Helper()
	var longest []string
	for _, r := range reps {
		a, b := r.Committed, longest
		if len(a) < len(b) {
			a, b = b, a
		}
		if !slices.Equal(a[:len(b)], b) {
			t.Fatalf("committed chains diverge: %v and %v", r.Committed, longest)
		}
		longest = a
	}
	return longest
}

func TestAllCorrect(t *testing.T) {
	reps := run(t, 4, map[int]bool{}, 5)
	got := consistent(t, reps)
	want := []string{"a1", "a2", "a3", "a0", "b1"}
	if !slices.Equal(got[:5], want) {
		t.Fatalf("committed %v, want prefix %v", got, want)
	}
}

func TestCrashedLeader(t *testing.T) {
	// Replica 2 leads views 2 and 6: each is left on a time-out.
	reps := run(t, 4, map[int]bool{2: true}, 4)
	got := consistent(t, reps)
	want := []string{"a1", "a3", "a0", "b1"}
	if !slices.Equal(got[:4], want) {
		t.Fatalf("committed %v, want prefix %v", got, want)
	}
}
