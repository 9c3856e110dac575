package jolteon

import "slices"

// Step is the round part of the tag: where a replica is in its round.
type Step int

// The steps of a round.
const (
	// StepPropose: waiting for (or, the leader, sending) the proposal.
	StepPropose Step = iota
	// StepVote: the replica voted, or collects the votes as next leader.
	StepVote
	// StepTimeout: the replica gave up on the round.
	StepTimeout
)

// QC is a quorum certificate: 2f+1 votes for the block BlockID of Round.
type QC struct {
	Round   uint64
	BlockID string
	Signers []int
}

// TC is a timeout certificate: 2f+1 timeouts of Round; HighQCRound is the
// highest QC round they reported.
type TC struct {
	Round       uint64
	HighQCRound uint64
	Signers     []int
}

// Block is a proposed block. QC certifies its parent.
type Block struct {
	Round   uint64
	Parent  string
	Payload string
	QC      *QC
	TC      *TC // the TC of Round-1 when the leader entered Round by time-out
}

// ID identifies the block.
func (b *Block) ID() string { return b.Parent + "/" + b.Payload }

// Msg is implemented by every message; stamp is called by the replica's
// send helpers.
type Msg interface {
	stamp(round uint64, from int)
}

// Proposal carries the leader's block of a round.
//
//sync:msg GetRound(),StepPropose
type Proposal struct {
	Round uint64
	From  int
	Block *Block
}

// Vote is a replica's vote for the block of a round, sent to the next
// leader.
//
//sync:msg GetRound(),StepVote
type Vote struct {
	Round   uint64
	From    int
	BlockID string
}

// Timeout says that a replica gave up on a round; it carries the highest QC
// the replica knows.
//
//sync:msg GetRound(),StepTimeout
type Timeout struct {
	Round  uint64
	From   int
	HighQC *QC
}

// GetRound returns the round of p (0 for nil).
func (p *Proposal) GetRound() uint64 {
	if p == nil {
		return 0
	}
	return p.Round
}

// GetRound returns the round of v (0 for nil).
func (v *Vote) GetRound() uint64 {
	if v == nil {
		return 0
	}
	return v.Round
}

// GetRound returns the round of t (0 for nil).
func (t *Timeout) GetRound() uint64 {
	if t == nil {
		return 0
	}
	return t.Round
}

func (p *Proposal) stamp(round uint64, from int) { p.Round, p.From = round, from }
func (v *Vote) stamp(round uint64, from int)     { v.Round, v.From = round, from }
func (t *Timeout) stamp(round uint64, from int)  { t.Round, t.From = round, from }

// Network carries messages between replicas.
type Network interface {
	Broadcast(m Msg)
	SendTo(to int, m Msg)
}

// signers returns the sorted keys of a set.
func signers(set map[int]bool) []int {
	var out []int
	for q := range set {
		out = append(out, q)
	}
	slices.Sort(out)
	return out
}
