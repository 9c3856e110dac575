package paxoshandlers

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

type envelope struct {
	to int
	m  Message
}

// network is an in-memory network: every message sent waits in flight
// until the test delivers or drops it.
type network struct {
	n        int
	inflight []envelope
	// accepted[ballot][value] is the set of acceptors that sent Accepted.
	accepted map[uint64]map[Value]map[int]bool
}

// endpoint is one node's Transport.
type endpoint struct{ net *network }

func (e endpoint) Send(to int, m Message) {
	if a, ok := m.(Accepted); ok {
		e.net.record(a)
	}
	e.net.inflight = append(e.net.inflight, envelope{to, m})
}

func (e endpoint) Broadcast(m Message) {
	for to := range e.net.n {
		e.Send(to, m)
	}
}

func (nw *network) record(a Accepted) {
	if nw.accepted[a.Ballot] == nil {
		nw.accepted[a.Ballot] = map[Value]map[int]bool{}
	}
	if nw.accepted[a.Ballot][a.Value] == nil {
		nw.accepted[a.Ballot][a.Value] = map[int]bool{}
	}
	nw.accepted[a.Ballot][a.Value][a.From] = true
}

// chosen returns every value accepted by a majority in one ballot.
func (nw *network) chosen() map[Value]bool {
	out := map[Value]bool{}
	for _, byValue := range nw.accepted {
		for v, who := range byValue {
			if len(who) > nw.n/2 {
				out[v] = true
			}
		}
	}
	return out
}

type system struct {
	net       *network
	acceptors []*Acceptor
	proposers []*Proposer
}

func newSystem(n int) *system {
	nw := &network{n: n, accepted: map[uint64]map[Value]map[int]bool{}}
	s := &system{net: nw}
	for i := range n {
		s.acceptors = append(s.acceptors, NewAcceptor(i, endpoint{nw}))
		s.proposers = append(s.proposers, NewProposer(i, n, endpoint{nw}, Value(fmt.Sprintf("v%d", i))))
	}
	return s
}

// deliver hands message e to the handler of its kind.
func (s *system) deliver(e envelope) {
	switch m := e.m.(type) {
	case Prepare:
		s.acceptors[e.to].OnPrepare(m)
	case Accept:
		s.acceptors[e.to].OnAccept(m)
	case Promise:
		s.proposers[e.to].OnPromise(m)
	case Accepted:
		s.proposers[e.to].OnAccepted(m)
	}
}

func TestSingleProposer(t *testing.T) {
	s := newSystem(5)
	s.proposers[2].OnTimeout()
	for len(s.net.inflight) > 0 {
		e := s.net.inflight[0]
		s.net.inflight = s.net.inflight[1:]
		s.deliver(e)
	}
	v, ok := s.proposers[2].Decided()
	if !ok || v != "v2" || s.proposers[2].Ballot() != 7 {
		t.Fatalf("proposer 2: decided %v %q in ballot %d, want v2 in ballot 7", ok, v, s.proposers[2].Ballot())
	}
}

func TestLaterProposerAdoptsChosenValue(t *testing.T) {
	s := newSystem(3)
	s.proposers[0].OnTimeout()
	for len(s.net.inflight) > 0 {
		e := s.net.inflight[0]
		s.net.inflight = s.net.inflight[1:]
		s.deliver(e)
	}
	s.proposers[1].OnTimeout()
	for len(s.net.inflight) > 0 {
		e := s.net.inflight[0]
		s.net.inflight = s.net.inflight[1:]
		s.deliver(e)
	}
	v, ok := s.proposers[1].Decided()
	if !ok || v != "v0" {
		t.Fatalf("proposer 1 decided %v %q, want v0", ok, v)
	}
}

// TestAgreementUnderContention runs dueling proposers over a network that
// reorders and loses messages and checks that at most one value is chosen
// and that every proposer that decided, decided it.
func TestAgreementUnderContention(t *testing.T) {
	decidedRuns := 0
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 11))
		s := newSystem(5)
		for step := 0; step < 400; step++ {
			if rng.IntN(10) == 0 || len(s.net.inflight) == 0 {
				s.proposers[rng.IntN(3)].OnTimeout() // three proposers compete
				continue
			}
			i := rng.IntN(len(s.net.inflight))
			e := s.net.inflight[i]
			s.net.inflight = append(s.net.inflight[:i], s.net.inflight[i+1:]...)
			if rng.IntN(5) != 0 {
				s.deliver(e)
			}
		}
		chosen := s.net.chosen()
		if len(chosen) > 1 {
			t.Fatalf("seed %d: values chosen: %v", seed, chosen)
		}
		for i, p := range s.proposers {
			if v, ok := p.Decided(); ok {
				decidedRuns++
				if !chosen[v] {
					t.Fatalf("seed %d: proposer %d decided %q, chosen %v", seed, i, v, chosen)
				}
			}
		}
	}
	if decidedRuns == 0 {
		t.Fatal("no proposer ever decided")
	}
}
