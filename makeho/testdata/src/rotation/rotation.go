// Package rotation is a make-HO abort case: loops that enter their first
// round at the end of the body, without setting it before the loop, or
// with a continue that skips the switch.
package rotation

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
	net   transport.Net
	round int
	step  Step
	x     int
}

// NotSetBefore enters A only at the end of the body.
func (p *Proc) NotSetBefore() {
	p.round = 1
	//sync:tag p.round,p.step
	for p.round < 10 {
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		var got []Msg
		for len(got) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Round != p.round || m.Step != p.step {
				continue
			}
			got = append(got, m)
		}
		p.step = B
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		p.round++
		p.step = A
	}
}

// Continue skips the switch to A at the end of the body.
func (p *Proc) Continue() {
	p.round, p.step = 1, A
	//sync:tag p.round,p.step
	for p.round < 10 {
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		var got []Msg
		for len(got) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Round != p.round || m.Step != p.step {
				continue
			}
			got = append(got, m)
		}
		if len(got) == 0 {
			p.round++
			continue
		}
		p.step = B
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		p.round++
		p.step = A
	}
}

//sync:msg Round
type OneMsg struct {
	Round int
}

// OneVar increases its only tag variable at the end of the body, and
// skips it with a continue.
func (p *Proc) OneVar() {
	//sync:tag p.round
	for p.round < 10 {
		p.net.Broadcast(OneMsg{Round: p.round})
		var got []OneMsg
		for len(got) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(OneMsg)
			if !isMsg || m.Round != p.round {
				continue
			}
			got = append(got, m)
		}
		if len(got) == 0 {
			continue
		}
		p.x = len(got)
		p.round++
	}
}

// PrologueContinue skips an iteration before its first send.
func (p *Proc) PrologueContinue() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		if p.round%2 == 0 {
			continue
		}
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		var got []Msg
		for len(got) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Round != p.round || m.Step != p.step {
				continue
			}
			got = append(got, m)
		}
		p.step = B
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		p.x = len(got)
	}
}
