// Package helpersend hands messages built in the loop to a helper that
// sends them: the helper's parameter is a copy, and what the loop knew of
// its fields holds in the helper.
package helpersend

type Step int

const (
	Echo Step = iota
	Ready
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
}

type Proc struct {
	round int
	step  Step
	peers []chan<- Msg
}

func (p *Proc) broadcast(m Msg) {
	for _, ch := range p.peers {
		ch <- m // want `condition 2: Msg sent with Step from before p.step was set at line 48`
	}
}

func (p *Proc) correct() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		p.broadcast(Msg{Round: p.round, Step: Echo})
		p.step = Ready
		p.broadcast(Msg{Round: p.round, Step: Ready})
	}
}

func (p *Proc) wrongStep() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		p.broadcast(Msg{Round: p.round, Step: Echo})
		p.step = Ready
		p.broadcast(Msg{Round: p.round, Step: Echo})
	}
}

// AnyProc sends through a helper whose parameter is an interface.
type AnyProc struct {
	round int
	step  Step
	out   []chan<- any
}

func (p *AnyProc) sendTo(q int, m any) { p.out[q] <- m } // want `condition 2: Msg sent with Round from before p.round was set at line 82`

func (p *AnyProc) correct() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		p.sendTo(0, Msg{Round: p.round, Step: p.step})
	}
}

// The message is built before the jump and sent after it.
func (p *AnyProc) builtBeforeJump(in chan Msg) {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		m := <-in
		if m.Round < p.round || m.Step != Echo {
			continue
		}
		ack := Msg{Round: p.round, Step: Ready}
		p.round = m.Round
		p.step = Ready
		p.sendTo(0, ack)
	}
}

func (p *AnyProc) newMsg(s Step) *Msg { return &Msg{Round: p.round, Step: s} }

// A message built by a constructor and sent through the helper.
func (p *AnyProc) constructed() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		p.sendTo(0, p.newMsg(Echo))
	}
}

// GenProc sends through a generic helper: the message is the type
// parameter's value, a copy of what the loop built.
type GenProc struct {
	round int
	step  Step
	out   chan Msg
}

func send[T any](ch chan T, m T) { ch <- m } // want `condition 2: Msg sent with Step from before p.step was set at line 125`

func (p *GenProc) correct() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		send(p.out, Msg{Round: p.round, Step: Echo})
	}
}

func (p *GenProc) wrongStep() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		send(p.out, Msg{Round: p.round, Step: Echo})
		p.step = Ready
		send(p.out, Msg{Round: p.round, Step: Echo})
	}
}

// Envelope wraps a message with its sender.
type Envelope struct {
	From int
	Msg  any
}

// EnvProc sends through a helper that wraps its parameter in an
// envelope: the message is what the caller passed.
type EnvProc struct {
	id    int
	round int
	step  Step
	out   chan Envelope
}

func (p *EnvProc) bcast(m any) { p.out <- Envelope{From: p.id, Msg: m} } // want `condition 2: Msg sent with Step from before p.step was set at line 162`

func (p *EnvProc) correct() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		p.bcast(Msg{Round: p.round, Step: Echo})
	}
}

func (p *EnvProc) wrongStep() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		p.bcast(Msg{Round: p.round, Step: Echo})
		p.step = Ready
		p.bcast(Msg{Round: p.round, Step: Echo})
	}
}
