package cometbft

import (
	"errors"
	"time"
)

// RoundStepType is the step of a validator inside a round, in execution
// order (the values of cometbft's consensus/types).
type RoundStepType uint8

// The steps of a round.
const (
	RoundStepNewHeight RoundStepType = 0x01 // waiting for the round 0 of a new height
	RoundStepNewRound  RoundStepType = 0x02 // setting up a round
	RoundStepPropose   RoundStepType = 0x03 // waiting for the proposal
	RoundStepPrevote   RoundStepType = 0x04 // prevoted; collecting prevotes
	RoundStepPrecommit RoundStepType = 0x06 // precommitted; collecting precommits
	RoundStepCommit    RoundStepType = 0x08 // a block is decided
)

// SignedMsgType is the kind of a signed vote, as in cometbft's types.
type SignedMsgType byte

// The vote kinds.
const (
	PrevoteType   SignedMsgType = 0x01
	PrecommitType SignedMsgType = 0x02
)

// NilBlock is the BlockID of a vote for nil.
const NilBlock = ""

// Vote is a prevote or a precommit for BlockID (NilBlock for nil) at
// (Height, Round). Its Type maps onto the step it is sent in.
//
//sync:msg Height,Round,Type{PrevoteType:RoundStepPrevote,PrecommitType:RoundStepPrecommit}
type Vote struct {
	Type           SignedMsgType
	Height         int64
	Round          int32
	BlockID        string
	ValidatorIndex int32
}

// Proposal is the proposer's block for (Height, Round). A block proposed
// again carries POLRound and the +2/3 prevotes of that round for it (its
// proof of lock); a new block has POLRound -1.
//
//sync:msg Height,Round,RoundStepPropose
type Proposal struct {
	Height   int64
	Round    int32
	POLRound int32
	Block    string
	POL      []Vote
}

// Message is a consensus message between validators.
type Message interface {
	ValidateBasic() error
}

// ProposalMessage carries a proposal.
//
//sync:msg Proposal.Height,Proposal.Round,RoundStepPropose
type ProposalMessage struct {
	Proposal *Proposal
}

// VoteMessage carries a vote.
//
//sync:msg Vote.Height,Vote.Round,Vote.Type{PrevoteType:RoundStepPrevote,PrecommitType:RoundStepPrecommit}
type VoteMessage struct {
	Vote *Vote
}

var errNil = errors.New("cometbft: empty message")

// ValidateBasic implements Message.
func (m *ProposalMessage) ValidateBasic() error {
	if m.Proposal == nil || m.Proposal.Block == NilBlock {
		return errNil
	}
	return nil
}

// ValidateBasic implements Message.
func (m *VoteMessage) ValidateBasic() error {
	if m.Vote == nil {
		return errNil
	}
	return nil
}

// msgInfo is a message with the peer it came from.
type msgInfo struct {
	Msg    Message
	PeerID string
}

// timeoutInfo is a local event: the time-out of a step, scheduled when the
// step starts.
type timeoutInfo struct {
	Duration time.Duration
	Height   int64
	Round    int32
	Step     RoundStepType
}
