package tmvote

import "fmt"

// State is the consensus state of one validator: the Tendermint algorithm
// (Buchman, Kwon, Milosevic, arXiv:1807.04938, Algorithm 1) as handlers
// that the reactor calls with gossiped messages and expired timeouts.
//
//sync:tag height,round,step
type State struct {
	id, n int

	height int64
	round  int32
	step   RoundStepType

	// Outgoing messages; the reactor gossips them to every validator,
	// this one included.
	proposalOut chan<- *Proposal
	voteOut     chan<- *Vote
	commitOut   chan<- *Commit

	lockedRound int32
	lockedValue string
	validRound  int32
	validValue  string
	decisions   []string // decisions[h-1] is the value decided at height h

	// The mailbox of (height, round, step), emptied by enter.
	prevotes   map[int]string
	precommits map[int]string
}

// NewState returns validator id of n at height 1, round 0. The caller then
// calls Start.
func NewState(id, n int, proposals chan<- *Proposal, votes chan<- *Vote, commits chan<- *Commit) *State {
	cs := &State{id: id, n: n, proposalOut: proposals, voteOut: votes, commitOut: commits}
	cs.enter(1, 0, RoundStepPropose)
	return cs
}

// enter moves the validator forward to (h, r, s) with an empty mailbox.
func (cs *State) enter(h int64, r int32, s RoundStepType) {
	if h != cs.height {
		cs.lockedRound, cs.lockedValue = -1, NilValue
		cs.validRound, cs.validValue = -1, NilValue
	}
	cs.height, cs.round, cs.step = h, r, s
	cs.prevotes = map[int]string{}
	cs.precommits = map[int]string{}
}

// stale reports whether (r, s) of the current height is before the
// validator's round and step.
func (cs *State) stale(r int32, s RoundStepType) bool {
	return r < cs.round || r == cs.round && s < cs.step
}

func (cs *State) proposer(h int64, r int32) int { return int((h + int64(r)) % int64(cs.n)) }

func (cs *State) quorum() int { return 2*cs.n/3 + 1 }

// Start begins the current round.
//
//sync:handler
func (cs *State) Start() { cs.startRound(cs.round) }

func (cs *State) startRound(r int32) {
	cs.enter(cs.height, r, RoundStepPropose)
	if cs.proposer(cs.height, r) != cs.id {
		return
	}
	value, pol := cs.validValue, cs.validRound
	if value == NilValue {
		value = fmt.Sprintf("block(h=%d,r=%d,by=%d)", cs.height, r, cs.id)
	}
	cs.proposalOut <- &Proposal{Height: cs.height, Round: r, POLRound: pol, Value: value, From: cs.id}
}

// HandleProposal handles the proposal of a round of the current height.
//
//sync:handler
func (cs *State) HandleProposal(p *Proposal) {
	if p.Height != cs.height || cs.stale(p.Round, RoundStepPropose) || p.From != cs.proposer(p.Height, p.Round) {
		return
	}
	if p.Round > cs.round {
		cs.enter(cs.height, p.Round, RoundStepPropose) // round skip
	}
	value := NilValue
	if cs.lockedRound == -1 || cs.lockedValue == p.Value || p.POLRound > cs.lockedRound {
		value = p.Value
	}
	cs.prevote(value)
}

// HandleVote handles a prevote or a precommit of the current height.
//
//sync:handler
func (cs *State) HandleVote(v *Vote) {
	s := stepOf(v.Type)
	if v.Height != cs.height || cs.stale(v.Round, s) {
		return
	}
	if v.Round > cs.round || s > cs.step {
		cs.enter(cs.height, v.Round, s)
		// This validator has not voted in the step it skipped to: it
		// votes nil there, as on a timeout.
		cs.sendVote(v.Type, NilValue)
	}
	switch v.Type {
	case PrevoteType:
		cs.prevotes[v.From] = v.Value
		cs.onPrevotes()
	case PrecommitType:
		cs.precommits[v.From] = v.Value
		cs.onPrecommits()
	}
}

// onPrevotes precommits when a quorum of prevotes agree (locking a value).
func (cs *State) onPrevotes() {
	value, n := majority(cs.prevotes)
	if n < cs.quorum() {
		return
	}
	if value != NilValue {
		cs.lockedRound, cs.lockedValue = cs.round, value
		cs.validRound, cs.validValue = cs.round, value
	}
	cs.precommit(value)
}

// onPrecommits decides when a quorum precommitted a value.
func (cs *State) onPrecommits() {
	value, n := majority(cs.precommits)
	if n < cs.quorum() || value == NilValue {
		return
	}
	cs.commitOut <- &Commit{Height: cs.height, Value: value, From: cs.id}
	cs.decide(value)
}

// HandleCommit adopts the decision of the current height from a validator
// that reached it first.
//
//sync:handler
func (cs *State) HandleCommit(c *Commit) {
	if c.Height != cs.height {
		return
	}
	cs.decide(c.Value)
}

// decide records the decision of the current height and starts the next.
func (cs *State) decide(value string) {
	cs.decisions = append(cs.decisions, value)
	cs.enter(cs.height+1, 0, RoundStepPropose)
	cs.startRound(0)
}

func (cs *State) prevote(value string) {
	cs.enter(cs.height, cs.round, RoundStepPrevote)
	cs.sendVote(PrevoteType, value)
}

func (cs *State) precommit(value string) {
	cs.enter(cs.height, cs.round, RoundStepPrecommit)
	cs.sendVote(PrecommitType, value)
}

func (cs *State) sendVote(t SignedMsgType, value string) {
	cs.voteOut <- &Vote{Type: t, Height: cs.height, Round: cs.round, Value: value, From: cs.id}
}

// OnTimeoutPropose: no proposal came in time; prevote nil.
//
//sync:handler
func (cs *State) OnTimeoutPropose(h int64, r int32) {
	if h != cs.height || r != cs.round || cs.step != RoundStepPropose {
		return
	}
	cs.prevote(NilValue)
}

// OnTimeoutPrevote: the prevotes did not agree in time; precommit nil.
//
//sync:handler
func (cs *State) OnTimeoutPrevote(h int64, r int32) {
	if h != cs.height || r != cs.round || cs.step != RoundStepPrevote {
		return
	}
	cs.precommit(NilValue)
}

// OnTimeoutPrecommit: the round did not decide in time; start the next.
//
//sync:handler
func (cs *State) OnTimeoutPrecommit(h int64, r int32) {
	if h != cs.height || r != cs.round {
		return
	}
	cs.startRound(r + 1)
}

// majority returns the value with the most votes and its count.
func majority(votes map[int]string) (string, int) {
	count := map[string]int{}
	best, n := NilValue, 0
	for _, v := range votes {
		count[v]++
		if c := count[v]; c > n || c == n && v < best {
			best, n = v, c
		}
	}
	return best, n
}

// Height returns the current height.
func (cs *State) Height() int64 { return cs.height }

// Round returns the current round.
func (cs *State) Round() int32 { return cs.round }

// Decisions returns the values decided so far, one per height.
func (cs *State) Decisions() []string { return append([]string(nil), cs.decisions...) }
