package paxoscommit

import (
	"context"
	"fmt"
	"time"
)

// Outcome is the decision of a transaction.
type Outcome struct {
	Txn    int64
	Commit bool
}

// Config configures one process. Every process is both a resource manager
// (it votes on transactions) and an acceptor (it keeps the state of the
// Paxos instances of all resource managers).
type Config struct {
	ID      int32
	N       int // number of processes
	Net     Transport
	Timeout time.Duration // how long a round waits for missing messages
	// CanCommit is this resource manager's vote on a transaction: true if
	// it prepared it.
	CanCommit func(txn int64) bool
}

// Process runs Paxos Commit for a sequence of transactions. Its fields
// belong to Run while it executes.
type Process struct {
	id        int32
	n         int32
	majority  int
	net       Transport
	timeout   time.Duration
	canCommit func(int64) bool

	// The tag (txn, ballot, step) of the loop in Run.
	txn    int64
	ballot int64
	step   Step

	accepted map[int32]*Vote // acceptor state of this transaction, by instance
	outcomes []Outcome
}

// NewProcess checks cfg and returns its process, in transaction 0.
func NewProcess(cfg Config) (*Process, error) {
	if cfg.N < 1 || cfg.ID < 0 || int(cfg.ID) >= cfg.N || cfg.Net == nil || cfg.CanCommit == nil {
		return nil, fmt.Errorf("paxoscommit: bad config: id %d of %d processes", cfg.ID, cfg.N)
	}
	return &Process{
		id: cfg.ID, n: int32(cfg.N), majority: cfg.N/2 + 1, net: cfg.Net,
		timeout: cfg.Timeout, canCommit: cfg.CanCommit,
		accepted: make(map[int32]*Vote),
	}, nil
}

// leaderOf returns the leader of a ballot; process 0, the transaction
// manager, leads ballot 0.
func (p *Process) leaderOf(ballot int64) int32 { return int32(ballot % int64(p.n)) }

// Run decides transactions 0..last-1 and returns, or returns ctx's error.
func (p *Process) Run(ctx context.Context, last int64) error {
	//sync:tag p.txn,p.ballot,p.step
	for p.txn < last {
		if err := ctx.Err(); err != nil {
			return err
		}
		p.step = Prepare
		leader := p.leaderOf(p.ballot)
		if leader == p.id {
			p.net.Broadcast(&Msg{Txn: p.txn, Ballot: p.ballot, Step: Prepare, From: p.id})
		}
		// The leader's Prepare, of this ballot or of a later one whose
		// leader gave up on this one earlier.
		var prep *Msg
		rctx, cancel := context.WithTimeout(ctx, p.timeout)
		for prep == nil {
			m, err := p.net.Recv(rctx)
			if err != nil {
				break
			}
			if m.GetStep() != Prepare || m.GetTxn() != p.txn || m.GetBallot() < p.ballot ||
				m.GetFrom() != p.leaderOf(m.GetBallot()) {
				continue
			}
			prep = m
		}
		cancel()
		if prep == nil {
			p.ballot++
			continue
		}
		p.ballot = prep.GetBallot()
		leader = prep.GetFrom()

		// Phase 1, in ballots after the first: report what was accepted.
		var proposal map[int32]*Vote
		if p.ballot > 0 {
			p.step = Promise
			p.net.Send(leader, &Msg{Txn: p.txn, Ballot: p.ballot, Step: Promise, From: p.id, Votes: p.accepted})
			if leader == p.id {
				promises := p.collect(ctx, p.majority, -1)
				if len(promises) < p.majority {
					p.ballot++
					continue
				}
				proposal = p.choose(promises)
			}
		}

		// Phase 2a.
		p.step = Accept
		want, from := 1, leader
		switch {
		case p.ballot == 0:
			own := map[int32]*Vote{p.id: {Ballot: 0, Value: p.vote()}}
			p.net.Broadcast(&Msg{Txn: p.txn, Ballot: p.ballot, Step: Accept, From: p.id, Votes: own})
			want, from = int(p.n), -1
		case leader == p.id:
			p.net.Broadcast(&Msg{Txn: p.txn, Ballot: p.ballot, Step: Accept, From: p.id, Votes: proposal})
		}
		for _, m := range p.collect(ctx, want, from) {
			for i, v := range m.GetVotes() {
				if p.ballot == 0 && i != m.GetFrom() {
					continue // in ballot 0 a resource manager speaks for itself only
				}
				p.accepted[i] = &Vote{Ballot: p.ballot, Value: v.GetValue()}
			}
		}

		// Phase 2b: everybody learns from the acceptors directly.
		p.step = Accepted
		p.net.Broadcast(&Msg{Txn: p.txn, Ballot: p.ballot, Step: Accepted, From: p.id, Votes: p.acceptedNow()})
		commit, decided := p.decide(p.collect(ctx, p.majority, -1))
		if !decided {
			p.ballot++
			continue
		}
		p.outcomes = append(p.outcomes, Outcome{Txn: p.txn, Commit: commit})
		p.txn++
		p.ballot = 0
		clear(p.accepted)
	}
	return nil
}

