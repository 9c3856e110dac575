package simplex

// Step is the round part of the tag (iter, step), in execution order.
type Step int

// The rounds of an iteration.
const (
	// Propose: the leader sends its block.
	Propose Step = iota
	// Vote: everybody votes for the leader's block or for the dummy block.
	Vote
	// Finalize: those who voted for a notarized real block say so.
	Finalize
)

// Header is the part of a message that says where it belongs.
type Header struct {
	Iter int
	Step Step
}

// Block is a block of the chain. The dummy block of an iteration has no
// payload and is never finalized.
type Block struct {
	Iter    int
	Parent  int // iteration of the parent block, 0 for the genesis block
	Payload string
	Dummy   bool
}

// Msg is the one message type: a proposal, a vote or a finalize message,
// as its header's Step says. Block is the proposed, voted or finalized
// block.
//
//sync:msg Hdr.Iter,Hdr.Step
type Msg struct {
	Hdr   Header
	From  int
	Block Block
}
