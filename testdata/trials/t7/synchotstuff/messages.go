package synchotstuff

// Step is the position of a replica inside a height, in execution order.
// The first height of a view after a view change starts at StepStatus; the
// others start at StepPropose.
type Step int

// The steps of a height.
const (
	// StepStatus: replicas send their highest certified block to the
	// leader of the new view.
	StepStatus Step = iota
	// StepPropose: the leader proposes a block extending the highest
	// certified one.
	StepPropose
	// StepVote: replicas vote for the proposal and listen for 2Δ for an
	// equivocation.
	StepVote
	// StepBlame: replicas blame the leader; f+1 blames end the view.
	StepBlame
)

// Block is a block of the chain.
type Block struct {
	ID     string
	Height uint64
	Parent string
	Cmd    string
}

// Cert is a certificate: f+1 votes of View for Block (Voters is a bit set).
type Cert struct {
	View   uint64
	Block  Block
	Voters uint64
}

// Message is what the transport carries; the concrete types below are the
// messages of each step.
type Message interface {
	Sender() int
}

// Proposal is the leader's block for (View, Height), with the certificate
// of its parent.
//
//sync:msg View,Height,StepPropose
type Proposal struct {
	View, Height uint64
	From         int
	Block        Block
	Justify      Cert
}

// Vote is a vote for BlockID at (View, Height), sent to all.
//
//sync:msg View,Height,StepVote
type Vote struct {
	View, Height uint64
	From         int
	BlockID      string
}

// Blame accuses the leader of View of not making progress at Height, or of
// equivocating.
//
//sync:msg View,Height,StepBlame
type Blame struct {
	View, Height uint64
	From         int
}

// Status is sent to the leader of View when entering it: the sender's
// highest certified block, Height being the height it will propose at.
//
//sync:msg View,Height,StepStatus
type Status struct {
	View, Height uint64
	From         int
	Cert         Cert
}

// Sender implements Message.
func (m Proposal) Sender() int { return m.From }

// Sender implements Message.
func (m Vote) Sender() int { return m.From }

// Sender implements Message.
func (m Blame) Sender() int { return m.From }

// Sender implements Message.
func (m Status) Sender() int { return m.From }
