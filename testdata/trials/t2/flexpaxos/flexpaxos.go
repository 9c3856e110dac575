package flexpaxos

import (
	"context"
	"time"
)

// Phase is the round part of the tag (ballot, phase).
type Phase int

// The phases of a ballot, in order.
const (
	Prepare Phase = iota
	Promise
	Accept
	Accepted
)

// PrepareMsg asks the acceptors to join Ballot.
//
//sync:msg Ballot,Prepare
type PrepareMsg struct {
	Ballot int
}

// PromiseMsg joins Ballot and reports the acceptor's last vote.
//
//sync:msg Ballot,Promise
type PromiseMsg struct {
	Ballot  int
	VBallot int // ballot of the last vote, 0 if none
	VValue  string
}

// AcceptMsg proposes Value in Ballot.
//
//sync:msg Ballot,Accept
type AcceptMsg struct {
	Ballot int
	Value  string
}

// AcceptedMsg is a vote for Value in Ballot.
//
//sync:msg Ballot,Accepted
type AcceptedMsg struct {
	Ballot int
	Value  string
}

// Envelope carries a message with its sender.
type Envelope struct {
	From int
	Msg  any
}

// Config configures a replica.
type Config struct {
	ID      int
	Q1, Q2  int // quorum sizes; Q1+Q2 must exceed the number of replicas
	Value   string
	Timeout time.Duration
}

// Replica is one Flexible Paxos replica.
type Replica struct {
	id      int
	n       int
	q1, q2  int
	value   string
	timeout time.Duration

	//sync:peers
	peers []chan<- Envelope
	//sync:inbox
	inbox <-chan Envelope

	ballot int
	phase  Phase

	vballot int
	vvalue  string
}

// NewReplica returns a replica connected to peers, receiving on inbox.
func NewReplica(cfg Config, peers []chan<- Envelope, inbox <-chan Envelope) *Replica {
	return &Replica{id: cfg.ID, n: len(peers), q1: cfg.Q1, q2: cfg.Q2, value: cfg.Value,
		timeout: cfg.Timeout, peers: peers, inbox: inbox}
}

func (r *Replica) send(to int, m any) {
	select {
	case r.peers[to] <- Envelope{From: r.id, Msg: m}:
	default: // full inbox: lost
	}
}

func (r *Replica) broadcast(m any) {
	for to := range r.peers {
		r.send(to, m)
	}
}

// Run takes part in at most maxBallots ballots and returns the decided
// value, if any.
func (r *Replica) Run(ctx context.Context, maxBallots int) (string, bool) {
	//sync:tag r.ballot,r.phase
	for i := 0; i < maxBallots && ctx.Err() == nil; i++ {
		r.ballot++
		r.phase = Prepare
		if r.ballot%r.n == r.id {
			r.broadcast(PrepareMsg{Ballot: r.ballot})
		}
		prep, leader, ok := r.awaitPrepare()
		if !ok {
			continue
		}
		r.ballot = prep.Ballot // join the leader, possibly in a later ballot
		r.phase = Promise
		r.send(leader, PromiseMsg{Ballot: r.ballot, VBallot: r.vballot, VValue: r.vvalue})

		var proposal string
		if leader == r.id {
			promises := r.collectPromises()
			if len(promises) < r.q1 {
				continue
			}
			proposal = r.choose(promises)
		}

		r.phase = Accept
		if leader == r.id {
			r.broadcast(AcceptMsg{Ballot: r.ballot, Value: proposal})
		}
		acc, ok := r.awaitAccept(leader)
		if !ok {
			continue
		}
		r.vballot, r.vvalue = r.ballot, acc.Value

		r.phase = Accepted
		r.broadcast(AcceptedMsg{Ballot: r.ballot, Value: acc.Value})
		votes := r.collectAccepted()
		if len(votes) >= r.q2 {
			return acc.Value, true
		}
	}
	return "", false
}

// choose adopts the value of the highest vote among the promises, or the
// replica's own value if none voted.
func (r *Replica) choose(promises map[int]PromiseMsg) string {
	best := PromiseMsg{VValue: r.value}
	for _, p := range promises {
		if p.VBallot > best.VBallot {
			best = p
		}
	}
	return best.VValue
}

// awaitPrepare waits for a Prepare of the current ballot or a later one.
func (r *Replica) awaitPrepare() (PrepareMsg, int, bool) {
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for {
		select {
		case env := <-r.inbox:
			m, ok := env.Msg.(PrepareMsg)
			if !ok || m.Ballot < r.ballot {
				continue
			}
			return m, env.From, true
		case <-timer.C:
			return PrepareMsg{}, 0, false
		}
	}
}

// awaitAccept waits for the proposal of leader in the current ballot.
func (r *Replica) awaitAccept(leader int) (AcceptMsg, bool) {
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for {
		select {
		case env := <-r.inbox:
			m, ok := env.Msg.(AcceptMsg)
			if !ok || m.Ballot != r.ballot || env.From != leader {
				continue
			}
			return m, true
		case <-timer.C:
			return AcceptMsg{}, false
		}
	}
}

// collectPromises gathers the promises of the current ballot, until Q1 of
// them or the time-out.
func (r *Replica) collectPromises() map[int]PromiseMsg {
	got := make(map[int]PromiseMsg)
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for len(got) < r.q1 {
		select {
		case env := <-r.inbox:
			m, ok := env.Msg.(PromiseMsg)
			if !ok || m.Ballot != r.ballot {
				continue
			}
			got[env.From] = m
		case <-timer.C:
			return got
		}
	}
	return got
}

// collectAccepted gathers the votes of the current ballot, until Q2 of them
// or the time-out.
func (r *Replica) collectAccepted() map[int]AcceptedMsg {
	got := make(map[int]AcceptedMsg)
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for len(got) < r.q2 {
		select {
		case env := <-r.inbox:
			m, ok := env.Msg.(AcceptedMsg)
			if !ok || m.Ballot != r.ballot {
				continue
			}
			got[env.From] = m
		case <-timer.C:
			return got
		}
	}
	return got
}
