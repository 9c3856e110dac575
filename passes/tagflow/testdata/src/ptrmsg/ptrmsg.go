// Package ptrmsg keeps a pointer to the message received (prop = &m): the
// message it points to is the mailbox.
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
		r.out <- VoteMsg{View: r.view, Block: prop.Block} // want `condition 4: this send is reached while the mailbox may hold a Proposal of a later round \(stored at line 84\)`
	}
}
