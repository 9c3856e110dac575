// Package predhelper filters stale messages with a predicate helper whose
// result is a || of an && (earlier(phase, step)): what each way of returning
// false says of the message holds after the call.
package predhelper

type Step int

const (
	Collect Step = iota
	Vote
)

//sync:msg Phase,Collect
type Estimate struct {
	Phase uint32
	From  int
}

//sync:msg Phase,Vote
type VoteMsg struct {
	Phase uint32
}

type Net interface {
	//sync:send
	Send(m any)
}

//sync:tag phase,step
type Process struct {
	phase uint32
	step  Step
	net   Net
	est   map[int]bool
}

func (p *Process) earlier(phase uint32, step Step) bool {
	return phase < p.phase || phase == p.phase && step < p.step
}

//sync:handler
func (p *Process) OnEstimate(m Estimate) {
	if p.earlier(m.Phase, Collect) {
		return
	}
	if m.Phase > p.phase {
		p.phase, p.step = m.Phase, Collect
		p.est = map[int]bool{}
	}
	p.est[m.From] = true
	if len(p.est) > 2 {
		p.step = Vote
		p.net.Send(VoteMsg{Phase: p.phase})
	}
}

// laterOrSame is the mistake of a helper that lets the current phase's
// earlier steps through.
func (p *Process) laterOrSame(phase uint32) bool {
	return phase > p.phase || phase == p.phase
}

// OnVoteEstimate takes an estimate of the current phase while in the
// vote step: a message of an earlier round changes the state.
//
//sync:handler
func (p *Process) OnVoteEstimate(m Estimate) {
	if !p.laterOrSame(m.Phase) {
		return
	}
	if m.Phase > p.phase {
		p.phase, p.step = m.Phase, Collect
		p.est = map[int]bool{}
	}
	p.est[m.From] = true // want `cannot prove 3: the state changes while the received Estimate may be of an earlier round than \(phase,step\) was when the handler was called: such a message must leave the state unchanged`
}
