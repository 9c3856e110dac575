// Package leaderonly is a round in which the leader of the round sends and
// the others receive, on the two paths of an if/else: make-HO splits the
// if/else into the round's send and update, each under a field that keeps
// the condition.
package leaderonly

import (
	"time"

	"transport"
)

type Step int

const (
	Propose Step = iota
	Echo
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	X     int
}

type Proc struct {
	net   transport.Net
	id, n int
	round int
	step  Step
	x     int
	heard int
}

func (p *Proc) Run(rounds int) {
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = Propose

		// Round Propose: the leader sends its value, the others adopt it.
		if p.id == p.round%p.n {
			p.net.Broadcast(Msg{Round: p.round, Step: p.step, X: p.x})
		} else {
			var got []Msg
			for len(got) == 0 {
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
			if len(got) > 0 {
				p.x = got[0].X
			}
		}

		// Round Echo: everybody says what it has.
		p.step = Echo
		p.net.Broadcast(Msg{Round: p.round, Step: p.step, X: p.x})
		var echoes []Msg
		for len(echoes) < p.n {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Round != p.round || m.Step != p.step {
				continue
			}
			echoes = append(echoes, m)
		}
		p.heard = len(echoes)
	}
}
