// Package raftdown is a Raft-like leader election with step-down: its
// tag is p.term,p.step. Each attempt, a node starts an election in a
// later term, after a backoff of its own (the randomized election
// timeouts of Raft), so the nodes' terms diverge; a node that hears a
// request of a later term steps down to it (condition IV's jump, to the
// maximum term of its mailbox) and votes for that term's lowest
// candidate. A node that gets the votes of a majority leads its term.
package raftdown

import (
	"context"
	"time"
)

type Step int

const (
	Request Step = iota
	Vote
)

//sync:msg Term,Step
type Msg struct {
	Term int
	Step Step
	Cand int // the candidate requested or voted for
}

// Envelope is what the channels carry.
type Envelope struct {
	From int
	Msg  Msg
}

type Node struct {
	id, n   int
	inbox   <-chan Envelope
	peers   []chan<- Envelope
	timeout time.Duration

	term int
	step Step

	backoff  []bool // whether the timeout of each attempt is a late one
	votedFor int    // the candidate voted for in the current term, -1 if none
	votes    int    // the votes this node got in the current term
	led      []int  // the terms this node led
	tries    int
}

// Run runs attempts elections.
func (p *Node) Run(ctx context.Context, attempts int) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	p.step = Request
	//sync:tag p.term,p.step
	for p.tries < attempts {
		if p.backoff[p.tries%len(p.backoff)] {
			p.term += 2 // a later timeout: a term is skipped
		} else {
			p.term++
		}
		p.tries++
		p.step = Request
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Term: p.term, Step: p.step, Cand: p.id}}
		}
		var reqs []Msg
		timer.Reset(p.timeout)
	request:
		for len(reqs) < p.n {
			select {
			case e := <-p.inbox:
				if e.Msg.Term < p.term || e.Msg.Step != p.step {
					continue
				}
				reqs = append(reqs, e.Msg)
			case <-timer.C:
				break request
			case <-ctx.Done():
				return
			}
		}
		// Step down to the latest term requested.
		for _, m := range reqs {
			if m.Term > p.term {
				p.term = m.Term
			}
		}
		drain(timer)
		p.votedFor = -1
		for _, m := range reqs {
			if m.Term == p.term && (p.votedFor < 0 || m.Cand < p.votedFor) {
				p.votedFor = m.Cand
			}
		}

		p.step = Vote
		if p.votedFor >= 0 {
			p.peers[p.votedFor] <- Envelope{From: p.id, Msg: Msg{Term: p.term, Step: p.step, Cand: p.votedFor}}
		}
		votes := 0
		timer.Reset(p.timeout)
	vote:
		for votes < p.n {
			select {
			case e := <-p.inbox:
				if e.Msg.Term != p.term || e.Msg.Step != p.step {
					continue
				}
				if e.Msg.Cand == p.id {
					votes++
				}
			case <-timer.C:
				break vote
			case <-ctx.Done():
				return
			}
		}
		drain(timer)
		p.votes = votes
		if 2*p.votes > p.n {
			p.led = append(p.led, p.term)
		}
	}
}

// drain stops t and empties its channel, so that it can be reset: make-HO
// drops its calls with the timer.
func drain(t *time.Timer) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
}
