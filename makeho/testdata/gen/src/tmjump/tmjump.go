// Package tmjump is a Tendermint-like agreement on a sequence of values:
// its tag has three variables, p.height,p.round,p.step. A process that
// decides moves to the next height (p.height++, p.round = 0); one that
// does not moves to the next round of its height (p.round++), and one
// that hears no proposal skips a round, so the processes' phases
// diverge. A process that hears prevotes of a later round of its height
// jumps to the latest of them (condition IV).
package tmjump

import (
	"context"
	"time"
)

type Step int

const (
	Propose Step = iota
	Prevote
	Precommit
)

//sync:msg Height,Round,Step
type Msg struct {
	Height, Round int
	Step          Step
	Value         int // the proposal, the value voted for, or -1 for nil
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
	round  int
	step   Step

	inputs    []int // the value this process proposes at each height
	proposal  int   // the proposal of the current round, -1 if none
	vote      int   // the value this process precommits, -1 for nil
	decisions []int // decisions[h] is the value decided at height h
	tries     int   // the rounds run, at all heights
	jumps     int   // the jumps to a later round
}

// MaxTries bounds the rounds a process runs: one left behind at a
// height the others have decided runs its rounds alone.
const MaxTries = 12

// Run decides heights values, one per height, in at most MaxTries rounds.
func (p *Proc) Run(ctx context.Context, heights int) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	p.round = -1
	//sync:tag p.height,p.round,p.step
	for p.height < heights && p.tries < MaxTries {
		p.tries++
		p.round++
		p.step = Propose
		if (p.height+p.round)%p.n == p.id {
			for _, ch := range p.peers {
				ch <- Envelope{From: p.id, Msg: Msg{Height: p.height, Round: p.round, Step: p.step, Value: p.inputs[p.height]}}
			}
		}
		prop := -1
		timer.Reset(p.timeout)
	propose:
		for prop < 0 {
			select {
			case e := <-p.inbox:
				if e.Msg.Height != p.height || e.Msg.Round != p.round || e.Msg.Step != p.step {
					continue
				}
				prop = e.Msg.Value
			case <-timer.C:
				break propose
			case <-ctx.Done():
				return
			}
		}
		drain(timer)
		p.proposal = prop
		if p.proposal < 0 {
			// No proposal: skip a round too, whose proposer is the next
			// in turn, and start the one after it.
			p.round++
			continue
		}

		p.step = Prevote
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Height: p.height, Round: p.round, Step: p.step, Value: p.proposal}}
		}
		var prevotes []Msg
		timer.Reset(p.timeout)
	prevote:
		for len(prevotes) < p.n {
			select {
			case e := <-p.inbox:
				if e.Msg.Height != p.height || e.Msg.Round < p.round || e.Msg.Step != p.step {
					continue
				}
				prevotes = append(prevotes, e.Msg)
			case <-timer.C:
				break prevote
			case <-ctx.Done():
				return
			}
		}
		// Jump to the latest round prevoted in.
		from := p.round
		for _, m := range prevotes {
			if m.Round > p.round {
				p.round = m.Round
			}
		}
		if p.round > from {
			p.jumps++
		}
		drain(timer)
		count := 0
		for _, m := range prevotes {
			if m.Round == p.round && m.Value == p.proposal {
				count++
			}
		}
		p.vote = -1
		if 3*count > 2*p.n {
			p.vote = p.proposal
		}

		p.step = Precommit
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Height: p.height, Round: p.round, Step: p.step, Value: p.vote}}
		}
		commits := 0
		timer.Reset(p.timeout)
	precommit:
		for commits < p.n {
			select {
			case e := <-p.inbox:
				if e.Msg.Height != p.height || e.Msg.Round != p.round || e.Msg.Step != p.step {
					continue
				}
				if e.Msg.Value >= 0 && e.Msg.Value == p.vote {
					commits++
				}
			case <-timer.C:
				break precommit
			case <-ctx.Done():
				return
			}
		}
		drain(timer)
		if p.vote >= 0 && 3*commits > 2*p.n {
			p.decisions = append(p.decisions, p.vote)
			p.height++
			p.round = -1
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
