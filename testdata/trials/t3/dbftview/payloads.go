package dbftview

// MessageType is the type byte of a consensus payload (dBFT 2.0's values).
type MessageType byte

// The payload types.
const (
	ChangeViewType      MessageType = 0x00
	PrepareRequestType  MessageType = 0x20
	PrepareResponseType MessageType = 0x21
	CommitType          MessageType = 0x30
)

// ConsensusPayload is what validators exchange: every payload is for one
// block height and one view of it.
//
//sync:msg Height(),ViewNumber()
type ConsensusPayload interface {
	Height() uint32
	ViewNumber() byte
	Type() MessageType
	ValidatorIndex() int
}

// header is the part every payload shares.
type header struct {
	BlockIndex uint32
	View       byte
	Index      int // the sender's validator index
}

// Height returns the height of the block the payload is about.
func (h header) Height() uint32 { return h.BlockIndex }

// ViewNumber returns the view the payload was sent in.
func (h header) ViewNumber() byte { return h.View }

// ValidatorIndex returns the sender.
func (h header) ValidatorIndex() int { return h.Index }

// PrepareRequest is the primary's block proposal of its view.
type PrepareRequest struct {
	header
	Block string
}

// Type implements ConsensusPayload.
func (*PrepareRequest) Type() MessageType { return PrepareRequestType }

// PrepareResponse says that a backup accepted the proposal whose hash it
// carries.
type PrepareResponse struct {
	header
	PreparationHash string
}

// Type implements ConsensusPayload.
func (*PrepareResponse) Type() MessageType { return PrepareResponseType }

// Commit says that the sender saw enough preparations for the block.
type Commit struct {
	header
	BlockHash string
}

// Type implements ConsensusPayload.
func (*Commit) Type() MessageType { return CommitType }

// ChangeViewReason says why a validator asks to leave its view.
type ChangeViewReason byte

// The reasons.
const (
	ReasonTimeout ChangeViewReason = iota
	ReasonTxInvalid
)

// ChangeView asks to leave the view it was sent in.
type ChangeView struct {
	header
	Reason ChangeViewReason
}

// Type implements ConsensusPayload.
func (*ChangeView) Type() MessageType { return ChangeViewType }

// LocalNode is the validator's P2P layer.
type LocalNode interface {
	// Broadcast relays p to every other validator.
	//
	//sync:send
	Broadcast(p ConsensusPayload)
}
