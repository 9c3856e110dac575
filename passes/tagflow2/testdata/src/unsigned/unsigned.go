// Package unsigned is about what a test of an unsigned round against a
// small constant says: phase > 0 false makes phase 0, so starting phase 1
// moves the tag forward; a signed phase may be below 0 as well, so the
// same test says nothing of the step after it.
package unsigned

type Step int

const (
	Report Step = iota
	Propose
)

//sync:msg Phase,Step
type Msg struct {
	Phase uint32
	Step  Step
}

type Net interface {
	//sync:send
	Send(m Msg)
}

//sync:tag phase,step
type Proc struct {
	phase uint32
	step  Step
	net   Net
}

// Start enters phase 1 once.
//
//sync:handler
func (p *Proc) Start() {
	if p.phase > 0 {
		return
	}
	p.phase, p.step = 1, Report
	p.net.Send(Msg{Phase: 1, Step: Report})
}

//sync:msg Phase,Step
type SMsg struct {
	Phase int32
	Step  Step
}

type SNet interface {
	//sync:send
	Send(m SMsg)
}

//sync:tag phase,step
type SProc struct {
	phase int32
	step  Step
	net   SNet
}

// Start is Proc's with a signed phase, which may be below 0 and at any
// step.
//
//sync:handler
func (p *SProc) Start() {
	if p.phase > 0 {
		return
	}
	p.phase, p.step = 0, Report
	p.net.Send(SMsg{Phase: 0, Step: Report}) // want `cannot prove 1: the tag \(phase,step\) may be lower here than at the last communication point`
}
