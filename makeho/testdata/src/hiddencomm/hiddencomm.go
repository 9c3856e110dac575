// Package hiddencomm is a make-HO abort case: a round's send goes through
// a helper of the package that is not a //sync:send function and changes
// the state; another loop receives through a function of the package.
package hiddencomm

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
	n     int
	round int
	step  Step
	x     int
	sent  int
}

// toAll sends m to every process but 0, one Send each, and counts them.
func (p *Proc) toAll(m Msg) {
	for q := 1; q < p.n; q++ {
		p.net.Send(q, m)
		p.sent++
	}
}

func (p *Proc) Run() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.toAll(Msg{Round: p.round, Step: p.step})
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
		p.x = len(got)
	}
}

// recvAll receives the messages of the round until a timeout: a function,
// not a method of the process, which make-HO does not follow.
func recvAll(p *Proc) []Msg {
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
	return got
}

func (p *Proc) RunRecv() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.net.Broadcast(Msg{Round: p.round, Step: p.step})
		got := recvAll(p)
		p.x = len(got)
	}
}

// InboxProc receives from a channel, through a helper whose reception
// loop's condition calls a method, and whose timeout returns.
type InboxProc struct {
	in    <-chan Msg
	round int
	step  Step
	x     int
}

func (p *InboxProc) enough(got []Msg) bool { return len(got) >= 2 }

func (p *InboxProc) gather() []Msg {
	var got []Msg
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	for !p.enough(got) {
		select {
		case m := <-p.in:
			if m.Round != p.round || m.Step != p.step {
				continue
			}
			got = append(got, m)
		case <-timer.C:
			return got
		}
	}
	return got
}

func (p *InboxProc) Run(peers []chan<- Msg) {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		for _, ch := range peers {
			ch <- Msg{Round: p.round, Step: p.step}
		}
		got := p.gather()
		p.x = len(got)
	}
}

// RunThenAnnounce sends after its tagged loop.
func (p *Proc) RunThenAnnounce(rounds int) {
	//sync:tag p.round,p.step
	for p.round < rounds {
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
		p.x = len(got)
	}
	p.net.Broadcast(Msg{Round: p.round + 1, Step: A})
}