// vote returns this resource manager's vote on the current transaction.
func (p *Process) vote() Value {
	if p.canCommit(p.txn) {
		return Prepared
	}
	return Aborted
}

// collect returns the messages of the current round (txn, ballot, step)
// received before want of them arrived or the round timed out, by sender;
// from, unless negative, is the only sender heard.
func (p *Process) collect(ctx context.Context, want int, from int32) map[int32]*Msg {
	got := make(map[int32]*Msg)
	rctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	for len(got) < want {
		m, err := p.net.Recv(rctx)
		if err != nil {
			break
		}
		if m.GetTxn() != p.txn || m.GetBallot() != p.ballot || m.GetStep() != p.step {
			continue
		}
		if from >= 0 && m.GetFrom() != from {
			continue
		}
		got[m.GetFrom()] = m
	}
	return got
}

// choose returns the leader's phase 2a proposal from a majority of
// promises: in each instance the value accepted in the highest ballot, and
// Aborted where nothing was accepted (the resource manager may have failed
// before voting).
func (p *Process) choose(promises map[int32]*Msg) map[int32]*Vote {
	proposal := make(map[int32]*Vote)
	for i := range p.n {
		best := &Vote{Ballot: -1, Value: Aborted}
		for _, m := range promises {
			if v, ok := m.GetVotes()[i]; ok && v.GetBallot() > best.Ballot {
				best = v
			}
		}
		proposal[i] = &Vote{Ballot: p.ballot, Value: best.Value}
	}
	return proposal
}

// acceptedNow returns the votes this acceptor accepted in the current
// ballot.
func (p *Process) acceptedNow() map[int32]*Vote {
	now := make(map[int32]*Vote)
	for i, v := range p.accepted {
		if v.Ballot == p.ballot {
			now[i] = v
		}
	}
	return now
}

// decide returns the outcome of the transaction if every instance was
// chosen, that is accepted by a majority of acceptors in this ballot: commit
// if and only if every resource manager prepared.
func (p *Process) decide(acks map[int32]*Msg) (commit, decided bool) {
	commit = true
	for i := range p.n {
		counts := make(map[Value]int)
		for _, m := range acks {
			if v, ok := m.GetVotes()[i]; ok {
				counts[v.GetValue()]++
			}
		}
		switch {
		case counts[Prepared] >= p.majority:
		case counts[Aborted] >= p.majority:
			commit = false
		default:
			return false, false
		}
	}
	return commit, true
}

// Outcomes returns the decided transactions, in order. It must not be
// called while Run executes.
func (p *Process) Outcomes() []Outcome { return append([]Outcome(nil), p.outcomes...) }
