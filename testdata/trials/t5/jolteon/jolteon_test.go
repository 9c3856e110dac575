package jolteon

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

type envelope struct {
	to int
	m  Msg
}

// simNet queues messages; the driver delivers them FIFO or in a random
// order. Messages to or from a crashed replica are lost.
type simNet struct {
	from    int
	queue   *[]envelope
	n       int
	crashed map[int]bool
}

func (s simNet) Broadcast(m Msg) {
	for to := 0; to < s.n; to++ {
		s.SendTo(to, m)
	}
}

func (s simNet) SendTo(to int, m Msg) {
	if s.crashed[s.from] || s.crashed[to] {
		return
	}
	*s.queue = append(*s.queue, envelope{to, m})
}

// run drives n replicas until every live one reaches round rounds. With rng
// nil delivery is FIFO; otherwise random. When nothing is in flight the
// pacemaker fires every live replica's timer.
func run(t *testing.T, n int, rounds uint64, crashed map[int]bool, rng *rand.Rand) []*Replica {
	t.Helper()
	var queue []envelope
	reps := make([]*Replica, n)
	for i := range reps {
		r, err := NewReplica(i, n, simNet{from: i, queue: &queue, n: n, crashed: crashed})
		if err != nil {
			t.Fatal(err)
		}
		reps[i] = r
	}
	for _, r := range reps {
		r.Start()
	}
	for steps := 0; steps < 100000; steps++ {
		done := true
		for i, r := range reps {
			if !crashed[i] && r.Round() < rounds {
				done = false
			}
		}
		if done {
			return reps
		}
		if len(queue) == 0 {
			for i, r := range reps {
				if !crashed[i] {
					r.OnLocalTimeout(r.Round())
				}
			}
			continue
		}
		k := 0
		if rng != nil {
			k = rng.Intn(len(queue))
		}
		e := queue[k]
		queue = slices.Delete(queue, k, k+1)
		switch m := e.m.(type) {
		case *Proposal:
			reps[e.to].OnProposal(m)
		case *Vote:
			reps[e.to].OnVote(m)
		case *Timeout:
			reps[e.to].OnTimeout(m)
		}
	}
	t.Fatalf("replicas did not reach round %d", rounds)
	return nil
}

func TestHappyPath(t *testing.T) {
	reps := run(t, 4, 8, nil, nil)
	for i, r := range reps {
		// Rounds 1..7 are certified when round 8 starts: the two-chain
		// rule has committed up to round 6.
		if got := fmt.Sprint(r.Committed()); got != "[0 1 2 3 4 5 6]" && got != "[0 1 2 3 4 5]" {
			t.Fatalf("replica %d committed %s", i, got)
		}
	}
	if got := fmt.Sprint(reps[0].Committed()); got != "[0 1 2 3 4 5 6]" {
		t.Fatalf("replica 0 (the leader of round 8) committed %s, want [0 1 2 3 4 5 6]", got)
	}
}

func TestCrashedReplica(t *testing.T) {
	// Replica 2 is crashed: rounds 1 (its votes go to 2), 2 (2 leads), 5
	// and 6 end by time-out. Rounds 3,4 are certified in a row, which
	// commits 3; block 7 extends 4, and 7,8 certified in a row commit 4
	// and 7.
	reps := run(t, 4, 10, map[int]bool{2: true}, nil)
	for i, r := range reps {
		if i == 2 {
			continue
		}
		if got := fmt.Sprint(r.Committed()); got != "[0 3 4 7]" {
			t.Fatalf("replica %d committed %s, want [0 3 4 7]", i, got)
		}
	}
}

func TestRandomOrderSafety(t *testing.T) {
	for seed := int64(1); seed <= 30; seed++ {
		reps := run(t, 4, 15, map[int]bool{int(seed % 4): seed%3 == 0}, rand.New(rand.NewSource(seed)))
		for i, a := range reps {
			for _, b := range reps[i+1:] {
				ca, cb := a.Committed(), b.Committed()
				k := min(len(ca), len(cb))
				if !slices.Equal(ca[:k], cb[:k]) {
					t.Fatalf("seed %d: committed %v and %v diverge", seed, ca, cb)
				}
			}
		}
	}
}

func TestNewReplicaRejectsBadN(t *testing.T) {
	if _, err := NewReplica(0, 5, nil); err == nil || err.Error() != "jolteon: n=5 is not 3f+1 with f >= 1" {
		t.Fatalf("err = %v", err)
	}
}
