// Package paramtable passes the channels as parameters, as most channel
// code does: the inboxes of all processes as a slice indexed by process
// identity, the process's own inbox as a channel, with no //sync:peers or
// //sync:inbox. make-HO infers that out is the peers table (the loop sends
// on out[leader] and on every entry of a range over it) and in the inbox
// (the loop receives from it in a select).
package paramtable

import (
	"slices"
	"time"
)

type Step int

const (
	Collect Step = iota
	Announce
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	X     int
}

type Proc struct {
	id, n   int
	round   int
	step    Step
	x       int
	decided bool
}

// Run runs rounds phases: every process sends its value to the phase's
// leader, which announces the smallest it heard; a process adopts the
// smallest announcement and decides when it heard all n of them agree.
func (p *Proc) Run(in <-chan Msg, out []chan<- Msg, rounds int, timeout time.Duration) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = Collect
		leader := p.round % p.n
		out[leader] <- Msg{Round: p.round, Step: p.step, X: p.x}
		var xs []int
		timer.Reset(timeout)
	collect:
		for len(xs) < p.n {
			select {
			case m := <-in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				xs = append(xs, m.X)
			case <-timer.C:
				break collect
			}
		}
		if len(xs) > 0 {
			p.x = slices.Min(xs)
		}

		p.step = Announce
		for _, o := range out {
			o <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var heard []int
		timer.Reset(timeout)
	announce:
		for len(heard) < p.n {
			select {
			case m := <-in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				heard = append(heard, m.X)
			case <-timer.C:
				break announce
			}
		}
		if len(heard) > 0 {
			p.x = slices.Min(heard)
			if len(heard) == p.n && slices.Max(heard) == p.x {
				p.decided = true
			}
		}
	}
}
