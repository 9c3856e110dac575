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
