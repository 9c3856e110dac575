// Package unbounded has a round variable of type int: no bounded domain.
package unbounded

import (
	"time"

	"transport"
)

//sync:msg Round,Step
type Msg struct{ Round, Step int }

type Proc struct {
	net         transport.Net
	round, step int
}

func (p *Proc) Run() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = 0
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		for {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			if m, isMsg := raw.(Msg); !isMsg || m.Round != p.round || m.Step != p.step {
				continue
			}
		}
	}
}
