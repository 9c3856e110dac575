// Package recvhelper receives through methods of the process: estimates
// gathers up to n estimates until its timer fires, firstVote returns the
// first vote of the phase or, on the timeout, none. make-HO follows the
// calls: the methods become methods of the machine that read the round's
// mailbox, the timeout's return run once the mailbox is read (if the
// reception's condition still holds).
package recvhelper

import (
	"time"
)

type Step int

const (
	Estimate Step = iota
	Vote
)

//sync:msg Phase,Step
type Msg struct {
	Phase int
	Step  Step
	X     int
	Vote  bool
}

// Envelope is what the channels carry.
type Envelope struct {
	From int
	Msg  Msg
}

type Proc struct {
	id, n   int
	inbox   <-chan Envelope
	peers   []chan<- Envelope
	timeout time.Duration

	phase int
	step  Step

	x        int
	voted    bool
	decided  bool
	decision int
}

// estimates returns the estimates of the phase, by sender: all n, or those
// in by the timeout.
func (p *Proc) estimates() map[int]int {
	xs := make(map[int]int)
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	for len(xs) < p.n {
		select {
		case e := <-p.inbox:
			if e.Msg.Phase != p.phase || e.Msg.Step != p.step {
				continue
			}
			xs[e.From] = e.Msg.X
		case <-timer.C:
			return xs
		}
	}
	return xs
}

// firstVote returns the first vote of the phase for x, and whether one came
// before the timeout.
func (p *Proc) firstVote() (int, bool) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	for {
		select {
		case e := <-p.inbox:
			if e.Msg.Phase != p.phase || e.Msg.Step != p.step || !e.Msg.Vote {
				continue
			}
			return e.From, true
		case <-timer.C:
			return -1, false
		}
	}
}

// Run runs phases of a two-round consensus: the processes exchange their
// values and keep the smallest, vote for it when all they heard agree, and
// decide when the first vote they hear is process 0's.
func (p *Proc) Run(phases int) {
	//sync:tag p.phase,p.step
	for p.phase < phases {
		p.phase++
		p.step = Estimate
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Phase: p.phase, Step: p.step, X: p.x}}
		}
		xs := p.estimates()
		p.voted = len(xs) > 0
		for _, x := range xs {
			if x != p.x {
				p.voted = false
			}
			p.x = min(p.x, x)
		}

		p.step = Vote
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Phase: p.phase, Step: p.step, X: p.x, Vote: p.voted}}
		}
		if from, ok := p.firstVote(); ok && !p.decided && from == 0 {
			p.decided, p.decision = true, p.x
		}
	}
}
