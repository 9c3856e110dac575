package diembft

import "math/bits"

// Step is a node's position inside a round, in order: waiting for the
// proposal, voted (the next leader collects votes), timed out (collecting
// timeouts).
type Step int

// The steps of a round.
const (
	StepPropose Step = iota
	StepVote
	StepTimeout
)

// BlockID identifies a block.
type BlockID string

// QC is a quorum certificate: 2f+1 votes of Round for Block.
type QC struct {
	Round   uint64
	Block   BlockID
	Signers uint64 // bit set of voters
}

// TC is a timeout certificate: 2f+1 timeouts of Round, with the round of
// the highest QC each signer reported.
type TC struct {
	Round        uint64
	HighQCRounds map[int]uint64
}

// Block is a proposed block; QC certifies its parent.
type Block struct {
	ID      BlockID
	Round   uint64
	Author  int
	QC      QC
	Payload string
}

// Message is every consensus message: its round and the step it is sent in
// are read through methods.
//
//sync:msg Round(),Kind()
type Message interface {
	Round() uint64
	Kind() Step
	Sender() int
}

// ProposalMsg carries the leader's block of a round; LastRoundTC justifies
// a round entered by a timeout.
//
//sync:msg Round(),Kind()
type ProposalMsg struct {
	Block       Block
	LastRoundTC *TC
}

// VoteMsg is a vote for a block, sent to the leader of the next round. It
// carries the block, so that a leader that missed the proposal can still
// extend and commit it.
//
//sync:msg Round(),Kind()
type VoteMsg struct {
	VoteRound uint64
	Block     Block
	Voter     int
}

// TimeoutMsg says its sender gave up on TimeoutRound; it carries the
// sender's highest QC.
//
//sync:msg Round(),Kind()
type TimeoutMsg struct {
	TimeoutRound uint64
	HighQC       QC
	From         int
}

// Round implements Message.
func (m *ProposalMsg) Round() uint64 { return m.Block.Round }

// Kind implements Message.
func (m *ProposalMsg) Kind() Step { return StepPropose }

// Sender implements Message.
func (m *ProposalMsg) Sender() int { return m.Block.Author }

// Round implements Message.
func (m *VoteMsg) Round() uint64 { return m.VoteRound }

// Kind implements Message.
func (m *VoteMsg) Kind() Step { return StepVote }

// Sender implements Message.
func (m *VoteMsg) Sender() int { return m.Voter }

// Round implements Message.
func (m *TimeoutMsg) Round() uint64 { return m.TimeoutRound }

// Kind implements Message.
func (m *TimeoutMsg) Kind() Step { return StepTimeout }

// Sender implements Message.
func (m *TimeoutMsg) Sender() int { return m.From }

func count(set uint64) int { return bits.OnesCount64(set) }
