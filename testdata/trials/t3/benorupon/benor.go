package benorupon

import "math/rand/v2"

// Step is the step of a phase, in execution order.
type Step uint8

// The two steps of a phase.
const (
	StepReport  Step = iota // every process reports its estimate
	StepPropose             // every process proposes a value backed by a majority, or Bot
)

// Value is a binary value, or Bot in a proposal that no majority backs.
type Value int8

// The values.
const (
	Bot  Value = -1
	Zero Value = 0
	One  Value = 1
)

// Message is a Report or a Proposal.
type Message interface {
	sender() int
}

// Report carries the estimate of its sender in a phase.
//
//sync:msg Phase,StepReport
type Report struct {
	Phase uint32
	From  int
	Value Value
}

// Proposal carries the value its sender saw a majority report in a phase,
// or Bot.
//
//sync:msg Phase,StepPropose
type Proposal struct {
	Phase uint32
	From  int
	Value Value
}

func (m Report) sender() int   { return m.From }
func (m Proposal) sender() int { return m.From }

// tally is a mailbox: the value received from each sender.
type tally[V comparable] map[int]V

// count returns the number of senders that sent v.
func (t tally[V]) count(v V) int {
	c := 0
	for _, w := range t {
		if w == v {
			c++
		}
	}
	return c
}

// Process is one Ben-Or process.
//
//sync:tag phase,step
type Process struct {
	id, n, f int
	out      chan<- Message // every message sent goes to every process
	rng      *rand.Rand     // the local coin

	phase uint32
	step  Step
	x     Value // the estimate

	reports   tally[Value] // the mailbox of (phase, StepReport)
	proposals tally[Value] // the mailbox of (phase, StepPropose)

	decided  bool
	decision Value
}

// NewProcess returns process id of n, tolerating f crashes, with input x.
func NewProcess(id, n, f int, x Value, out chan<- Message, rng *rand.Rand) *Process {
	return &Process{id: id, n: n, f: f, x: x, out: out, rng: rng}
}

// Start enters phase 1.
//
//sync:handler
func (p *Process) Start() {
	if p.phase > 0 {
		return // running already
	}
	p.enter(1, p.x)
}

// enter starts phase with estimate x and reports it.
func (p *Process) enter(phase uint32, x Value) {
	p.phase, p.step = phase, StepReport
	p.x = x
	p.reports = tally[Value]{}
	p.proposals = tally[Value]{}
	p.out <- Report{Phase: p.phase, From: p.id, Value: p.x}
}

// OnReport handles a Report: upon n-f reports of the phase, propose.
//
//sync:handler
func (p *Process) OnReport(m Report) {
	if m.Phase < p.phase || m.Phase == p.phase && p.step != StepReport {
		return // a report of a step we are done with
	}
	if m.Phase > p.phase {
		p.enter(m.Phase, m.Value) // the sender is ahead: catch up, adopting its estimate
	}
	p.reports[m.From] = m.Value
	if len(p.reports) < p.n-p.f {
		return
	}
	v := Bot
	for _, w := range []Value{Zero, One} {
		if p.reports.count(w) > p.n/2 {
			v = w
		}
	}
	p.step = StepPropose
	p.reports = tally[Value]{}
	p.out <- Proposal{Phase: p.phase, From: p.id, Value: v}
}

// OnProposal handles a Proposal: upon n-f proposals of the phase, decide
// or pick the next estimate, and go to the next phase.
//
//sync:handler
func (p *Process) OnProposal(m Proposal) {
	if m.Phase < p.phase {
		return
	}
	if m.Phase > p.phase || p.step == StepReport {
		// The sender is ahead: join its step and propose what it proposed,
		// which a majority of reports backs (or Bot).
		p.phase, p.step = m.Phase, StepPropose
		p.reports = tally[Value]{}
		p.proposals = tally[Value]{}
		p.out <- Proposal{Phase: p.phase, From: p.id, Value: m.Value}
	}
	p.proposals[m.From] = m.Value
	if len(p.proposals) < p.n-p.f {
		return
	}
	x := Bot
	for _, w := range []Value{Zero, One} {
		c := p.proposals.count(w)
		if c >= p.f+1 && !p.decided {
			p.decided, p.decision = true, w
		}
		if c > 0 {
			x = w
		}
	}
	if x == Bot {
		x = Value(p.rng.IntN(2))
	}
	p.enter(p.phase+1, x)
}

// Decision returns the decided value, if any.
func (p *Process) Decision() (Value, bool) { return p.decision, p.decided }

// Phase returns the current phase.
func (p *Process) Phase() uint32 { return p.phase }
