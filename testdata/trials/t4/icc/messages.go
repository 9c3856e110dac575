package icc

import "fmt"

// Step is the round of the tag inside one (height, rank): a replica first
// waits for the block of the rank's block maker, then collects notarization
// shares, then finalization shares.
type Step int

// The steps of a rank, in execution order.
const (
	Propose Step = iota
	Notarize
	Finalize
)

// BlockID names a block; it is derived from the block's coordinates and
// payload, standing in for a hash.
type BlockID string

// Artifact is what replicas gossip: every consensus artifact says the
// height, rank and step it belongs to.
//
//sync:msg Height(),Rank(),Step()
type Artifact interface {
	Height() uint64
	Rank() int
	Step() Step
}

// BlockProposal is a block made by the block maker of (H, R).
//
//sync:msg H,R,Propose
type BlockProposal struct {
	H       uint64
	R       int
	Maker   int
	Payload string
}

// ID returns the block's identifier.
func (b BlockProposal) ID() BlockID {
	return BlockID(fmt.Sprintf("%d/%d/%d/%s", b.H, b.R, b.Maker, b.Payload))
}

// Height returns the height of the block.
func (b BlockProposal) Height() uint64 { return b.H }

// Rank returns the rank of the block's maker.
func (b BlockProposal) Rank() int { return b.R }

// Step returns Propose.
func (b BlockProposal) Step() Step { return Propose }

// NotarizationShare is a replica's signature share on a block of (H, R).
//
//sync:msg H,R,Notarize
type NotarizationShare struct {
	H     uint64
	R     int
	From  int
	Block BlockID
}

// Height returns the height of the share.
func (s NotarizationShare) Height() uint64 { return s.H }

// Rank returns the rank of the share.
func (s NotarizationShare) Rank() int { return s.R }

// Step returns Notarize.
func (s NotarizationShare) Step() Step { return Notarize }

// FinalizationShare is a replica's signature share saying that Block is the
// only block of height H it notarized.
//
//sync:msg H,R,Finalize
type FinalizationShare struct {
	H     uint64
	R     int
	From  int
	Block BlockID
}

// Height returns the height of the share.
func (s FinalizationShare) Height() uint64 { return s.H }

// Rank returns the rank of the share.
func (s FinalizationShare) Rank() int { return s.R }

// Step returns Finalize.
func (s FinalizationShare) Step() Step { return Finalize }

// Gossip is the replica's view of the network.
type Gossip interface {
	// Broadcast sends a to every replica, the sender included.
	//
	//sync:send
	Broadcast(a Artifact)
}
