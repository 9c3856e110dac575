package hotstuffpm

// Phase is the round of a replica inside a view.
type Phase int

// The two rounds of a view, in order.
const (
	// PhasePropose: the view's leader broadcasts its block; the NewView
	// messages that opened the view are sent and collected in it too.
	PhasePropose Phase = iota
	// PhaseVote: the replicas vote for the block (or give up on the view),
	// and the next leader collects the votes.
	PhaseVote
)

// QC is a quorum certificate: a quorum voted for BlockID in View
// (signatures are left out).
type QC struct {
	View    uint64
	BlockID string
}

// Block is a node of the chain; QC certifies its justification, usually
// its parent.
type Block struct {
	ID     string
	View   uint64
	Parent string
	QC     QC
	Cmd    string
}

// Proposal is the leader's block of View.
//
//sync:msg View,PhasePropose
type Proposal struct {
	View  uint64
	Block *Block
	From  int
}

// Vote is a replica's vote for the block of View, sent to the leader of
// View+1, which aggregates the votes into the QC it extends. It carries the
// block so that the next leader has it even if it missed the proposal.
//
//sync:msg View,PhaseVote
type Vote struct {
	View  uint64
	Block *Block
	From  int
}

// NewView is sent by a replica that gave up on the view before View to the
// leader of View, with the highest QC it knows.
//
//sync:msg View,PhasePropose
type NewView struct {
	View   uint64
	HighQC QC
	From   int
}

// Transport carries the messages between replicas.
type Transport interface {
	// BroadcastProposal sends p to every other replica.
	//
	//sync:send
	BroadcastProposal(p Proposal)
	// SendVote sends v to replica to (possibly the sender itself).
	//
	//sync:send
	SendVote(to int, v Vote)
	// SendNewView sends m to replica to (possibly the sender itself).
	//
	//sync:send
	SendNewView(to int, m NewView)
}
