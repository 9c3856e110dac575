package ibft

// Step is the innermost part of the tag (height, round, step). The constants
// are declared in execution order.
type Step int

// The steps of an IBFT round.
const (
	// RoundChange: replicas report their prepared value to the new proposer.
	RoundChange Step = iota
	// PrePrepare: the proposer broadcasts its block.
	PrePrepare
	// Prepare: replicas broadcast the digest of the block they accepted.
	Prepare
	// Commit: replicas that saw a prepare quorum broadcast a commit.
	Commit
)

// Header identifies the round a message belongs to and its sender.
type Header struct {
	Height int
	Round  int
	Step   Step
	From   int
}

// Message is the one IBFT message type; Hdr.Step says which step it is.
//
//sync:msg Hdr.Height,Hdr.Round,Hdr.Step
type Message struct {
	Hdr           Header
	Value         string // PrePrepare: the block; RoundChange: the prepared block
	Digest        string // Prepare and Commit: digest of the block
	PreparedRound int    // RoundChange: round in which Value was prepared, -1 if none
}
