package chainedhotstuff

// Phase is the round part of the tag (view, phase).
type Phase int

// The two rounds of a view.
const (
	// Propose: the leader broadcasts its block.
	Propose Phase = iota
	// Collect: replicas send a Vote or a NewView to the next leader.
	Collect
)

// QC is a quorum certificate: 2f+1 replicas voted for Hash in View.
type QC struct {
	View    int
	Hash    string
	Signers []int
}

// Block is a node of the block tree.
type Block struct {
	View    int
	Parent  string
	Justify QC
	Cmd     string
	Hash    string
}

// Msg is any protocol message.
type Msg interface{ Sender() int }

// Proposal carries the leader's block of a view.
//
//sync:msg View,Propose
type Proposal struct {
	View  int
	From  int
	Block Block
}

// Vote is a vote for the block of a view, sent to the next leader.
//
//sync:msg View,Collect
type Vote struct {
	View int
	From int
	Hash string
}

// NewView is sent to the next leader instead of a vote; it carries the
// sender's highest QC.
//
//sync:msg View,Collect
type NewView struct {
	View   int
	From   int
	HighQC QC
}

// Sender implements Msg.
func (m *Proposal) Sender() int { return m.From }

// Sender implements Msg.
func (m *Vote) Sender() int { return m.From }

// Sender implements Msg.
func (m *NewView) Sender() int { return m.From }
