package mencius

// Phase is the round of the tag inside one slot, as the server sees it.
type Phase int

// The phases of a slot, in execution order.
const (
	// PhaseSuggest: waiting for the slot owner's suggestion or skip.
	PhaseSuggest Phase = iota
	// PhaseAccept: the value is accepted; the owner collects Accepted.
	PhaseAccept
	// PhaseCommit: the value is chosen and is being learned.
	PhaseCommit
)

// Kind is the wire type of a message, as in a generated protobuf enum. It is
// not the round of the tag: Phase maps it onto one.
type Kind int32

// The wire kinds.
const (
	KindUnknown Kind = iota
	KindSuggest
	KindSkip
	KindAccepted
	KindCommit
)

// Message is the protocol's wire message, in the shape of a generated
// protobuf message: pointer receivers and nil-safe getters.
//
//sync:msg GetSlot(),Phase()
type Message struct {
	Slot  uint64
	Kind  Kind
	From  int32
	Value string
}

// GetSlot returns the slot the message is about.
func (m *Message) GetSlot() uint64 {
	if m == nil {
		return 0
	}
	return m.Slot
}

// GetKind returns the wire kind.
func (m *Message) GetKind() Kind {
	if m == nil {
		return KindUnknown
	}
	return m.Kind
}

// GetFrom returns the sender.
func (m *Message) GetFrom() int32 {
	if m == nil {
		return -1
	}
	return m.From
}

// GetValue returns the suggested or committed value.
func (m *Message) GetValue() string {
	if m == nil {
		return ""
	}
	return m.Value
}

// Phase maps the wire kind onto the phase of the slot it belongs to: the
// owner's suggestion and its skip open the slot, Accepted answers it and
// Commit closes it.
func (m *Message) Phase() Phase {
	switch m.GetKind() {
	case KindAccepted:
		return PhaseAccept
	case KindCommit:
		return PhaseCommit
	default:
		return PhaseSuggest
	}
}
