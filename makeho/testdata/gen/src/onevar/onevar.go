// Package onevar tags its loop with one variable, p.round: every
// iteration is a phase of one round, whose number is the phase. The
// round is increased at the end of the body. make-HO makes a machine of
// one round, with no round variable to test.
package onevar

import (
	"context"
	"time"
)

//sync:msg Round
type Msg struct {
	Round int
	X     int
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

	round int

	x       int
	heard   int // the processes heard of in the last round
	stable  int // rounds in a row in which x did not change
	decided bool
}

// Run floods the smallest value for rounds rounds, and decides once it
// heard everybody twice in a row without x changing.
func (p *Proc) Run(ctx context.Context, rounds int) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	//sync:tag p.round
	for p.round < rounds {
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Round: p.round, X: p.x}}
		}
		xs := make(map[int]int)
		timer.Reset(p.timeout)
	flood:
		for len(xs) < p.n {
			select {
			case e := <-p.inbox:
				if e.Msg.Round != p.round {
					continue
				}
				xs[e.From] = e.Msg.X
			case <-timer.C:
				break flood
			case <-ctx.Done():
				return
			}
		}
		p.heard = len(xs)
		old := p.x
		for _, x := range xs {
			p.x = min(p.x, x)
		}
		if p.x == old && p.heard == p.n {
			p.stable++
		} else {
			p.stable = 0
		}
		if p.stable >= 2 {
			p.decided = true
		}
		p.round++
	}
}
