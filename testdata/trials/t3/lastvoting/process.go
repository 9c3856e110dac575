package lastvoting

// Process is one process of LastVoting, the Heard-Of rendering of
// Chandra-Toueg's rotating-coordinator consensus. Phase p is coordinated
// by process p mod n. The driver delivers messages to the On* handlers,
// and calls OnTimeout(phase, step) when the timer it armed for a round
// expires without the round completing.
//
//sync:tag phase,step
type Process struct {
	id, n int
	net   Transport

	phase uint32
	step  Step

	x       string // the estimate
	ts      uint32 // the phase x was adopted in
	decided bool
	value   string // the decision

	vote string // coordinator: the value it chose in this phase, if any

	// The mailbox of (phase, step), emptied by enter.
	estimates Tally[Estimate] // coordinator, StepCollect
	acks      Tally[Ack]      // coordinator, StepAck
}

// NewProcess returns process id of n proposing v, before phase 1.
func NewProcess(id, n int, v string, net Transport) *Process {
	return &Process{id: id, n: n, net: net, x: v}
}

func (p *Process) coord() int { return int(p.phase % uint32(p.n)) }

func (p *Process) majority(k int) bool { return 2*k > p.n }

// enter moves the process forward to (phase, step), empties the mailbox
// and sends what the round starts with.
func (p *Process) enter(phase uint32, step Step) {
	if phase != p.phase {
		p.vote = ""
	}
	p.phase, p.step = phase, step
	p.estimates = newTally[Estimate]()
	p.acks = newTally[Ack]()
	switch step {
	case StepCollect:
		p.net.Send(p.coord(), Estimate{Phase: phase, From: p.id, Value: p.x, TS: p.ts})
	case StepAck:
		if p.ts == phase {
			p.net.Send(p.coord(), Ack{Phase: phase, From: p.id})
		}
	}
}

// Start enters phase 1.
//
//sync:handler
func (p *Process) Start() { p.enter(1, StepCollect) }

// later reports whether (phase, step) is a later round than the current.
func (p *Process) later(phase uint32, step Step) bool {
	return phase > p.phase || phase == p.phase && step > p.step
}

// earlier reports whether (phase, step) is an earlier round than the current.
func (p *Process) earlier(phase uint32, step Step) bool {
	return phase < p.phase || phase == p.phase && step < p.step
}

// OnEstimate: the coordinator chooses the estimate of the latest phase
// from a majority.
//
//sync:handler
func (p *Process) OnEstimate(m Estimate) {
	if p.earlier(m.Phase, StepCollect) || int(m.Phase%uint32(p.n)) != p.id {
		return
	}
	if p.later(m.Phase, StepCollect) {
		p.enter(m.Phase, StepCollect)
	}
	if !p.majority(p.estimates.Add(m.From, m)) {
		return
	}
	var best Estimate
	for i, e := range p.estimates.All() {
		if i == 0 || e.TS > best.TS || e.TS == best.TS && e.Value < best.Value {
			best = e
		}
	}
	p.enter(p.phase, StepVote)
	p.vote = best.Value
	p.net.Broadcast(Vote{Phase: p.phase, From: p.id, Value: p.vote})
}

// OnVote: a process adopts the coordinator's vote and acknowledges it.
//
//sync:handler
func (p *Process) OnVote(m Vote) {
	if p.earlier(m.Phase, StepVote) || m.From != int(m.Phase%uint32(p.n)) {
		return
	}
	if p.later(m.Phase, StepVote) {
		p.enter(m.Phase, StepVote)
	}
	p.x, p.ts = m.Value, p.phase
	p.enter(p.phase, StepAck)
}

// OnAck: the coordinator announces the decision once a majority adopted
// its vote.
//
//sync:handler
func (p *Process) OnAck(m Ack) {
	if p.earlier(m.Phase, StepAck) || int(m.Phase%uint32(p.n)) != p.id {
		return
	}
	if p.later(m.Phase, StepAck) {
		p.enter(m.Phase, StepAck)
	}
	if p.vote == "" || !p.majority(p.acks.Add(m.From, m)) {
		return // no vote of its own in this phase: the acks cannot be for it
	}
	p.enter(p.phase, StepDecide)
	p.net.Broadcast(Decide{Phase: p.phase, From: p.id, Value: p.vote})
}

// OnDecide: a process decides the announced value and goes on with the
// next phase, so that the others can still decide.
//
//sync:handler
func (p *Process) OnDecide(m Decide) {
	if p.earlier(m.Phase, StepDecide) || m.From != int(m.Phase%uint32(p.n)) {
		return
	}
	if p.later(m.Phase, StepDecide) {
		p.enter(m.Phase, StepDecide)
	}
	if !p.decided {
		p.decided, p.value = true, m.Value
	}
	p.enter(p.phase+1, StepCollect)
}

// OnTimeout ends the round (phase, step) without what it waited for.
//
//sync:handler
func (p *Process) OnTimeout(phase uint32, step Step) {
	if phase != p.phase || step != p.step {
		return // the round is over already
	}
	if step == StepDecide {
		p.enter(phase+1, StepCollect)
		return
	}
	p.enter(phase, step+1)
}

// Phase returns the current phase and step.
func (p *Process) Phase() (uint32, Step) { return p.phase, p.step }

// Decision returns the decided value, if any.
func (p *Process) Decision() (string, bool) { return p.value, p.decided }
