// Package selfindex passes one slice of channels, the inboxes of all
// processes, and each process receives from its own entry: chans[p.id].
// make-HO infers that chans is the peers table (the loop sends on
// chans[leader] and on every entry of a range over it) and that the entry
// at the process's identity, a field the loop never assigns, is its inbox.
package selfindex

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
func (p *Proc) Run(chans []chan Msg, rounds int, timeout time.Duration) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = Collect
		leader := p.round % p.n
		chans[leader] <- Msg{Round: p.round, Step: p.step, X: p.x}
		var xs []int
		timer.Reset(timeout)
	collect:
		for len(xs) < p.n {
			select {
			case m := <-chans[p.id]:
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
		for _, o := range chans {
			o <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var heard []int
		timer.Reset(timeout)
	announce:
		for len(heard) < p.n {
			select {
			case m := <-chans[p.id]:
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
