package zabsync

// Phase is the round inside an epoch attempt, in execution order.
type Phase int

// The rounds of discovery and synchronisation.
const (
	CEpoch       Phase = iota // follower -> prospective leader: my accepted epoch
	NewEpoch                  // leader -> all: the new epoch e'
	AckEpoch                  // follower -> leader: my current epoch and history
	NewLeader                 // leader -> all: the initial history of e'
	AckLeader                 // follower -> leader: history accepted
	CommitLeader              // leader -> all: the history is committed
)

// Txn is one transaction of a history.
type Txn struct {
	Epoch int
	Op    string
}

// CEpochMsg is Zab's CEPOCH.
//
//sync:msg Epoch,CEpoch
type CEpochMsg struct {
	Epoch    int // the attempt's epoch
	From     int
	Accepted int // the follower's acceptedEpoch
}

// NewEpochMsg is Zab's NEWEPOCH.
//
//sync:msg Epoch,NewEpoch
type NewEpochMsg struct {
	Epoch int
	From  int
}

// AckEpochMsg is Zab's ACK-E.
//
//sync:msg Epoch,AckEpoch
type AckEpochMsg struct {
	Epoch   int
	From    int
	Current int // the follower's currentEpoch
	History []Txn
}

// NewLeaderMsg is Zab's NEWLEADER.
//
//sync:msg Epoch,NewLeader
type NewLeaderMsg struct {
	Epoch   int
	From    int
	History []Txn
}

// AckLeaderMsg is Zab's ACK-LD.
//
//sync:msg Epoch,AckLeader
type AckLeaderMsg struct {
	Epoch int
	From  int
}

// CommitMsg is Zab's COMMIT-LD.
//
//sync:msg Epoch,CommitLeader
type CommitMsg struct {
	Epoch int
	From  int
}

// Inbox holds one channel per message type.
type Inbox struct {
	CEpoch    chan CEpochMsg
	NewEpoch  chan NewEpochMsg
	AckEpoch  chan AckEpochMsg
	NewLeader chan NewLeaderMsg
	AckLeader chan AckLeaderMsg
	Commit    chan CommitMsg
}

// NewInbox returns an inbox whose channels buffer size messages each.
func NewInbox(size int) *Inbox {
	return &Inbox{
		CEpoch:    make(chan CEpochMsg, size),
		NewEpoch:  make(chan NewEpochMsg, size),
		AckEpoch:  make(chan AckEpochMsg, size),
		NewLeader: make(chan NewLeaderMsg, size),
		AckLeader: make(chan AckLeaderMsg, size),
		Commit:    make(chan CommitMsg, size),
	}
}
