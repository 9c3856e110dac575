// Package rangemap is a make-HO abort case: a tagged range over a map,
// whose order of iteration is not fixed.
package rangemap

import (
	"time"

	"transport"
)

type Step int

const A Step = 0

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

func (p *Proc) Run(jobs map[string]int) {
	//sync:tag p.round,p.step
	for _, j := range jobs {
		p.round++
		p.step = A
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
		p.x = len(got) + j
	}
}
