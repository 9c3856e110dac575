// Package recvmethod receives through a //sync:recv method of the process,
// which reads the channel field in: make-HO infers that in is the inbox
// from the method's body, and that peers, which the loop sends on, is the
// peers table, with no //sync:peers or //sync:inbox.
package recvmethod

import "time"

type Step int

const (
	Propose Step = iota
	Ack
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	X     int
}

// Envelope is what the channels carry.
type Envelope struct {
	From int
	Msg  Msg
}

type Proc struct {
	id, n   int
	in      <-chan Envelope
	peers   []chan<- Envelope
	timeout time.Duration

	round int
	step  Step

	x     int
	acked int
}

// recv returns the next message and its sender, or false at the deadline.
//
//sync:recv
func (p *Proc) recv(deadline time.Time) (Msg, int, bool) {
	select {
	case e := <-p.in:
		return e.Msg, e.From, true
	case <-time.After(time.Until(deadline)):
		return Msg{}, 0, false
	}
}

// Run runs rounds phases: the leader of the phase proposes its value, the
// others adopt it and acknowledge it to the leader, which counts them.
func (p *Proc) Run(rounds int) {
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = Propose
		leader := p.round % p.n
		if p.id == leader {
			for _, ch := range p.peers {
				ch <- Envelope{From: p.id, Msg: Msg{Round: p.round, Step: p.step, X: p.x}}
			}
		}
		deadline := time.Now().Add(p.timeout)
		var proposals []Msg
		for len(proposals) == 0 {
			m, from, ok := p.recv(deadline)
			if !ok {
				break
			}
			if m.Round != p.round || m.Step != p.step || from != leader {
				continue
			}
			proposals = append(proposals, m)
		}
		if len(proposals) > 0 {
			p.x = proposals[0].X
		}

		p.step = Ack
		p.peers[leader] <- Envelope{From: p.id, Msg: Msg{Round: p.round, Step: p.step, X: p.x}}
		deadline = time.Now().Add(p.timeout)
		acks := 0
		for acks < p.n {
			m, _, ok := p.recv(deadline)
			if !ok {
				break
			}
			if m.Round != p.round || m.Step != p.step || m.X != p.x {
				continue
			}
			acks++
		}
		if p.id == leader {
			p.acked = acks
		}
	}
}
