package icc

import (
	"fmt"
	"testing"
)

type envelope struct {
	to int
	a  Artifact
}

// network is a FIFO in-memory network: a broadcast queues all its copies at
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

func (p port) Broadcast(a Artifact) {
	if p.nw.crashed[p.from] {
		return
	}
	for to := 0; to < p.nw.n; to++ {
		p.nw.queue = append(p.nw.queue, envelope{to, a})
	}
}

// run delivers messages until the queue is empty, then fires the time-outs
// of the live replicas, until every live replica finalized height upto or
// the step budget is spent.
func run(t *testing.T, n int, crashed map[int]bool, upto uint64) []*Replica {
	t.Helper()
	nw := &network{n: n, crashed: crashed}
	reps := make([]*Replica, n)
	for i := range reps {
		var payloads []string
		for k := 0; k < 10; k++ {
			payloads = append(payloads, fmt.Sprintf("tx%d.%d", i, k))
		}
		reps[i] = NewReplica(i, n, port{nw, i}, payloads)
	}
	done := func() bool {
		for i, r := range reps {
			if !crashed[i] && r.height <= upto {
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
		if crashed[e.to] {
			continue
		}
		switch a := e.a.(type) {
		case BlockProposal:
			reps[e.to].OnBlock(a)
		case NotarizationShare:
			reps[e.to].OnNotarize(a)
		case FinalizationShare:
			reps[e.to].OnFinalize(a)
		}
	}
	if !done() {
		t.Fatalf("replicas did not reach height %d", upto+1)
	}
	return reps
}

// agreement checks that no two replicas finalized different blocks at one
// height and returns the number of finalized (height, replica) pairs.
func agreement(t *testing.T, reps []*Replica) int {
	t.Helper()
	seen := map[uint64]BlockID{}
	total := 0
	for _, r := range reps {
		for h, b := range r.Finalized {
			total++
			if prev, ok := seen[h]; ok && prev != b {
				t.Fatalf("height %d finalized as %s and %s", h, prev, b)
			}
			seen[h] = b
		}
	}
	return total
}

func TestAllCorrect(t *testing.T) {
	reps := run(t, 4, map[int]bool{}, 6)
	if got := agreement(t, reps); got != 24 {
		t.Fatalf("finalized %d (height, replica) pairs, want 24", got)
	}
	if got, want := reps[0].Finalized[2], BlockID("2/0/2/tx2.0"); got != want {
		t.Fatalf("height 2 finalized %s, want %s", got, want)
	}
}

func TestCrashedMaker(t *testing.T) {
	// Replica 3 makes the rank-0 block of heights 3 and 7: those heights
	// need a time-out and the rank-1 maker.
	reps := run(t, 4, map[int]bool{3: true}, 4)
	if got := agreement(t, reps); got != 12 {
		t.Fatalf("finalized %d (height, replica) pairs, want 12", got)
	}
	if got, want := reps[0].Finalized[3], BlockID("3/1/0/tx0.0"); got != want {
		t.Fatalf("height 3 finalized %s, want %s", got, want)
	}
}
