// Package nophase is a make-HO abort case.
package nophase

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

func (p *Proc) Run() {
	//sync:tag p.round,p.step
	for {
		switch { // the phase increases on every path, but in a switch
		case p.x > 0:
			p.round += 2
		default:
			p.round++
		}
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		var got1 []Msg
		for len(got1) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Round != p.round || m.Step != p.step {
				continue
			}
			got1 = append(got1, m)
		}
		p.step = B
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		var got2 []Msg
		for len(got2) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Round != p.round || m.Step != p.step {
				continue
			}
			got2 = append(got2, m)
		}
	}
}
