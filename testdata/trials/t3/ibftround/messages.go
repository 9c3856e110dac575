package ibftround

// State is the round step of a validator inside (height, round), in
// execution order.
type State uint8

// The states of a round.
const (
	StateRoundChange State = iota // collecting ROUND-CHANGEs for this round (rounds > 0)
	StatePrePrepare               // waiting for the proposal of the round
	StatePrepare                  // accepted it, collecting PREPAREs
	StateCommit                   // prepared it, collecting COMMITs
)

// MessageType is the kind of an IbftMessage, as on the wire.
type MessageType int32

// The message kinds. MsgRoundTimeout is never sent: the driver uses it to
// hand a validator its round timer, with no height.
const (
	MsgPreprepare MessageType = iota
	MsgPrepare
	MsgCommit
	MsgRoundChange
	MsgRoundTimeout
)

// IbftMessage is the wire message, in the shape protobuf generates:
// optional fields are pointers read through getters that return 0 for nil.
// A message with no height is a local event of the validator.
//
//sync:msg GetHeight(),GetRound(),Type{MsgRoundChange:StateRoundChange,MsgPreprepare:StatePrePrepare,MsgPrepare:StatePrepare,MsgCommit:StateCommit,MsgRoundTimeout:StateRoundChange}
//sync:local GetHeight()==0
type IbftMessage struct {
	Height   *uint64
	Round    *uint64
	Type     MessageType
	From     int
	Proposal string // Preprepare: the block; Prepare, Commit: its digest

	// RoundChange: the sender's latest prepared certificate, if any.
	PreparedRound *uint64
	PreparedValue string
}

// GetHeight returns the height, 0 if unset.
func (m *IbftMessage) GetHeight() uint64 {
	if m != nil && m.Height != nil {
		return *m.Height
	}
	return 0
}

// GetRound returns the round, 0 if unset.
func (m *IbftMessage) GetRound() uint64 {
	if m != nil && m.Round != nil {
		return *m.Round
	}
	return 0
}

// GetPreparedRound returns the prepared round, 0 if unset.
func (m *IbftMessage) GetPreparedRound() uint64 {
	if m != nil && m.PreparedRound != nil {
		return *m.PreparedRound
	}
	return 0
}

func ptr[T any](v T) *T { return &v }

// Outbox collects what a handler sends, for the driver to deliver.
type Outbox[M any] struct {
	msgs []M
}

// Push sends m to every other validator.
//
//sync:send
func (o *Outbox[M]) Push(m M) { o.msgs = append(o.msgs, m) }

// Drain returns the messages pushed since the last call.
func (o *Outbox[M]) Drain() []M {
	msgs := o.msgs
	o.msgs = nil
	return msgs
}
