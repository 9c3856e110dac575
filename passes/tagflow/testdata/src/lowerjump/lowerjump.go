// Package lowerjump checks that setting a lower tag component from a
// message of a possibly later round is a jump only once the higher ones
// hold the message's own.
package lowerjump

type Step int

const (
	StepForward Step = iota
	StepAck
)

//sync:msg View,Slot,StepForward
type Forward struct{ View, Slot int }

//sync:msg View,Slot,StepAck
type Ack struct{ View, Slot int }

type Backup struct {
	view, slot int
	step       Step
	in         chan Forward
	out        chan Ack
}

// Only the slot moves: a Forward of a later view is answered in the old
// one.
func (b *Backup) SlotOnly() {
	b.step = StepForward
	//sync:tag b.view,b.slot,b.step
	for {
		b.slot++
		b.step = StepForward
		var fwd *Forward
		for fwd == nil {
			f := <-b.in
			if f.View < b.view || (f.View == b.view && f.Slot < b.slot) {
				continue
			}
			fwd = &f
		}
		b.slot = max(b.slot, fwd.Slot)
		b.step = StepAck
		b.out <- Ack{View: b.view, Slot: b.slot} // want `condition 4: this send is reached while the mailbox may hold a Forward of a later round \(stored at line 40\)`
	}
}

// The view first, then the slot: the jump.
func (b *Backup) ViewThenSlot() {
	b.step = StepForward
	//sync:tag b.view,b.slot,b.step
	for {
		b.slot++
		b.step = StepForward
		var fwd *Forward
		for fwd == nil {
			f := <-b.in
			if f.View < b.view || (f.View == b.view && f.Slot < b.slot) {
				continue
			}
			fwd = &f
		}
		b.view = fwd.View
		b.slot = fwd.Slot
		b.step = StepAck
		b.out <- Ack{View: b.view, Slot: b.slot}
	}
}

// The filter keeps the view: moving the slot is the whole jump.
func (b *Backup) SameView() {
	b.step = StepForward
	//sync:tag b.view,b.slot,b.step
	for {
		b.slot++
		b.step = StepForward
		var fwd *Forward
		for fwd == nil {
			f := <-b.in
			if f.View != b.view || f.Slot < b.slot {
				continue
			}
			fwd = &f
		}
		b.slot = max(b.slot, fwd.Slot)
		b.step = StepAck
		b.out <- Ack{View: b.view, Slot: b.slot}
	}
}
