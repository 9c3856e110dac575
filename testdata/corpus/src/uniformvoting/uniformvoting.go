// Package uniformvoting is the UniformVoting consensus algorithm of the
// Heard-Of model (Charron-Bost and Schiper), a deterministic, multi-valued
// relative of Ben-Or, written asynchronously over Go channels.
//
// Every process runs the same loop (Proc.Run). One iteration is one phase φ,
// made of two rounds:
//
//	Estimate  (round 2φ−1) send x to all; x := the smallest x received, and
//	          vote for it if all the values received are equal
//	Vote      (round 2φ) send x and the vote to all; adopt a vote received,
//	          decide if all messages received carry the same vote; forget
//	          the vote
//
// UniformVoting is safe when, in every round, some non-empty kernel of
// processes is heard by everybody. A process that heard nobody in the
// Estimate round skips the rest of the phase.
//
// Processes exchange transport.Envelope values over channels; each round
// stores only messages of exactly its own phase and round.
package uniformvoting

import (
	"maps"
	"slices"
	"time"

	"transport"
)

// Step is the round part of the synchronization tag: the round of a process
// inside its current phase, in execution order.
type Step int

// The two rounds of a phase.
const (
	// Estimate is round 2φ−1.
	Estimate Step = iota
	// Vote is round 2φ.
	Vote
)

// Msg is the payload of every envelope; Step says which round it belongs to.
//
//sync:msg Phase,Step
type Msg struct {
	Phase   int
	Step    Step
	X       int  // the sender's estimate
	Vote    int  // Vote round only: the sender's vote, if HasVote
	HasVote bool // false stands for the "?" of the algorithm
}

// Proc is one UniformVoting process.
type Proc struct {
	id      int
	n       int
	in      <-chan transport.Envelope   //sync:inbox From,Msg // this process's inbox
	out     []chan<- transport.Envelope //sync:peers From,Msg // out[q] is the inbox of process q
	timeout time.Duration

	// Synchronization variables: the tag (phase, step) of the loop in Run.
	phase int
	step  Step

	// Algorithm variables.
	x        int
	vote     int
	hasVote  bool
	decided  bool
	decision int
}

// New returns process id proposing v, receiving on in and sending to the
// inboxes out (indexed by process, itself included).
func New(id int, in <-chan transport.Envelope, out []chan<- transport.Envelope, v int, timeout time.Duration) *Proc {
	return &Proc{id: id, n: len(out), in: in, out: out, timeout: timeout, x: v}
}

// Decision returns the decided value, if any.
func (p *Proc) Decision() (int, bool) { return p.decision, p.decided }

// broadcast sends m to every process, this one included. Inboxes are
// buffered; a full inbox makes the sender wait.
//
//sync:send
func (p *Proc) broadcast(m Msg) {
	for _, ch := range p.out {
		ch <- transport.Envelope{From: p.id, Msg: m}
	}
}

// Run executes phases 1 to maxPhases. A process that decided keeps taking
// part: it may belong to the kernel the others need.
func (p *Proc) Run(maxPhases int) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()

	//sync:tag p.phase,p.step
	for p.phase < maxPhases {
		p.phase++
		p.step = Estimate

		// Round 2φ−1: send x to all, wait to hear from everybody or
		// the timeout.
		p.broadcast(Msg{Phase: p.phase, Step: p.step, X: p.x})
		estimates := make(map[int]int) // sender -> x
		timer.Reset(p.timeout)
	estimateRound:
		for len(estimates) < p.n {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(Msg)
				if !ok || m.Phase != p.phase || m.Step != p.step {
					continue // another phase or round: drop
				}
				estimates[e.From] = m.X
			case <-timer.C:
				break estimateRound
			}
		}
		if len(estimates) == 0 {
			continue // heard nobody: skip this phase
		}
		p.x, p.vote, p.hasVote = estimateTransition(estimates)

		// Round 2φ: send x and the vote to all.
		p.step = Vote
		p.broadcast(Msg{Phase: p.phase, Step: p.step, X: p.x, Vote: p.vote, HasVote: p.hasVote})
		votes := make(map[int]Msg) // sender -> message
		timer.Reset(p.timeout)
	voteRound:
		for len(votes) < p.n {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(Msg)
				if !ok || m.Step != Vote || m.Phase != p.phase {
					continue
				}
				votes[e.From] = m
			case <-timer.C:
				break voteRound
			}
		}
		if v, ok := someVote(votes); ok {
			p.x = v
		}
		if v, ok := unanimousVote(votes); ok && !p.decided {
			p.decided, p.decision = true, v
		}
		p.hasVote = false
	}
}

// estimateTransition is the transition of round 2φ−1: the smallest value
// received, and a vote for it if all the values received are equal.
func estimateTransition(estimates map[int]int) (x, vote int, hasVote bool) {
	xs := slices.Collect(maps.Values(estimates))
	x = slices.Min(xs)
	return x, x, slices.Max(xs) == x
}

// someVote returns a vote carried by one of the messages, if any: the one
// of the smallest sender, so that the choice does not depend on the order
// of a map when the kernel assumption fails and the votes differ (all the
// votes of a phase are equal when it holds).
func someVote(votes map[int]Msg) (int, bool) {
	for _, q := range slices.Sorted(maps.Keys(votes)) {
		if m := votes[q]; m.HasVote {
			return m.Vote, true
		}
	}
	return 0, false
}

// unanimousVote returns v if there is at least one message and all the
// messages carry the vote v.
func unanimousVote(votes map[int]Msg) (int, bool) {
	v, ok := someVote(votes)
	if !ok {
		return 0, false
	}
	for _, m := range votes {
		if !m.HasVote || m.Vote != v {
			return 0, false
		}
	}
	return v, true
}
