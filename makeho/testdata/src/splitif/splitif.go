// Package splitif holds make-HO abort cases of rounds entered inside an
// if statement.
package splitif

import (
	"time"

	"transport"
)

type Step int

const (
	A Step = iota
	B
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
}

type Proc struct {
	id, leader int
	net        transport.Net
	round      int
	step       Step
	x          int
}

func (p *Proc) recv() int {
	got := 0
	for {
		raw, _, ok := p.net.Recv(time.Now())
		if !ok {
			return got
		}
		if m, isMsg := raw.(Msg); isMsg && m.Round == p.round && m.Step == p.step {
			got++
		}
	}
}

// ElseBranch enters B in the else branch of an if.
func (p *Proc) ElseBranch() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		if p.recv() > 1 {
			p.x++
		} else {
			p.step = B
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		}
		p.step = B
		p.x += p.recv()
	}
}

// NotAdjacent does something between the if that enters B and the switch
// to B of the other paths.
func (p *Proc) NotAdjacent() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		if p.leader == p.id {
			p.x += p.recv()
			p.step = B
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		}
		p.x++
		p.step = B
		p.x += p.recv()
	}
}

// StateInTail changes the state after entering B inside the if.
func (p *Proc) StateInTail() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		if p.leader == p.id {
			p.x += p.recv()
			p.step = B
			p.x++
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		}
		p.step = B
		p.x += p.recv()
	}
}

// TwoSends sends in B both inside the if and after it.
func (p *Proc) TwoSends() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		if p.leader == p.id {
			p.x += p.recv()
			p.step = B
			p.net.Send(0, Msg{Round: p.round, Step: p.step})
		}
		p.step = B
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		p.x += p.recv()
	}
}
