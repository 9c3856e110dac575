package hotstuff2

// Phase is the round of the tag inside a view.
type Phase int

// The phases of a view, in execution order.
const (
	// PhaseNewView: replicas send their highest QC to the view's leader.
	PhaseNewView Phase = iota
	// PhasePropose: the leader proposes a block extending the highest QC.
	PhasePropose
	// PhaseLock: first vote; its certificate locks the block.
	PhaseLock
	// PhaseCommit: second vote; its certificate commits the block.
	PhaseCommit
)

// MsgType says what a message is; the phase it belongs to is in its header.
type MsgType int

// The message types.
const (
	NewViewMsg MsgType = iota
	ProposalMsg
	VoteMsg
	CertMsg
)

// Block is a proposed block. It carries the whole chain of commands it
// extends, so that committing it needs no block fetching.
type Block struct {
	View uint64
	Cmds []string
}

// QC is a quorum certificate: n-f replicas voted for Block in View.
type QC struct {
	View  uint64
	Block Block
}

// Header is the routing header of every message.
type Header struct {
	View  uint64
	Phase Phase
}

// Msg is the one wire message of the protocol.
//
//sync:msg Hdr.View,Hdr.Phase
type Msg struct {
	Hdr   Header
	Type  MsgType
	From  int
	Block Block // ProposalMsg, VoteMsg
	QC    QC    // NewViewMsg: the sender's highest QC; ProposalMsg: its justification; CertMsg: the certificate
}

// Transport connects the replicas.
type Transport interface {
	// Send sends m to replica to.
	//
	//sync:send
	Send(to int, m Msg)
	// Broadcast sends m to every replica, the sender included.
	//
	//sync:send
	Broadcast(m Msg)
}
