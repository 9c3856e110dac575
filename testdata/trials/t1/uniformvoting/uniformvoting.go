package uniformvoting

import "time"

// Step is the round inside a phase.
type Step int32

// The rounds of a phase.
const (
	StepEstimate Step = 0
	StepVote     Step = 1
)

// Estimate is the message of both rounds, in the shape protoc-gen-go gives
// a message with fields phase, step, from, x, vote and has_vote.
//
//sync:msg Phase,Step
type Estimate struct {
	Phase   int32
	Step    Step
	From    int32
	X       int64
	Vote    int64
	HasVote bool
}

// GetPhase returns the phase, or 0 for a nil message.
func (m *Estimate) GetPhase() int32 {
	if m != nil {
		return m.Phase
	}
	return 0
}

// GetStep returns the step, or StepEstimate for a nil message.
func (m *Estimate) GetStep() Step {
	if m != nil {
		return m.Step
	}
	return StepEstimate
}

// GetFrom returns the sender, or 0 for a nil message.
func (m *Estimate) GetFrom() int32 {
	if m != nil {
		return m.From
	}
	return 0
}

// GetX returns the estimate, or 0 for a nil message.
func (m *Estimate) GetX() int64 {
	if m != nil {
		return m.X
	}
	return 0
}

// GetVote returns the vote and whether there is one.
func (m *Estimate) GetVote() (int64, bool) {
	if m != nil {
		return m.Vote, m.HasVote
	}
	return 0, false
}

// Node is one process.
type Node struct {
	id      int32
	quorum  int
	timeout time.Duration
	in      <-chan *Estimate
	peers   []chan<- *Estimate

	phase int32 // synchronization variables
	step  Step

	x       int64
	vote    int64
	hasVote bool

	decided  bool
	decision int64
	phaseOf  int32 // the phase of the decision
}

// NewNode returns process id, with initial value x, of a system whose
// inboxes are peers (its own being in).
func NewNode(id int32, x int64, timeout time.Duration, in <-chan *Estimate, peers []chan<- *Estimate) *Node {
	return &Node{id: id, quorum: len(peers)/2 + 1, timeout: timeout, in: in, peers: peers, x: x}
}

// Decision returns the decision, the phase it was taken in, and whether the
// node decided.
func (u *Node) Decision() (v int64, phase int32, ok bool) { return u.decision, u.phaseOf, u.decided }

// Run executes phases until maxPhase.
func (u *Node) Run(maxPhase int32) {
	//sync:tag u.phase,u.step
	for u.phase < maxPhase {
		u.step = StepEstimate
		u.broadcast(&Estimate{Phase: u.phase, Step: u.step, From: u.id, X: u.x})
		ests := u.gather()
		if len(ests) < u.quorum {
			u.phase++ // heard from too few: sit this phase out
			continue
		}
		u.x = ests[0].GetX()
		unanimous := true
		for _, m := range ests[1:] {
			u.x = min(u.x, m.GetX())
			unanimous = unanimous && m.GetX() == ests[0].GetX()
		}
		u.vote, u.hasVote = u.x, unanimous

		u.step = StepVote
		u.broadcast(&Estimate{Phase: u.phase, Step: u.step, From: u.id, X: u.x, Vote: u.vote, HasVote: u.hasVote})
		votes := u.gather()
		if len(votes) > 0 {
			u.update(votes)
		}
		u.hasVote = false
		u.phase++
	}
}

// update is the transition of round Vote.
func (u *Node) update(votes []*Estimate) {
	first, all := votes[0].GetVote()
	smallest := votes[0].GetX()
	var adopted bool
	for _, m := range votes {
		smallest = min(smallest, m.GetX())
		v, ok := m.GetVote()
		all = all && ok && v == first
		if ok {
			u.x, adopted = v, true
		}
	}
	if !adopted {
		u.x = smallest
	}
	if all && !u.decided {
		u.decided, u.decision, u.phaseOf = true, first, u.phase
	}
}

// broadcast sends m to every node, this one included.
func (u *Node) broadcast(m *Estimate) {
	for _, ch := range u.peers {
		ch <- m
	}
}

// gather collects the messages of the current round, one per sender, until
// a majority sent theirs or the round times out.
func (u *Node) gather() []*Estimate {
	var got []*Estimate
	seen := make(map[int32]bool)
	timer := time.NewTimer(u.timeout)
	defer timer.Stop()
	for len(got) < u.quorum {
		select {
		case m := <-u.in:
			if m.GetPhase() != u.phase || m.GetStep() != u.step || seen[m.GetFrom()] {
				continue
			}
			seen[m.GetFrom()] = true
			got = append(got, m)
		case <-timer.C:
			return got
		}
	}
	return got
}
