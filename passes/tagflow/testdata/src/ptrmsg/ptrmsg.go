// Package ptrmsg keeps a pointer to the message received (prop = &m, or
// nl = m when messages travel as pointers): the message it points to is the
// mailbox.
package ptrmsg

type Step int

const (
	Propose Step = iota
	Vote
)

//sync:msg View,Propose
type Proposal struct {
	View  int
	Block string
}

//sync:msg View,Vote
type VoteMsg struct {
	View  int
	Block string
}

type Replica struct {
	view int
	step Step
	in   chan any
	out  chan any
	pin  chan *Proposal
	pout chan *VoteMsg
}

// The proposal of this view or a later one; a later one is jumped to.
func (r *Replica) Ok() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop *Proposal
		for prop == nil {
			m, ok := (<-r.in).(Proposal)
			if !ok || m.View < r.view {
				continue
			}
			prop = &m
		}
		if prop.View > r.view {
			r.view = prop.View
		}
		r.step = Vote
		r.out <- VoteMsg{View: r.view, Block: prop.Block}
	}
}

// Any proposal is kept.
func (r *Replica) Stale() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop *Proposal
		for prop == nil {
			m, ok := (<-r.in).(Proposal)
			if !ok {
				continue
			}
			prop = &m // want `condition 3: Proposal stored without checking that its tag is >= \(r.view,r.step\)`
		}
		r.step = Vote
		r.out <- VoteMsg{View: r.view, Block: prop.Block}
	}
}

// A later proposal is kept and not jumped to.
func (r *Replica) NoJump() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop *Proposal
		for prop == nil {
			m, ok := (<-r.in).(Proposal)
			if !ok || m.View < r.view {
				continue
			}
			prop = &m
		}
		r.step = Vote
		r.out <- VoteMsg{View: r.view, Block: prop.Block} // want `condition 4: this send is reached while the mailbox may hold a Proposal of a later round \(stored at line 87\)`
	}
}

// Messages travel as pointers: the one kept is the mailbox, and the
// filter's facts hold for it (the path on which it is still nil does not
// reach the jump: it goes round the reception loop again).
func (r *Replica) PtrJump() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop *Proposal
		for prop == nil {
			m := <-r.pin
			if m.View < r.view {
				continue
			}
			prop = m
		}
		r.view = prop.View
		r.step = Vote
		r.pout <- &VoteMsg{View: r.view, Block: prop.Block}
	}
}

// The same, with a timeout: a nil proposal ends the iteration.
func (r *Replica) PtrJumpTimeout(timeout chan struct{}) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop *Proposal
	wait:
		for prop == nil {
			select {
			case m := <-r.pin:
				if m.View < r.view {
					continue
				}
				prop = m
			case <-timeout:
				break wait
			}
		}
		if prop == nil {
			continue
		}
		r.view = prop.View
		r.step = Vote
		r.pout <- &VoteMsg{View: r.view, Block: prop.Block}
	}
}

// A pointer message kept without checking its view.
func (r *Replica) PtrStale() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop *Proposal
		for prop == nil {
			prop = <-r.pin // want `condition 3: Proposal stored without checking`
		}
		r.step = Vote
		r.pout <- &VoteMsg{View: r.view, Block: prop.Block}
	}
}

// Jumping down to a pointer message's view that was only checked to be
// different.
func (r *Replica) PtrLower() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop *Proposal
		for prop == nil {
			m := <-r.pin
			if m.View == r.view {
				continue
			}
			prop = m // want `condition 3: Proposal stored without checking`
		}
		r.view = prop.View // want `cannot prove 1: cannot tell that r.view is not lower than at receive \(line 168\)`
		r.step = Vote
		r.pout <- &VoteMsg{View: r.view, Block: prop.Block}
	}
}
