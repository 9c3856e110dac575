// Package forks holds the make-HO refusals of if/else statements whose two
// paths enter the same round (the coordinator and the participants of
// 2PC).
package forks

import (
	"time"

	"transport"
)

type Step int

const (
	A Step = iota
	B
	C
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
}

type Proc struct {
	net   transport.Net
	id    int
	round int
	step  Step
	x     int
}

// SendBefore sends in round A before the if/else that enters B.
func (p *Proc) SendBefore() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		if p.id == 0 {
			p.step = B
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		} else {
			p.step = B
		}
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
		p.step = C
	}
}

// Twice has two if/else statements in a row that enter B and C.
func (p *Proc) Twice() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		if p.id == 0 {
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
			p.step = B
		} else {
			p.step = B
		}
		if p.id == 0 {
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
			p.step = C
		} else {
			p.step = C
		}
	}
}

// SendAfter sends after the reception of round B on the first path.
func (p *Proc) SendAfter() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		if p.id == 0 {
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
			p.step = B
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
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		} else {
			p.step = B
		}
		p.step = C
	}
}
