// Package rangeslice runs one phase per element of a slice (a range over
// it with a value variable), increases the phase at the end of the body,
// returns results (with an error, before the first send of the phase of
// a negative input), and returns them with the context's error from the
// cancellation case of its receptions, after stopping the timer. make-HO
// keeps the slice and the index in the machine, sets the value variable
// when an iteration starts, and moves the results to the machine's result
// fields.
package rangeslice

import (
	"context"
	"errors"
	"time"
)

// ErrNegative says that an input was negative: the process stops there,
// before the phase's first send.
var ErrNegative = errors.New("negative input")

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

	x     int
	voted bool
}

// smallest returns the smallest value of xs and how many carry it.
func smallest(xs map[int]int, x int) (int, int) {
	k := 0
	for _, y := range xs {
		x = min(x, y)
	}
	for _, y := range xs {
		if y == x {
			k++
		}
	}
	return x, k
}

// Run runs one phase per input: the processes propose their input of the
// phase, keep the smallest value they heard, vote for it when all agree,
// and record it when a majority voted for it (-1 otherwise).
func (p *Proc) Run(ctx context.Context, inputs []int) ([]int, error) {
	var results []int
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	//sync:tag p.phase,p.step
	for _, in := range inputs {
		if in < 0 {
			return results, ErrNegative
		}
		p.step = Estimate
		p.x = in
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
				timer.Stop()
				return results, ctx.Err()
			}
		}
		best, _ := smallest(xs, p.x)
		p.voted = len(xs) == p.n && best == p.x

		p.step = Vote
		for _, ch := range p.peers {
			ch <- Envelope{From: p.id, Msg: Msg{Phase: p.phase, Step: p.step, X: best, Vote: p.voted}}
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
				if e.Msg.Vote && e.Msg.X == best {
					votes++
				}
			case <-timer.C:
				break vote
			case <-ctx.Done():
				return results, ctx.Err()
			}
		}
		if votes > p.n/2 {
			results = append(results, best)
		} else {
			results = append(results, -1)
		}
		p.phase++
	}
	return results, nil
}
