// Package hints holds make-HO refusals that say what to change.
package hints

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

// Jump sets the round variable from a message.
func (p *Proc) Jump() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		var got []Msg
		for len(got) == 0 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Round < p.round || m.Round == p.round && m.Step < p.step {
				continue
			}
			got = append(got, m)
		}
		if len(got) > 0 {
			p.round, p.step = got[0].Round, got[0].Step // jump to the message's round
		}
		p.step = B
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		for range 3 {
			if _, _, ok := p.net.Recv(time.Now()); !ok {
				break
			}
		}
	}
}

// Between changes the state between two sends of a round.
func (p *Proc) Between() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		if p.x > 0 {
			p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		} else {
			p.x++
			p.net.Send(0, Msg{Round: p.round, Step: p.step})
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
		p.step = B
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
	}
}
