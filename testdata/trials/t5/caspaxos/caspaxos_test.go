package caspaxos

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// envelope is a message in flight; to < 0 means every acceptor (expanded
// when sent), otherwise a proposer (toProposer) or an acceptor.
type envelope struct {
	toProposer bool
	to         int
	m          Msg
}

// simNet is a deterministic network: the driver delivers the messages in
// flight in a random order and loses some.
type simNet struct {
	acceptors int
	flight    []envelope
}

func (s *simNet) ToAcceptors(m Msg) {
	for a := 0; a < s.acceptors; a++ {
		s.flight = append(s.flight, envelope{to: a, m: m})
	}
}

func (s *simNet) ToProposer(id int, m Msg) {
	s.flight = append(s.flight, envelope{toProposer: true, to: id, m: m})
}

// appendOp is the change that appends op to the register. It is
// idempotent: a retry after a commit whose acknowledgements were lost must
// not append op twice.
func appendOp(op string) Change {
	return func(cur []string) []string {
		if slices.Contains(cur, op) {
			return cur
		}
		return append(cur, op)
	}
}

// run lets two proposers apply ops changes each, with loss probability
// loss, and returns what they committed.
func run(t *testing.T, seed int64, loss float64, ops int) [][]string {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	net := &simNet{acceptors: 3}
	acc := make([]*Acceptor, 3)
	for i := range acc {
		acc[i] = NewAcceptor(i, net)
	}
	props := []*Proposer{NewProposer(0, 2, 3, net), NewProposer(1, 2, 3, net)}
	next := []int{0, 0}
	for steps := 0; steps < 100000; steps++ {
		for i, p := range props {
			if !p.Busy() && next[i] < ops {
				p.Propose(appendOp(fmt.Sprintf("p%d.%d", i, next[i])))
				next[i]++
			}
		}
		if len(net.flight) == 0 {
			idle := true
			for _, p := range props {
				if p.Busy() {
					idle = false
					p.OnTimeout()
				}
			}
			if idle {
				break
			}
			continue
		}
		k := rng.Intn(len(net.flight))
		e := net.flight[k]
		net.flight = slices.Delete(net.flight, k, k+1)
		if rng.Float64() < loss {
			continue
		}
		switch m := e.m.(type) {
		case *Prepare:
			acc[e.to].OnPrepare(m)
		case *Accept:
			acc[e.to].OnAccept(m)
		case *Promise:
			props[e.to].OnPromise(m)
		case *Accepted:
			props[e.to].OnAccepted(m)
		}
	}
	var all [][]string
	for i, p := range props {
		c := p.Committed()
		if len(c) != ops {
			t.Fatalf("seed %d: proposer %d committed %d changes, want %d", seed, i, len(c), ops)
		}
		all = append(all, c...)
	}
	return all
}

// isPrefix reports whether a is a prefix of b.
func isPrefix(a, b []string) bool { return len(a) <= len(b) && slices.Equal(a, b[:len(a)]) }

func TestCommittedValuesAreOrdered(t *testing.T) {
	for seed := int64(1); seed <= 30; seed++ {
		all := run(t, seed, 0.15, 4)
		for i, a := range all {
			if len(a) == 0 {
				t.Fatalf("seed %d: empty committed value", seed)
			}
			for _, b := range all[i+1:] {
				if !isPrefix(a, b) && !isPrefix(b, a) {
					t.Fatalf("seed %d: committed %v and %v, neither extends the other", seed, a, b)
				}
			}
		}
		// The longest committed value holds every op exactly once.
		longest := slices.MaxFunc(all, func(a, b []string) int { return len(a) - len(b) })
		if len(longest) != 8 {
			t.Fatalf("seed %d: longest committed value %v has %d ops, want 8", seed, longest, len(longest))
		}
	}
}

func TestSingleProposerNoLoss(t *testing.T) {
	net := &simNet{acceptors: 3}
	acc := []*Acceptor{NewAcceptor(0, net), NewAcceptor(1, net), NewAcceptor(2, net)}
	p := NewProposer(0, 1, 3, net)
	for _, op := range []string{"a", "b", "c"} {
		p.Propose(appendOp(op))
		for len(net.flight) > 0 {
			e := net.flight[0]
			net.flight = net.flight[1:]
			switch m := e.m.(type) {
			case *Prepare:
				acc[e.to].OnPrepare(m)
			case *Accept:
				acc[e.to].OnAccept(m)
			case *Promise:
				p.OnPromise(m)
			case *Accepted:
				p.OnAccepted(m)
			}
		}
	}
	if got, want := fmt.Sprint(p.Committed()), "[[a] [a b] [a b c]]"; got != want {
		t.Fatalf("committed %s, want %s", got, want)
	}
	if bal, v := acc[2].Value(); bal != 4 || fmt.Sprint(v) != "[a b c]" {
		t.Fatalf("acceptor 2 holds %v at ballot %d, want [a b c] at 4", v, bal)
	}
}
