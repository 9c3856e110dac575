package lastvoting

// Step is the round part of the synchronization tag: the round of a process
// inside its current phase, in execution order.
type Step int

// The four rounds of phase φ (Algorithm 2 of Tsuchiya and Schiper).
const (
	// Collect is round 4φ−3: everybody sends ⟨x, ts⟩ to the coordinator.
	Collect Step = iota
	// Propose is round 4φ−2: the coordinator sends its vote to everybody.
	Propose
	// Accept is round 4φ−1: the processes that took the vote ack it.
	Accept
	// Decide is round 4φ: the coordinator sends the decision to everybody.
	Decide
)

// Each message type belongs to one round, so its //sync:msg annotation maps
// the round component to a constant.

// Estimate is sent in round Collect to the coordinator of the phase.
//
//sync:msg Phase,Collect
type Estimate struct {
	Phase int
	From  int
	X     int // the sender's estimate
	TS    int // the phase in which the sender adopted X
}

// Vote is sent in round Propose by the coordinator to everybody.
//
//sync:msg Phase,Propose
type Vote struct {
	Phase int
	From  int
	V     int
}

// Ack is sent in round Accept to the coordinator by the processes whose
// timestamp is the current phase.
//
//sync:msg Phase,Accept
type Ack struct {
	Phase int
	From  int
}

// Decision is sent in round Decide by a coordinator acked by a majority.
//
//sync:msg Phase,Decide
type Decision struct {
	Phase int
	From  int
	V     int
}

// Inbox holds the channels a process receives on, one per message type.
// Messages of a type that a round does not read stay in their channel until
// a later round reads them, and are dropped then if they are out of date.
type Inbox struct {
	Estimates chan Estimate
	Votes     chan Vote
	Acks      chan Ack
	Decisions chan Decision
}

// NewInbox returns an inbox whose channels buffer size messages each.
func NewInbox(size int) *Inbox {
	return &Inbox{
		Estimates: make(chan Estimate, size),
		Votes:     make(chan Vote, size),
		Acks:      make(chan Ack, size),
		Decisions: make(chan Decision, size),
	}
}
