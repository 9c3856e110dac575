// Package onethirdrule is the OneThirdRule consensus algorithm of the
// Heard-Of model (Charron-Bost and Schiper; Algorithm 1 of Tsuchiya and
// Schiper, "Model checking of consensus algorithms"), written
// asynchronously over transport.Net.
//
// Every process runs the same loop (Proc.Run). One iteration is one round r
// of Algorithm 1, the phase of the synchronization tag, made of two steps:
//
//	Estimate  broadcast x; with estimates of round r from more than 2n/3
//	          processes, adopt the value held by all of them but at most
//	          ⌊(n−1)/3⌋ (the smallest value otherwise), and decide a value
//	          held by more than 2n/3 of them (lines 3-13 of Algorithm 1)
//	Announce  broadcast x and whether we decided; a process that hears of
//	          a decision adopts it, so that processes that missed the
//	          decisive round still terminate
//
// OneThirdRule is safe whatever the heard-of sets, so a process that is
// behind may skip rounds: when estimates of a later round arrive, it jumps
// to the latest round it heard of and only uses the estimates of that round.
package onethirdrule

import (
	"slices"
	"time"

	"transport"
)

// Step is the round part of the synchronization tag: the step of a process
// inside its current round, in execution order.
type Step int

// The two steps of a round.
const (
	// Estimate: the round of Algorithm 1.
	Estimate Step = iota
	// Announce: processes tell each other whether they decided.
	Announce
)

// Msg is the only message type; Step says which step it belongs to.
//
//sync:msg Round,Step
type Msg struct {
	Round   int
	Step    Step
	Value   int  // the sender's estimate x
	Decided bool // Announce only: Value is the sender's decision
}

// Proc is one OneThirdRule process.
type Proc struct {
	id      int
	n       int
	net     transport.Net
	timeout time.Duration

	// Synchronization variables: the tag (round, step) of the loop in Run.
	round int
	step  Step

	// Algorithm variables.
	x        int // current estimate
	decided  bool
	decision int
}

// New returns process id proposing v.
func New(id int, net transport.Net, v int, timeout time.Duration) *Proc {
	return &Proc{id: id, n: net.N(), net: net, timeout: timeout, x: v}
}

// Decision returns the decided value, if any.
func (p *Proc) Decision() (int, bool) { return p.decision, p.decided }

// Run executes maxRounds iterations of the loop (fewer rounds are executed
// if the process catches up with others by skipping some).
func (p *Proc) Run(maxRounds int) {
	//sync:tag p.round,p.step
	for range maxRounds {
		p.round++
		p.step = Estimate

		// Step Estimate: send x to all processes.
		est := Msg{Round: p.round, Step: p.step, Value: p.x}
		p.net.Broadcast(est)

		// Collect estimates of this round or a later one until more than
		// 2n/3 processes of one round answered, or the timeout.
		votes := make(map[int]Msg) // sender -> estimate
		deadline := time.Now().Add(p.timeout)
		for !quorum(votes, p.n) {
			raw, from, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Step != Estimate || m.Round < p.round {
				continue // not an estimate, or one of a round we are past
			}
			votes[from] = m
		}

		// Catch up: estimates of a later round mean that we fell behind.
		// Move to the latest round we heard of and use its estimates only;
		// skipped rounds are rounds in which we heard nobody.
		for _, m := range votes {
			if m.Round > p.round {
				p.round = m.Round
			}
		}
		p.transition(valuesIn(votes, p.round))

		// Step Announce: tell everybody whether we decided.
		p.step = Announce
		p.net.Broadcast(Msg{Round: p.round, Step: p.step, Value: p.x, Decided: p.decided})
		announces := make(map[int]Msg) // sender -> announcement
		deadline = time.Now().Add(p.timeout)
		for !quorumOrDecision(announces, p.n) {
			raw, from, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Step != Announce || m.Round != p.round {
				continue
			}
			announces[from] = m
		}
		for _, m := range announces {
			if m.Decided && !p.decided {
				p.x = m.Value
				p.decided, p.decision = true, m.Value
			}
		}
	}
}

// transition is the state transition of Algorithm 1 (lines 6-13), given the
// values received in the current round.
func (p *Proc) transition(received []int) {
	if 3*len(received) <= 2*p.n {
		return // |HO(p, r)| ≤ 2n/3: nothing changes
	}
	v, count := mostFrequent(received)
	if count >= len(received)-(p.n-1)/3 {
		p.x = v
	} else {
		p.x = slices.Min(received)
	}
	if 3*count > 2*p.n && !p.decided {
		p.decided, p.decision = true, v
	}
}

// quorum reports whether more than 2n/3 processes sent an estimate of the
// latest round in votes.
func quorum(votes map[int]Msg, n int) bool {
	latest := 0
	for _, m := range votes {
		latest = max(latest, m.Round)
	}
	return 3*len(valuesIn(votes, latest)) > 2*n
}

// quorumOrDecision reports whether more than 2n/3 processes announced, or
// one announced a decision.
func quorumOrDecision(announces map[int]Msg, n int) bool {
	for _, m := range announces {
		if m.Decided {
			return true
		}
	}
	return 3*len(announces) > 2*n
}

// valuesIn returns the values of the estimates of round r in votes.
func valuesIn(votes map[int]Msg, r int) []int {
	var vs []int
	for _, m := range votes {
		if m.Round == r {
			vs = append(vs, m.Value)
		}
	}
	return vs
}

// mostFrequent returns the most frequent value of vs (the smallest one on a
// tie) and its number of occurrences.
func mostFrequent(vs []int) (v, count int) {
	counts := make(map[int]int)
	for _, w := range vs {
		counts[w]++
	}
	for w, c := range counts {
		if c > count || c == count && w < v {
			v, count = w, c
		}
	}
	return v, count
}
