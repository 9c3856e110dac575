// Package multipaxos is Multi-Paxos with a stable leader, written as two
// nested round-based loops: the outer loop of Proc.Run elects the leader of
// a ballot (rounds Prepare, Promise, Lead), and in round Lead every replica
// that joined the ballot runs the inner loop of Proc.replicate, which
// chooses the log slot by slot (rounds Accept, Accepted, Commit) until the
// leader fails.
//
// Every replica is proposer, acceptor and learner. Replicas talk over
// channels: each has an inbox of transport.Envelope, and the network may
// drop messages (a full inbox drops them).
package multipaxos

import (
	"context"
	"maps"
	"slices"
	"time"

	"transport"
)

// Config configures one Proc.
type Config struct {
	ID    int                         // id of the replica, in 0..len(Peers)-1
	In    <-chan transport.Envelope   // the replica's inbox
	Peers []chan<- transport.Envelope // the inboxes of all the replicas, by id, this one included

	// NewCommand returns the next client command; the leader calls it for
	// each slot for which no earlier ballot accepted a value.
	NewCommand func() string

	// Timeout is how long a replica waits in a round for the messages it
	// needs before it gives up: on the ballot in the outer loop, and on the
	// leader in the inner one.
	Timeout time.Duration
}

// Proc is one replica.
//
// Its fields are accessed by Run only; the accessors must not be called
// while Run is executing.
type Proc struct {
	id         int
	n          int
	in         <-chan transport.Envelope   //sync:inbox From,Msg
	peers      []chan<- transport.Envelope //sync:peers From,Msg // by replica id
	newCommand func() string
	timeout    time.Duration

	// Synchronization variables. The outer loop is tagged (ballot, phase);
	// the inner loop extends the tag with (slot, sstep).
	ballot int
	phase  Phase
	slot   int
	sstep  SStep

	// Algorithm variables: the replica's log, by slot (slots start at 1),
	// and the prefix of it applied to the state machine.
	log      map[int]Entry
	executed int
	outputs  []string
}

// NewProc returns a replica in ballot 0 with an empty log, configured by
// cfg.
func NewProc(cfg Config) *Proc {
	return &Proc{
		id:         cfg.ID,
		n:          len(cfg.Peers),
		in:         cfg.In,
		peers:      cfg.Peers,
		newCommand: cfg.NewCommand,
		timeout:    cfg.Timeout,
		log:        make(map[int]Entry),
	}
}

// leaderOf is the leader of a ballot among n replicas.
func leaderOf(ballot, n int) int { return ballot % n }

// Run executes at most maxBallots ballots, or until ctx is done. Each
// iteration of the outer loop is one ballot; a replica moves to the next
// ballot when a round times out, and to a later one when it is invited to
// it.
func (p *Proc) Run(ctx context.Context, maxBallots int) {
	majority := p.n/2 + 1

	//sync:tag p.ballot,p.phase
	for b := 0; b < maxBallots && ctx.Err() == nil; b++ {
		p.ballot++
		p.phase = Prepare

		// Round Prepare: the leader of the ballot invites everybody.
		if leaderOf(p.ballot, p.n) == p.id {
			p.broadcast(PrepareMsg{Ballot: p.ballot})
		}
		// Wait for the Prepare of our ballot or of a later one, sent by
		// the leader of its ballot. Older ballots are dropped: an acceptor
		// never goes back on its promise.
		var prepares []PrepareMsg
		timeout := time.After(p.timeout)
	prepareLoop:
		for len(prepares) == 0 {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(PrepareMsg)
				if !ok || m.Ballot < p.ballot || e.From != leaderOf(m.Ballot, p.n) {
					continue
				}
				prepares = append(prepares, m)
			case <-timeout:
				break prepareLoop
			}
		}
		if len(prepares) == 0 {
			continue // no leader for this ballot
		}
		// Join the ballot: jump to it if it is a later one.
		p.ballot = prepares[0].Ballot
		leader := leaderOf(p.ballot, p.n)

		// Round Promise: promise the ballot to its leader, with our log.
		p.phase = Promise
		p.send(leader, p.newPromise())
		var start int
		var recovered map[int]Entry
		if leader == p.id {
			promises := make(map[int]PromiseMsg)
			timeout = time.After(p.timeout)
		promiseLoop:
			for len(promises) < majority {
				select {
				case e := <-p.in:
					m, ok := e.Msg.(PromiseMsg)
					if !ok || m.Ballot != p.ballot {
						continue
					}
					promises[e.From] = m
				case <-timeout:
					break promiseLoop
				}
			}
			if len(promises) < majority {
				continue // not enough promises: a later ballot will do
			}
			// For each slot, the value accepted in the highest ballot, or
			// the committed one; proposing starts at the first slot not
			// known to be committed.
			start, recovered = merge(promises)
		}

		// Round Lead: the leader announces itself; everybody who joined
		// the ballot waits for it and learns the committed values.
		p.phase = Lead
		if leader == p.id {
			p.broadcast(p.newLead(start, recovered))
		}
		var leads []LeadMsg
		timeout = time.After(p.timeout)
	leadLoop:
		for len(leads) == 0 {
			select {
			case e := <-p.in:
				if m, ok := e.Msg.(LeadMsg); ok && e.From == leader && m.Ballot == p.ballot {
					leads = append(leads, m)
				}
			case <-timeout:
				break leadLoop
			}
		}
		if len(leads) == 0 {
			continue // the leader did not get a majority
		}
		p.learn(leads[0].Committed)
		// Still in round Lead: choose the log slot by slot until the
		// leader fails or loses its majority.
		p.replicate(ctx, leader, leads[0].Start, recovered)
	}
}

