package pbftview

// Kind is the round of a sequence number inside a view, in execution
// order. A view starts with its view change (at sequence number 0); every
// request then goes through pre-prepare, prepare and commit at its own
// sequence number.
type Kind uint8

// The rounds.
const (
	KindViewChange Kind = iota
	KindNewView
	KindPrePrepare
	KindPrepare
	KindCommit
)

// Message is what replicas exchange; its round is read through its
// methods.
//
//sync:msg View(),Seq(),Kind()
type Message interface {
	View() uint8
	Seq() uint64
	Kind() Kind
	Sender() int
}

// header is embedded in every message.
type header struct {
	V    uint8
	N    uint64
	From int
}

// View returns the view the message was sent in.
func (h header) View() uint8 { return h.V }

// Seq returns the sequence number the message is about (0 in a view
// change).
func (h header) Seq() uint64 { return h.N }

// Sender returns the replica that sent the message.
func (h header) Sender() int { return h.From }

// PrePrepare is the primary's proposal of Op for sequence number N.
type PrePrepare struct {
	header
	Op string
}

// Prepare says that the sender accepted the pre-prepare of Digest.
type Prepare struct {
	header
	Digest string
}

// Commit says that the sender saw Digest prepared by a quorum.
type Commit struct {
	header
	Digest string
}

// Cert is a prepared certificate: Op prepared at Seq in View.
type Cert struct {
	View uint8
	Seq  uint64
	Op   string
}

// ViewChange asks to move to view V; it carries the sender's executed log
// and its prepared certificate beyond it, if any.
type ViewChange struct {
	header
	Log      []string
	Prepared *Cert
}

// NewView installs view V with the log of a quorum of view changes.
type NewView struct {
	header
	Log []string
}

// Kind implements Message.
func (PrePrepare) Kind() Kind { return KindPrePrepare }

// Kind implements Message.
func (Prepare) Kind() Kind { return KindPrepare }

// Kind implements Message.
func (Commit) Kind() Kind { return KindCommit }

// Kind implements Message.
func (ViewChange) Kind() Kind { return KindViewChange }

// Kind implements Message.
func (NewView) Kind() Kind { return KindNewView }
