// Package earlyentry enters its second round early on one path: when a
// process heard no estimate, the else-less path sets p.step = Vote inside
// an if/else of the first round's update, before the top-level p.step =
// Vote of the other paths. make-HO keeps the assignment in the update of
// the first round.
package earlyentry

import (
	"context"
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

// Run runs phases of a two-round consensus: the processes exchange their
// values and keep the smallest, vote for it when all they heard agree, and
// decide when a majority voted for the same value.
func (p *Proc) Run(ctx context.Context, phases int) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	//sync:tag p.phase,p.step
	for p.phase < phases {
		p.phase++
		p.step = Estimate
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Phase: p.phase, Step: p.step, X: p.x}}
		}
		xs := make(map[int]int)
		timer.Reset(p.timeout)
	estimates:
		for len(xs) < p.n {
			select {
			case e := <-p.inbox:
				if e.Msg.Phase != p.phase || e.Msg.Step != p.step {
					continue
				}
				xs[e.From] = e.Msg.X
			case <-timer.C:
				break estimates
			case <-ctx.Done():
				return
			}
		}
		switch {
		case len(xs) == 0:
			// Nobody heard: go on to the vote, without one.
			p.step = Vote
			p.voted = false
		default:
			p.voted = true
			for _, x := range xs {
				if x != p.x {
					p.voted = false
				}
				p.x = min(p.x, x)
			}
		}

		p.step = Vote
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Phase: p.phase, Step: p.step, X: p.x, Vote: p.voted}}
		}
		votes := 0
		timer.Reset(p.timeout)
	vote:
		for votes <= p.n/2 {
			select {
			case e := <-p.inbox:
				if e.Msg.Phase != p.phase || e.Msg.Step != p.step {
					continue
				}
				if e.Msg.Vote && e.Msg.X == p.x {
					votes++
				}
			case <-timer.C:
				break vote
			case <-ctx.Done():
				return
			}
		}
		if votes > p.n/2 && !p.decided {
			p.decided, p.decision = true, p.x
		}
	}
}
