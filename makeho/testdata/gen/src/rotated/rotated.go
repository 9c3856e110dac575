// Package rotated increases the phase at the end of the loop body, in an
// if/else whose two paths enter the first round for the next iteration
// (and one of them goes on with a statement after the switch); the first
// round is entered before the loop. make-HO starts the body in the first
// round and makes the if/else the end of the last round's update.
package rotated

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
	retries  int // phases ended without a majority of votes
}

// Run runs phases of a two-round consensus: the processes exchange their
// values and keep the smallest, vote for it when all they heard agree, and
// decide when a majority voted for the same value.
func (p *Proc) Run(ctx context.Context, phases int) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	p.phase, p.step = 1, Estimate
	//sync:tag p.phase,p.step
	for p.phase <= phases {
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
		if majority := votes > p.n/2; majority && !p.decided {
			p.decided, p.decision = true, p.x
			p.phase++
			p.step = Estimate
		} else {
			p.phase++
			p.step = Estimate
			if !majority {
				p.retries++
			}
		}
	}
}
