// Package callsite checks that a finding inside a helper names the calls
// that led there from the loop.
package callsite

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
	out   chan Msg
}

func (p *Proc) send(m Msg) { p.out <- m } // want `condition 2: Msg sent with Step from before p.step was set at line 34 \[send is called here at line 26; announce is called here at line 35\]`

func (p *Proc) announce(s Step) { p.send(Msg{Round: p.round, Step: s}) }

func (p *Proc) Run() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Echo
		p.announce(Echo)
		p.step = Ready
		p.announce(Echo)
	}
}
