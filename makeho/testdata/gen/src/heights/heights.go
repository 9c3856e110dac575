// Package heights decides a sequence of values, one per height, each in
// a fixed number of phases of a two-round consensus: its tag has three
// variables, p.height,p.phase,p.step. make-HO takes the first two
// together as the phase, ordered lexicographically, and the last as the
// round: the phase goes back to 1 when the height increases, and the
// pair still increases on every iteration.
package heights

import (
	"context"
	"time"
)

type Step int

const (
	Estimate Step = iota
	Vote
)

// PhasesPerHeight is the number of phases run at each height.
const PhasesPerHeight = 2

//sync:msg Height,Phase,Step
type Msg struct {
	Height int
	Phase  int
	Step   Step
	X      int
	Vote   bool
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

	height int
	phase  int
	step   Step

	inputs    []int // the value proposed at each height
	x         int
	voted     bool
	decisions map[int]int // height -> value decided
}

// Run decides at heights 0 to heights-1: at each, PhasesPerHeight phases
// in which the processes exchange their values and keep the smallest, vote
// for it when all they heard agree, and decide when a majority voted for
// the same value.
func (p *Proc) Run(ctx context.Context, heights int) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	p.x = p.inputs[0]
	//sync:tag p.height,p.phase,p.step
	for p.height*PhasesPerHeight+p.phase < heights*PhasesPerHeight {
		if p.phase == PhasesPerHeight {
			// The next height: its phases start again from 1.
			p.height++
			p.phase = 0
			p.x = p.inputs[p.height]
		}
		p.phase++
		p.step = Estimate
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Height: p.height, Phase: p.phase, Step: p.step, X: p.x}}
		}
		xs := make(map[int]int)
		timer.Reset(p.timeout)
	estimates:
		for len(xs) < p.n {
			select {
			case e := <-p.inbox:
				if e.Msg.Height != p.height || e.Msg.Phase != p.phase || e.Msg.Step != p.step {
					continue
				}
				xs[e.From] = e.Msg.X
			case <-timer.C:
				break estimates
			case <-ctx.Done():
				return
			}
		}
		drain(timer)
		if len(xs) == 0 {
			continue
		}
		p.voted = true
		for _, x := range xs {
			if x != p.x {
				p.voted = false
			}
			p.x = min(p.x, x)
		}

		p.step = Vote
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Height: p.height, Phase: p.phase, Step: p.step, X: p.x, Vote: p.voted}}
		}
		votes := 0
		timer.Reset(p.timeout)
	vote:
		for votes <= p.n/2 {
			select {
			case e := <-p.inbox:
				if e.Msg.Height != p.height || e.Msg.Phase != p.phase || e.Msg.Step != p.step {
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
		drain(timer)
		if _, done := p.decisions[p.height]; votes > p.n/2 && !done {
			p.decisions[p.height] = p.x
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
