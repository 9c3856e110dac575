package gradecast

import (
	"sync"
	"time"
)

// Output is what a process outputs for one instance: the dealer's value and
// its grade (0, 1 or 2). A grade of 0 comes with the empty value (⊥).
type Output struct {
	Inst   int
	Dealer int
	Value  string
	Grade  int
}

// Process is one honest participant. Its fields belong to Run while it
// executes.
type Process struct {
	id, n, f int
	timeout  time.Duration
	mu       *sync.Mutex // the network lock: makes a broadcast atomic

	//sync:peers
	peers []chan<- Msg
	//sync:inbox
	inbox <-chan Msg

	// The tag (inst, step) of the loop in Run.
	inst int
	step Step

	outputs []Output
}

// NewProcess returns process id of nw, tolerating f Byzantine processes,
// that waits at most timeout in each round.
func NewProcess(id, f int, nw *Network, timeout time.Duration) *Process {
	p := &Process{id: id, n: nw.Size(), f: f, timeout: timeout, mu: &nw.mu}
	for _, ch := range nw.inboxes {
		p.peers = append(p.peers, ch)
	}
	p.inbox = nw.inboxes[id]
	return p
}

// dealerOf returns the dealer of instance inst (instances start at 1).
func (p *Process) dealerOf(inst int) int { return (inst - 1) % p.n }

// broadcast sends m to every process, itself included, atomically.
func (p *Process) broadcast(m Msg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ch := range p.peers {
		select {
		case ch <- m:
		default: // full inbox: the copy is lost
		}
	}
}

// await returns the next message of the inbox; ok is false once timer has
// fired, which ends the round.
func (p *Process) await(timer *time.Timer) (m Msg, ok bool) {
	select {
	case m = <-p.inbox:
		return m, true
	case <-timer.C:
		return nil, false
	}
}

// Run takes part in instances 1..last; input gives the value this process
// deals in the instances it is the dealer of.
func (p *Process) Run(last int, input func(inst int) string) {
	//sync:tag p.inst,p.step
	for p.inst < last {
		p.inst++
		p.step = Propose
		if p.dealerOf(p.inst) == p.id {
			p.broadcast(ProposeMsg{Inst: p.inst, From: p.id, Value: input(p.inst)})
		}
		// Round Propose: the dealer's value, of this instance or of a later
		// one if this process fell behind.
		var props []ProposeMsg
		timer := time.NewTimer(p.timeout)
		for len(props) == 0 {
			m, ok := p.await(timer)
			if !ok {
				break
			}
			pm, isProp := m.(ProposeMsg)
			if !isProp || pm.Inst < p.inst || pm.From != p.dealerOf(pm.Inst) {
				continue
			}
			props = append(props, pm)
		}
		timer.Stop()
		if len(props) > 0 {
			p.inst = props[0].Inst // catch up with the dealer's instance
			p.step = Echo
			p.broadcast(EchoMsg{Inst: p.inst, From: p.id, Value: props[0].Value})
		}
		p.step = Echo
		dealer := p.dealerOf(p.inst)

		// Round Echo: wait for everybody's echo, or the end of the round. A
		// vote of this instance ends it too: its sender's echo round is
		// over, and every echo it counted has reached this process already.
		echoes := make(map[int]EchoMsg)
		var early []VoteMsg
		timer = time.NewTimer(p.timeout)
		for len(echoes) < p.n && len(early) == 0 {
			m, ok := p.await(timer)
			if !ok {
				break
			}
			switch m := m.(type) {
			case EchoMsg:
				if m.Inst == p.inst {
					echoes[m.From] = m
				}
			case VoteMsg:
				if m.Inst == p.inst {
					early = append(early, m)
				}
			}
		}
		timer.Stop()

		// Round Vote.
		p.step = Vote
		if v, count := tally(echoes); count >= p.n-p.f {
			p.broadcast(VoteMsg{Inst: p.inst, From: p.id, Value: v})
		}
		votes := make(map[int]VoteMsg)
		for _, vm := range early {
			votes[vm.From] = vm
		}
		timer = time.NewTimer(p.timeout)
		for len(votes) < p.n {
			m, ok := p.await(timer)
			if !ok {
				break
			}
			vm, isVote := m.(VoteMsg)
			if !isVote || vm.Inst != p.inst {
				continue
			}
			votes[vm.From] = vm
		}
		timer.Stop()
		p.outputs = append(p.outputs, grade(p.inst, dealer, votes, p.n, p.f))
	}
}

// grade computes the output of an instance from its Vote mailbox.
func grade(inst, dealer int, votes map[int]VoteMsg, n, f int) Output {
	out := Output{Inst: inst, Dealer: dealer}
	v, count := tally(votes)
	switch {
	case count >= n-f:
		out.Value, out.Grade = v, 2
	case count >= f+1:
		out.Value, out.Grade = v, 1
	}
	return out
}

// tally returns the value carried by most messages of a mailbox and how
// many carry it, the smallest such value on a tie.
func tally[M interface{ value() string }](mbox map[int]M) (best string, count int) {
	counts := make(map[string]int)
	for _, m := range mbox {
		counts[m.value()]++
	}
	for v, c := range counts {
		if c > count || c == count && v < best {
			best, count = v, c
		}
	}
	return best, count
}

// Outputs returns the outputs of the instances this process completed, in
// order. It must not be called while Run executes.
func (p *Process) Outputs() []Output { return append([]Output(nil), p.outputs...) }
