// Package chans holds the make-HO refusals of channel communication
// (version 2 of the language: //sync:peers and //sync:inbox). Each method
// is the same one-round loop with one defect.
package chans

import (
	"context"
	"time"
)

type Step int

const A Step = 0

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	X     int
}

type Proc struct {
	in    <-chan Msg   //sync:inbox
	peers []chan<- Msg //sync:peers
	other chan Msg     // not annotated
	next  *Proc
	round int
	step  Step
	x     int
}

func (p *Proc) cleanup() {}

// SendOther sends on a channel that is not in a peer table.
func (p *Proc) SendOther(rounds int) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		p.other <- Msg{Round: p.round, Step: p.step, X: p.x}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// RecvOther receives from another process's inbox.
func (p *Proc) RecvOther(rounds int) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.next.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// Defer defers something other than stopping a timer.
func (p *Proc) Defer(rounds int) {
	timer := time.NewTimer(time.Second)
	defer p.cleanup()
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// TimerUse uses the timer's result.
func (p *Proc) TimerUse(rounds int) {
	timer := time.NewTimer(time.Second)
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var got []Msg
		if !timer.Stop() {
			p.x = 0
		}
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// Default polls the inbox.
func (p *Proc) Default(rounds int) {
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var got []Msg
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			default:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// TimeoutBody does more than leave the reception on a timeout.
func (p *Proc) TimeoutBody(rounds int) {
	timer := time.NewTimer(time.Second)
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				p.x = -1
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// SendTimeout waits for room in a peer's inbox until a timeout.
func (p *Proc) SendTimeout(rounds int) {
	timer := time.NewTimer(time.Second)
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		select {
		case p.peers[0] <- Msg{Round: p.round, Step: p.step, X: p.x}:
		case <-timer.C:
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// Env is an envelope.
type Env struct {
	From int
	Msg  any
}

// Env3 is an envelope with a field the mailbox does not carry.
type Env3 struct {
	From int
	Msg  any
	Hops int
}

type EnvProc struct {
	id    int
	in    <-chan Env3   //sync:inbox From,Msg
	peers []chan<- Env3 //sync:peers From,Msg
	round int
	step  Step
	x     int
}

// EnvelopeExtra receives an envelope with a field the mailbox does not carry.
func (p *EnvProc) EnvelopeExtra(rounds int) {
	timer := time.NewTimer(time.Second)
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Env3{From: p.id, Msg: Msg{Round: p.round, Step: p.step, X: p.x}}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(Msg)
				if !ok || m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// RangeCond ranges over the peer table without its index, and sends
// under a condition.
func (p *Proc) RangeCond(rounds int) {
	timer := time.NewTimer(time.Second)
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			if p.x != 0 {
				ch <- Msg{Round: p.round, Step: p.step, X: p.x}
			}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// CancelBody does more than return when its context is done.
func (p *Proc) CancelBody(ctx context.Context, rounds int) {
	timer := time.NewTimer(time.Second)
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			case <-ctx.Done():
				p.x = 0
				return
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// Other is a message that no inbox carries.
//
//sync:msg Round,Step
type Other struct {
	Round int
	Step  Step
}

type Mismatch struct {
	in    <-chan Msg     //sync:inbox
	peers []chan<- Other //sync:peers
	round int
	step  Step
	x     int
}

// NoInbox sends on channels that no inbox has the type of.
func (p *Mismatch) NoInbox(rounds int) {
	timer := time.NewTimer(time.Second)
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Other{Round: p.round, Step: p.step}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}
