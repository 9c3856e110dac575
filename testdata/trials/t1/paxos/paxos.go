package paxos

import "time"

// Step is the round inside a ballot, in execution order.
type Step int

// The four rounds of a ballot.
const (
	Prepare Step = iota
	Promise
	Accept
	Accepted
)

// Msg is the one message type of the protocol; Step says which round it
// belongs to.
//
//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
	From   int
	VBal   int    // Promise: ballot of the last vote, 0 if none
	Val    string // Promise: value of the last vote; Accept, Accepted: the value
}

// Replica is one Paxos replica (proposer, acceptor and learner).
type Replica struct {
	id       int
	n        int
	net      *Network
	timeout  time.Duration
	proposal string

	ballot int  // phase
	step   Step // round

	vbal int    // ballot of the last accepted value (acceptor)
	vval string // last accepted value

	decided bool
	value   string
}

// NewReplica returns replica id of nw proposing proposal when it leads.
func NewReplica(id int, nw *Network, proposal string, timeout time.Duration) *Replica {
	return &Replica{id: id, n: nw.Size(), net: nw, proposal: proposal, timeout: timeout}
}

// Decision returns the decided value, if any.
func (p *Replica) Decision() (string, bool) { return p.value, p.decided }

func (p *Replica) leaderOf(b int) int { return b % p.n }

func (p *Replica) promise() Msg {
	return Msg{Ballot: p.ballot, Step: p.step, From: p.id, VBal: p.vbal, Val: p.vval}
}

// Run runs at most maxBallots ballots, stopping early once decided.
func (p *Replica) Run(maxBallots int) {
	quorum := p.n/2 + 1
	//sync:tag p.ballot,p.step
	for i := 0; i < maxBallots && !p.decided; i++ {
		p.ballot++
		p.step = Prepare
		if p.leaderOf(p.ballot) == p.id {
			p.net.Broadcast(Msg{Ballot: p.ballot, Step: Prepare, From: p.id})
		}

		// Phase 1a: join the first leader heard of, in this ballot or a
		// later one.
		var preps []Msg
		deadline := time.Now().Add(p.timeout)
		for len(preps) == 0 {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != Prepare || m.Ballot < p.ballot {
				continue
			}
			preps = append(preps, m)
		}
		if len(preps) == 0 {
			continue
		}
		leader := preps[0].From
		p.ballot = preps[0].Ballot

		// Phase 1b: promise, reporting the last vote.
		p.step = Promise
		p.net.Send(leader, p.promise())
		if leader == p.id {
			promises := make(map[int]Msg)
			deadline = time.Now().Add(p.timeout)
			for len(promises) < quorum {
				m, ok := p.net.Recv(p.id, deadline)
				if !ok {
					break
				}
				if m.Step != Promise || m.Ballot != p.ballot {
					continue
				}
				promises[m.From] = m
			}
			if len(promises) < quorum {
				continue
			}
			// Propose the value of the highest vote of the quorum, if
			// any: it may have been chosen already.
			val, top := p.proposal, 0
			for _, m := range promises {
				if m.VBal > top {
					val, top = m.Val, m.VBal
				}
			}
			p.step = Accept
			p.net.Broadcast(Msg{Ballot: p.ballot, Step: p.step, From: p.id, Val: val})
		}

		// Phase 2a: accept the leader's proposal.
		p.step = Accept
		var props []Msg
		deadline = time.Now().Add(p.timeout)
		for len(props) == 0 {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != Accept || m.Ballot != p.ballot || m.From != leader {
				continue
			}
			props = append(props, m)
		}
		if len(props) == 0 {
			continue
		}
		p.vbal, p.vval = p.ballot, props[0].Val

		// Phase 2b: tell everybody; a majority of votes decides.
		p.step = Accepted
		p.net.Broadcast(Msg{Ballot: p.ballot, Step: p.step, From: p.id, Val: p.vval})
		votes := make(map[int]string)
		deadline = time.Now().Add(p.timeout)
		for len(votes) < quorum {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != Accepted || m.Ballot != p.ballot {
				continue
			}
			votes[m.From] = m.Val
		}
		if len(votes) >= quorum {
			p.decided, p.value = true, p.vval
		}
	}
}
