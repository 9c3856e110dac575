package twophase

// Step is the round part of the synchronization tag: where a process is in
// the commit of the current transaction. The constants are in protocol
// order, so comparing (txn, step) lexicographically compares positions in an
// execution.
type Step int

// The rounds of the commit of one transaction.
const (
	Prepare Step = iota // the coordinator sends the transaction to the participants
	Vote                // the participants vote; the coordinator tallies
	Decide              // the coordinator sends commit or abort
	Ack                 // the participants acknowledge the decision
)

// Op is one write of a transaction.
type Op struct {
	Key, Value string
}

// PrepareMsg asks a participant to prepare transaction Txn.
//
//sync:msg Txn,Prepare
type PrepareMsg struct {
	Txn int
	Ops []Op
}

// Reply is what a participant sends the coordinator: its vote in round
// Vote, its acknowledgement of the decision in round Ack. Step says which.
//
//sync:msg Txn,Step
type Reply struct {
	Txn  int
	Step Step
	From int
	Yes  bool // Vote: the participant can commit
}

// Decision is the coordinator's outcome for transaction Txn.
//
//sync:msg Txn,Decide
type Decision struct {
	Txn    int
	Commit bool
}

// Inbox is the set of channels a process receives on: the participants
// read Prepares and Decisions, the coordinator reads Replies.
type Inbox struct {
	Prepares  chan PrepareMsg
	Replies   chan Reply
	Decisions chan Decision
}

// NewInbox returns an inbox whose channels buffer up to capacity messages
// each.
func NewInbox(capacity int) *Inbox {
	return &Inbox{
		Prepares:  make(chan PrepareMsg, capacity),
		Replies:   make(chan Reply, capacity),
		Decisions: make(chan Decision, capacity),
	}
}
