package zab

// Round is the round part of the synchronization tag: the position of a
// process inside the current epoch. The constants are declared in the order
// in which the rounds are executed, so that comparing two tags
// (epoch, round) lexicographically compares their positions in an execution.
type Round int

// The rounds of one iteration of the discovery loop (Fig. 1 of "Reducing
// asynchrony to synchronized rounds"; Fig. 4 of that paper spells out CurrE,
// NewE and AckE and says that the rest is similar).
const (
	// CurrE: every process sends its epoch to the leader suggested by its
	// oracle; the leader waits for a majority (Zab's CEPOCH).
	CurrE Round = iota
	// NewE: the leader announces the new epoch it picked (Zab's NEWEPOCH).
	NewE
	// AckE: processes that accepted the new epoch send their history to the
	// leader (Zab's ACKEPOCH).
	AckE
	// NewL: the leader sends the most recent history it received to the
	// processes that acknowledged the epoch (Zab's NEWLEADER).
	NewL
	// AckL: the processes that adopted the leader's history acknowledge it;
	// a leader acknowledged by a majority is established.
	AckL
)

// String returns the name of the round as used in the paper.
func (r Round) String() string {
	switch r {
	case CurrE:
		return "Curr_E"
	case NewE:
		return "New_E"
	case AckE:
		return "Ack_E"
	case NewL:
		return "New_L"
	case AckL:
		return "Ack_L"
	}
	return "Round(?)"
}

// Msg is implemented by every discovery message. The network carries values
// of this interface type; the protocol recovers the concrete message with a
// type assertion before it looks at the tag fields.
type Msg interface {
	// Src returns the id of the process that sent the message.
	Src() int
}

// CurrentEpoch is sent in round CurrE by every process to the leader its
// oracle suggests (Fig. 4, line 5). Each message type of this protocol
// belongs to a single round, so the annotation maps the round part of the tag
// to a constant instead of a field.
//
//sync:msg Epoch,CurrE
type CurrentEpoch struct {
	From  int // sender
	Epoch int // the sender's epoch: the phase part of the tag
}

// NewEpoch is broadcast in round NewE by a leader that heard from a majority
// (Fig. 4, line 14). Epoch is the epoch the leader picked.
//
//sync:msg Epoch,NewE
type NewEpoch struct {
	From  int
	Epoch int
}

// AckEpoch is sent in round AckE to the leader whose epoch was accepted
// (Fig. 4, line 21). It carries the sender's history together with the epoch
// in which that history was adopted, which lets the leader pick the most
// recent one.
//
//sync:msg Epoch,AckE
type AckEpoch struct {
	From     int
	Epoch    int
	Accepted int      // epoch of the last NEWLEADER the sender accepted (Fig. 4's a)
	History  []string // the sender's history (Fig. 4's h)
}

// NewLeader is sent in round NewL by the leader to the quorum that
// acknowledged its epoch (Fig. 4, line 30). History is the history every
// follower must adopt.
//
//sync:msg Epoch,NewL
type NewLeader struct {
	From    int
	Epoch   int
	History []string
}

// AckLeader is sent in round AckL to the leader by the processes that
// adopted its history.
//
//sync:msg Epoch,AckL
type AckLeader struct {
	From  int
	Epoch int
}

// Src implements Msg.
func (m CurrentEpoch) Src() int { return m.From }

// Src implements Msg.
func (m NewEpoch) Src() int { return m.From }

// Src implements Msg.
func (m AckEpoch) Src() int { return m.From }

// Src implements Msg.
func (m NewLeader) Src() int { return m.From }

// Src implements Msg.
func (m AckLeader) Src() int { return m.From }
