// Package nestedtags calls an inner tagged loop whose tag does not repeat
// the outer loop's.
package nestedtags

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

// InnerMsg is the message of the inner loop.
//
//sync:msg Slot,Step
type InnerMsg struct {
	Slot int
	Step Step
}

type Proc struct {
	net   transport.Net
	round int
	step  Step
	slot  int
	sstep Step
	x     int
}

func (p *Proc) Run() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		p.step = B
		p.inner()
	}
}

func (p *Proc) inner() {
	//sync:tag p.slot,p.sstep
	for p.slot < 10 {
		p.slot++
		p.sstep = A
		var got1 []InnerMsg
		for len(got1) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(InnerMsg)
			if !isMsg || m.Slot != p.slot || m.Step != p.sstep {
				continue
			}
			got1 = append(got1, m)
		}
		p.sstep = B
	}
}
