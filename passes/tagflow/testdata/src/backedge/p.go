// Package backedge: the loop's back edge is not a communication point, so
// a phase increased at the end of the body and a round reset at the start
// of the next iteration pass through (r+1, Prevote) between two sends, as
// p.round++; p.step = Propose at the start passes through (r+1, Prevote).
// The loop is entered with the round the code just before it sets.
package backedge

type Step int

const (
	Propose Step = iota
	Prevote
)

//sync:msg Round,Step
type Vote struct {
	Round int
	Step  Step
}

type Proc struct {
	round int
	step  Step
	out   chan Vote
}

// roundAtEnd is correct once the loop is entered in round Propose.
func (p *Proc) roundAtEnd() {
	p.step = Propose
	//sync:tag p.round,p.step
	for {
		p.out <- Vote{Round: p.round, Step: p.step}
		p.step = Prevote
		p.out <- Vote{Round: p.round, Step: p.step}
		p.round++
		p.step = Propose
	}
}

// resetAtStart enters the loop with a step ccvet does not know: the first
// Propose may be lower than it.
func (p *Proc) resetAtStart() {
	//sync:tag p.round,p.step
	for {
		p.step = Propose // want `cannot prove 1: cannot tell that p.step is not lower than at the start of the loop`
		p.out <- Vote{Round: p.round, Step: p.step}
		p.step = Prevote
		p.out <- Vote{Round: p.round, Step: p.step}
		p.round++
	}
}

// resetAfterInit is resetAtStart entered in round Propose.
func (p *Proc) resetAfterInit() {
	p.step = Propose
	//sync:tag p.round,p.step
	for {
		p.step = Propose
		p.out <- Vote{Round: p.round, Step: p.step}
		p.step = Prevote
		p.out <- Vote{Round: p.round, Step: p.step}
		p.round++
	}
}

// noIncrease resets the round without a new phase: the Propose of the next
// iteration is lower than the Prevote sent before.
func (p *Proc) noIncrease() {
	p.step = Propose
	//sync:tag p.round,p.step
	for {
		p.step = Propose // want `condition 1: p.step is set lower than it was at send \(line 75\), while p.round did not increase`
		p.out <- Vote{Round: p.round, Step: p.step}
		p.step = Prevote
		p.out <- Vote{Round: p.round, Step: p.step}
	}
}

// callBetween: a call between the assignment and the loop may change the
// step, so the loop is entered with an unknown one.
func (p *Proc) callBetween() {
	p.step = Propose
	p.other()
	//sync:tag p.round,p.step
	for {
		p.out <- Vote{Round: p.round, Step: p.step}
		p.step = Prevote // want `cannot prove 1: cannot tell that p.step is not lower than at send`
		p.out <- Vote{Round: p.round, Step: p.step}
		p.round++
		p.step = Propose
	}
}

func (p *Proc) other() { p.step = Prevote }

// restore sets the step from a number: the step holds more than the
// constants (see constrange), so the loop entered after other() starts
// from a step that may be above Prevote.
func (p *Proc) restore(s int) { p.step = Step(s) }
