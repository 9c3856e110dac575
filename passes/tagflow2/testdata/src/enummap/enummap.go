// Package enummap has votes whose step is the message's own enum,
// SignedMsgType, mapped onto the round's, RoundStepType, by the
// directive (as CometBFT's votes are): the engine reads a vote's step as
// the round constant its type stands for.
package enummap

type RoundStepType int

const (
	RoundStepPropose   RoundStepType = 3
	RoundStepPrevote   RoundStepType = 4
	RoundStepPrecommit RoundStepType = 6
)

type SignedMsgType int

const (
	PrevoteType   SignedMsgType = 1
	PrecommitType SignedMsgType = 2
)

//sync:msg Round,Type{PrevoteType:RoundStepPrevote,PrecommitType:RoundStepPrecommit}
type Vote struct {
	Round int
	Type  SignedMsgType
	From  int
}

type Net interface {
	//sync:send
	Send(v Vote)
}

//sync:tag round,step
type State struct {
	net        Net
	round      int
	step       RoundStepType
	prevotes   map[int]bool
	precommits map[int]bool
}

// enterPrevote prevotes in the current round: the vote's type stands for
// the step the validator is in.
//
//sync:handler
func (cs *State) EnterPrevote() {
	if cs.step != RoundStepPropose {
		return
	}
	cs.step = RoundStepPrevote
	cs.prevotes, cs.precommits = map[int]bool{}, map[int]bool{}
	cs.net.Send(Vote{Round: cs.round, Type: PrevoteType})
}

// enterPrecommitEarly precommits while still in Prevote: the vote stands
// for a later step than the validator's.
//
//sync:handler
func (cs *State) EnterPrecommitEarly() {
	if cs.step != RoundStepPropose {
		return
	}
	cs.step = RoundStepPrevote
	cs.prevotes, cs.precommits = map[int]bool{}, map[int]bool{}
	cs.net.Send(Vote{Round: cs.round, Type: PrecommitType}) // want `condition 2: Vote is sent with a tag other than the current one \(round,step\)`
}

// OnVote counts a prevote of the current round while prevoting, and a
// precommit of it while precommitting.
//
//sync:handler
func (cs *State) OnVote(v Vote) {
	if v.Round != cs.round {
		return
	}
	switch {
	case v.Type == PrevoteType && cs.step == RoundStepPrevote:
		cs.prevotes[v.From] = true
	case v.Type == PrecommitType && cs.step == RoundStepPrecommit:
		cs.precommits[v.From] = true
	}
}

// OnAnyVote counts a precommit in the prevotes while prevoting: a vote
// of a later step kept without moving to it.
//
//sync:handler
func (cs *State) OnAnyVote(v Vote) {
	if v.Round != cs.round || cs.step != RoundStepPrevote {
		return
	}
	if v.Type == PrecommitType {
		cs.prevotes[v.From] = true
	}
} // want `condition 4: the process returns while a Vote of a later round can be kept, without a jump to its round first`

// OnPrevoteAnyRound counts a prevote of any round while prevoting: it
// tests the vote's type before the step is known, which leaves the
// round, tested by nothing, of any value: an earlier round's vote
// changes the state, a later round's is kept without a jump.
//
//sync:handler
func (cs *State) OnPrevoteAnyRound(v Vote) {
	if v.Type != PrevoteType || cs.step != RoundStepPrevote {
		return
	}
	cs.prevotes[v.From] = true // want `condition 3: the state changes while the received Vote may be of an earlier round than \(round,step\) was when the handler was called: such a message must leave the state unchanged`
} // want `condition 4: the process returns while a Vote of a later round can be kept, without a jump to its round first`