// newPromise returns the Promise of the current ballot, with a copy of the
// log.
func (p *Proc) newPromise() PromiseMsg {
	return PromiseMsg{Ballot: p.ballot, Log: maps.Clone(p.log)}
}

// newLead returns the Lead message of the current ballot.
func (p *Proc) newLead(start int, recovered map[int]Entry) LeadMsg {
	committed := make(map[int]string)
	for s, e := range recovered {
		if e.Committed {
			committed[s] = e.Value
		}
	}
	return LeadMsg{Ballot: p.ballot, Start: start, Committed: committed}
}

// merge combines the logs of a majority of promises: for each slot, the
// committed value if some replica knows one, otherwise the value accepted
// in the highest ballot (Paxos's rule for phase 2). It returns the first
// slot not known to be committed, from which the leader proposes.
func merge(promises map[int]PromiseMsg) (start int, recovered map[int]Entry) {
	recovered = make(map[int]Entry)
	for _, m := range promises {
		for s, e := range m.Log {
			old, seen := recovered[s]
			if !seen || e.Committed && !old.Committed || !old.Committed && e.Ballot > old.Ballot {
				recovered[s] = e
			}
		}
	}
	start = 1
	for recovered[start].Committed {
		start++
	}
	return start, recovered
}

// learn records values known to be chosen and applies what it can.
func (p *Proc) learn(committed map[int]string) {
	for s, v := range committed {
		p.log[s] = Entry{Ballot: p.ballot, Value: v, Committed: true}
	}
	p.execute()
}

// execute applies the committed prefix of the log to the state machine.
func (p *Proc) execute() {
	for {
		e, ok := p.log[p.executed+1]
		if !ok || !e.Committed {
			return
		}
		p.executed++
		p.outputs = append(p.outputs, e.Value)
	}
}

// send delivers m to replica to, or drops it when its inbox is full: the
// protocol tolerates lost messages.
//
//sync:send
func (p *Proc) send(to int, m any) {
	select {
	case p.peers[to] <- transport.Envelope{From: p.id, Msg: m}:
	default:
	}
}

// broadcast sends m to every replica, this one included.
//
//sync:send
func (p *Proc) broadcast(m any) {
	for to := range p.peers {
		p.send(to, m)
	}
}

// ID returns the id of the replica.
func (p *Proc) ID() int { return p.id }

// Ballot returns the current ballot of the replica.
func (p *Proc) Ballot() int { return p.ballot }

// Outputs returns the commands the replica applied, in log order.
func (p *Proc) Outputs() []string { return slices.Clone(p.outputs) }
