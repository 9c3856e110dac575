package fastpaxos

import "time"

// Step is the round part of the tag (ballot, step).
type Step int

// The steps of a ballot, in order (phases 1a, 1b, 2a, 2b).
const (
	Prepare Step = iota
	Promise
	Accept
	Accepted
)

// Msg is the one message type, used in every step.
//
//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
	From   int
	VRnd   int    // Promise: ballot of the sender's last vote, 0 if none
	VVal   string // Promise: value of that vote
	Any    bool   // Accept: fast ballot with a free choice, vote your own value
	Val    string // Accept and Accepted: the value
}

// Transport connects the processes.
type Transport interface {
	// Send sends m to process to.
	//
	//sync:send
	Send(to int, m Msg)
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m Msg)
	// Recv returns the next message, or false after timeout.
	//
	//sync:recv
	Recv(timeout time.Duration) (Msg, bool)
}

// Config configures one process.
type Config struct {
	ID, N      int
	Proposal   string
	Net        Transport
	Timeout    time.Duration
	MaxBallots int
}

type proc struct {
	id, n    int
	net      Transport
	timeout  time.Duration
	proposal string

	ballot int
	step   Step

	vrnd int
	vval string
}

func fast(ballot int) bool { return ballot%2 == 1 }

// Run runs the process and returns the value it learned, if any.
func Run(cfg Config) (string, bool) {
	p := &proc{id: cfg.ID, n: cfg.N, net: cfg.Net, timeout: cfg.Timeout, proposal: cfg.Proposal,
		ballot: 0, step: Prepare}
	classic := p.n/2 + 1
	fastQ := (3*p.n + 3) / 4

	//sync:tag p.ballot,p.step
	for try := 0; try < cfg.MaxBallots; try++ {
		p.ballot++
		p.step = Prepare
		if p.ballot%p.n == p.id {
			p.net.Broadcast(Msg{Ballot: p.ballot, Step: p.step, From: p.id})
		}
		var opens []Msg
		for len(opens) == 0 {
			m, ok := p.net.Recv(p.timeout)
			if !ok {
				break
			}
			if m.Step != Prepare || m.Ballot < p.ballot {
				continue
			}
			opens = append(opens, m)
		}
		if len(opens) == 0 {
			continue
		}
		p.ballot = opens[0].Ballot
		coord := opens[0].From

		p.step = Promise
		p.net.Send(coord, Msg{Ballot: p.ballot, Step: p.step, From: p.id, VRnd: p.vrnd, VVal: p.vval})
		var proposal Msg
		if coord == p.id {
			promises := make(map[int]Msg)
			for len(promises) < classic {
				m, ok := p.net.Recv(p.timeout)
				if !ok {
					break
				}
				if m.Step != Promise || m.Ballot != p.ballot {
					continue
				}
				promises[m.From] = m
			}
			if len(promises) < classic {
				continue
			}
			proposal = p.pick(promises, fastQ)
		}

		p.step = Accept
		if coord == p.id {
			proposal.Ballot, proposal.Step, proposal.From = p.ballot, p.step, p.id
			p.net.Broadcast(proposal)
		}
		var accepts []Msg
		for len(accepts) == 0 {
			m, ok := p.net.Recv(p.timeout)
			if !ok {
				break
			}
			if m.Step != Accept || m.Ballot != p.ballot || m.From != coord {
				continue
			}
			accepts = append(accepts, m)
		}
		if len(accepts) == 0 {
			continue
		}
		vote := accepts[0].Val
		if accepts[0].Any {
			vote = p.proposal
		}
		p.vrnd, p.vval = p.ballot, vote

		p.step = Accepted
		p.net.Broadcast(Msg{Ballot: p.ballot, Step: p.step, From: p.id, Val: vote})
		need := classic
		if fast(p.ballot) {
			need = fastQ
		}
		votes := make(map[int]string)
		for len(votes) < p.n {
			m, ok := p.net.Recv(p.timeout)
			if !ok {
				break
			}
			if m.Step != Accepted || m.Ballot != p.ballot {
				continue
			}
			votes[m.From] = m.Val
			if _, done := chosen(votes, need); done {
				break
			}
		}
		if v, done := chosen(votes, need); done {
			return v, true
		}
	}
	return "", false
}

// chosen returns a value with at least need votes.
func chosen(votes map[int]string, need int) (string, bool) {
	count := make(map[string]int)
	for _, v := range votes {
		count[v]++
		if count[v] >= need {
			return v, true
		}
	}
	return "", false
}

// pick applies rule O4 of Fast Paxos to a classic quorum of promises and
// returns the Accept message to send (without its tag).
func (p *proc) pick(promises map[int]Msg, fastQ int) Msg {
	k := 0
	for _, m := range promises {
		k = max(k, m.VRnd)
	}
	if k == 0 {
		if fast(p.ballot) {
			return Msg{Any: true}
		}
		return Msg{Val: p.proposal}
	}
	count := make(map[string]int)
	var some string
	for _, m := range promises {
		if m.VRnd == k {
			count[m.VVal]++
			some = m.VVal
		}
	}
	if !fast(k) {
		return Msg{Val: some} // a classic ballot votes for one value only
	}
	// In a fast ballot k, v may have been chosen only if every member of
	// some fast quorum voted v, so at least fastQ+|promises|-n of ours did.
	for v, c := range count {
		if c >= fastQ+len(promises)-p.n {
			return Msg{Val: v}
		}
	}
	if fast(p.ballot) {
		return Msg{Any: true}
	}
	return Msg{Val: some}
}
