package qbft

// Code is the kind of a message, numbered as on the wire in QBFT.
type Code uint8

// The message codes of QBFT.
const (
	CodePrePrepare  Code = 0
	CodePrepare     Code = 1
	CodeCommit      Code = 2
	CodeRoundChange Code = 3
)

// Header is the part every message shares: the height (consensus instance)
// and round it belongs to, and its author.
type Header struct {
	Height uint64
	Round  uint64
	From   int
}

// Message is what the network carries; its methods expose the header.
//
//sync:msg Height(),Round()
type Message interface {
	Height() uint64
	Round() uint64
	Sender() int
	Code() Code
}

// PrePrepare is the leader's proposal of Value for its round. In a round
// above 0 it carries the quorum of ROUND-CHANGEs that justifies it.
//
//sync:msg Hdr.Height,Hdr.Round
type PrePrepare struct {
	Hdr           Header
	Value         string
	Justification []*RoundChange
}

// Prepare is a validator's vote for the value (its digest) of the round's
// PRE-PREPARE.
//
//sync:msg Hdr.Height,Hdr.Round
type Prepare struct {
	Hdr    Header
	Digest string
}

// Commit is sent by a validator once it is prepared on Digest.
//
//sync:msg Hdr.Height,Hdr.Round
type Commit struct {
	Hdr    Header
	Digest string
}

// RoundChange announces that its author entered Hdr.Round, and what it
// prepared in an earlier round of the height, if anything.
//
//sync:msg Hdr.Height,Hdr.Round
type RoundChange struct {
	Hdr           Header
	Prepared      bool
	PreparedRound uint64
	PreparedValue string
}

// Height implements Message.
func (m *PrePrepare) Height() uint64 { return m.Hdr.Height }

// Round implements Message.
func (m *PrePrepare) Round() uint64 { return m.Hdr.Round }

// Sender implements Message.
func (m *PrePrepare) Sender() int { return m.Hdr.From }

// Code implements Message.
func (m *PrePrepare) Code() Code { return CodePrePrepare }

// Height implements Message.
func (m *Prepare) Height() uint64 { return m.Hdr.Height }

// Round implements Message.
func (m *Prepare) Round() uint64 { return m.Hdr.Round }

// Sender implements Message.
func (m *Prepare) Sender() int { return m.Hdr.From }

// Code implements Message.
func (m *Prepare) Code() Code { return CodePrepare }

// Height implements Message.
func (m *Commit) Height() uint64 { return m.Hdr.Height }

// Round implements Message.
func (m *Commit) Round() uint64 { return m.Hdr.Round }

// Sender implements Message.
func (m *Commit) Sender() int { return m.Hdr.From }

// Code implements Message.
func (m *Commit) Code() Code { return CodeCommit }

// Height implements Message.
func (m *RoundChange) Height() uint64 { return m.Hdr.Height }

// Round implements Message.
func (m *RoundChange) Round() uint64 { return m.Hdr.Round }

// Sender implements Message.
func (m *RoundChange) Sender() int { return m.Hdr.From }

// Code implements Message.
func (m *RoundChange) Code() Code { return CodeRoundChange }
