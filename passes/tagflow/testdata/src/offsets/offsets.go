// Package offsets: tags moved by constants and moved back, and messages
// built with the next ballot before the ballot is increased (offset.go).
package offsets

// Step is a step of a ballot or slot.
type Step int

const (
	Prepare Step = iota
	Accept
)

// PrepareMsg opens a ballot.
//
//sync:msg Ballot,Prepare
type PrepareMsg struct{ Ballot int }

// SlotMsg is a message of a slot's step.
//
//sync:msg Slot,Step
type SlotMsg struct {
	Slot int
	Step Step
}

// P is a proposer.
type P struct {
	ballot int
	step   Step
	slot   int
	out    chan PrepareMsg
	sout   chan SlotMsg
	in     chan SlotMsg
}

const stride = 16

// Prebuilt builds the Prepare of the next ballot, then moves to it.
func (p *P) Prebuilt() {
	//sync:tag p.ballot,p.step
	for {
		prep := PrepareMsg{Ballot: p.ballot + stride}
		p.ballot += stride
		p.step = Prepare
		p.out <- prep
	}
}

// PrebuiltWrong is off by one.
func (p *P) PrebuiltWrong() {
	//sync:tag p.ballot,p.step
	for {
		prep := PrepareMsg{Ballot: p.ballot + stride - 1}
		p.ballot += stride
		p.step = Prepare
		p.out <- prep // want `condition 2: PrepareMsg sent with Ballot from before p.ballot was set at line 54`
	}
}

// Retry steps back one slot so that the top of the loop proposes the same
// slot again, from its first step.
func (p *P) Retry() {
	//sync:tag p.slot,p.step
	for {
		p.slot++
		p.step = Prepare
		p.sout <- SlotMsg{Slot: p.slot, Step: p.step}
		p.step = Accept
		p.sout <- SlotMsg{Slot: p.slot, Step: p.step}
		m := <-p.in
		if m.Slot != p.slot || m.Step != p.step {
			p.slot-- // want `condition 1: p.slot is set lower than it was at receive \(line 70\)`
			continue
		}
	}
}

// Restart moves to the next slot's first step, then back to the slot it
// was in: the step is lower than it was there.
func (p *P) Restart() {
	//sync:tag p.slot,p.step
	for {
		p.slot++
		p.step = Prepare
		p.sout <- SlotMsg{Slot: p.slot, Step: p.step}
		p.step = Accept
		p.sout <- SlotMsg{Slot: p.slot, Step: p.step}
		p.slot++
		p.step = Prepare
		p.slot--                                      // want `condition 1: p.slot is set back to what it was at send \(line 87\), while p.step is lower than it was there`
		p.sout <- SlotMsg{Slot: p.slot, Step: p.step} // (reached lower: reported above)
		p.slot++
	}
}
