package tmvote

// RoundStepType is the step of a validator inside a round.
type RoundStepType uint8

// The steps of a round, in order.
const (
	RoundStepPropose   RoundStepType = 1 + iota // waiting for the proposal
	RoundStepPrevote                            // prevoted; collecting prevotes
	RoundStepPrecommit                          // precommitted; collecting precommits
)

// SignedMsgType is the kind of a vote, as on the wire.
type SignedMsgType byte

// The vote kinds (the values of Tendermint's wire format).
const (
	PrevoteType   SignedMsgType = 0x01
	PrecommitType SignedMsgType = 0x02
)

// NilValue is the value of a vote for nothing.
const NilValue = ""

// Proposal is the value the proposer of (Height, Round) proposes. POLRound
// is the round of the proof-of-lock the proposer holds for Value, -1 if
// none (the proof itself is left out, as are signatures).
//
//sync:msg Height,Round,RoundStepPropose
type Proposal struct {
	Height   int64
	Round    int32
	POLRound int32
	Value    string
	From     int
}

// Vote is a prevote or a precommit. Its Type is the step it was cast in.
//
//sync:msg Height,Round,Type{PrevoteType:RoundStepPrevote,PrecommitType:RoundStepPrecommit}
type Vote struct {
	Type   SignedMsgType
	Height int64
	Round  int32
	Value  string // NilValue for nil
	From   int
}

// Commit announces the value decided at Height, for the validators still
// at that height (the precommits that justify it are left out). It belongs
// to its height, whatever round the receiver is in.
//
//sync:msg Height,_,_
type Commit struct {
	Height int64
	Value  string
	From   int
}

// stepOf is the step a vote of type t is cast in.
func stepOf(t SignedMsgType) RoundStepType {
	if t == PrecommitType {
		return RoundStepPrecommit
	}
	return RoundStepPrevote
}
