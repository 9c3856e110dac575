// Package nestedcall calls inner tagged loops that extend the outer tag
// in ways make-HO does not rewrite yet: the call is not the last
// statement of the outer iteration, and code follows the inner loop in
// its function.
package nestedcall

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

// InnerMsg is the message of the inner loops.
//
//sync:msg Round,Step,Slot,SStep
type InnerMsg struct {
	Round int
	Step  Step
	Slot  int
	SStep Step
}

type Proc struct {
	net   transport.Net
	round int
	step  Step
	slot  int
	sstep Step
	x     int
}

// Run calls the inner loop before the end of its iteration.
func (p *Proc) Run() {
	//sync:tag p.round,p.step
	for p.round < 10 {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		p.step = B
		p.inner()
		p.x++
	}
}

// inner has a statement after its loop.
func (p *Proc) inner() {
	p.slot = 0
	//sync:tag p.round,p.step,p.slot,p.sstep
	for p.slot < 10 {
		p.slot++
		p.sstep = A
		p.net.Broadcast(InnerMsg{Round: p.round, Step: p.step, Slot: p.slot, SStep: p.sstep})
		var got []InnerMsg
		deadline := time.Now().Add(time.Second)
		for len(got) < 3 {
			raw, _, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			m, isMsg := raw.(InnerMsg)
			if !isMsg || m.Round != p.round || m.Step != p.step || m.Slot != p.slot || m.SStep != p.sstep {
				continue
			}
			got = append(got, m)
		}
		p.sstep = B
		p.x += len(got)
	}
	p.x++
}

// Run2 calls the inner loop on another variable than its receiver.
func (p *Proc) Run2() {
	q := p
	//sync:tag p.round,p.step
	for p.round < 10 {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		p.step = B
		q.inner()
	}
}
