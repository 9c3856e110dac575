package multipaxos

// Phase is the round of the outer loop, the one that elects a leader for a
// ballot. The constants are declared in protocol order.
type Phase int

// The rounds of a ballot.
const (
	// Prepare: the leader of the ballot asks the acceptors to join it
	// (Paxos phase 1a).
	Prepare Phase = iota
	// Promise: the acceptors that joined send the leader their log (phase
	// 1b).
	Promise
	// Lead: the leader, promised by a majority, announces where it starts
	// proposing and what it knows to be committed; then it drives the log
	// slot by slot in the inner loop.
	Lead
)

// SStep is the round of the inner loop: the step inside one log slot.
type SStep int

// The rounds of a slot (Paxos phase 2 and the learners' commit).
const (
	// Accept: the leader proposes a value for the slot (phase 2a).
	Accept SStep = iota
	// Accepted: the acceptors that accepted it tell the leader (phase 2b).
	Accepted
	// Commit: the leader, accepted by a majority, tells everybody that the
	// value is chosen.
	Commit
)

// Entry is a log slot as a replica knows it.
type Entry struct {
	Ballot    int // the ballot in which Value was accepted
	Value     string
	Committed bool // Value is known to be chosen
}

// The outer messages belong to one round each and carry the ballot: they
// map onto the tag (ballot, phase) of Proc.Run.

// PrepareMsg is broadcast by the leader of a ballot in round Prepare. The
// sender is the envelope's From.
//
//sync:msg Ballot,Prepare
type PrepareMsg struct {
	Ballot int
}

// PromiseMsg is sent in round Promise to the leader of the ballot. It
// carries the sender's log: the values it accepted, with their ballots, and
// the slots it knows to be committed.
//
//sync:msg Ballot,Promise
type PromiseMsg struct {
	Ballot int
	Log    map[int]Entry
}

// LeadMsg is broadcast in round Lead by a leader promised by a majority:
// Start is the first slot it proposes, Committed the values it knows to be
// chosen, for the replicas that missed them.
//
//sync:msg Ballot,Lead
type LeadMsg struct {
	Ballot    int
	Start     int
	Committed map[int]string
}

// The inner messages are exchanged inside round Lead of a ballot, about one
// slot: they map onto the tag (ballot, phase, slot, sstep) of the loop of
// Proc.replicate, with the phase always Lead.

// AcceptMsg is broadcast by the leader in round Accept of a slot.
//
//sync:msg Ballot,Lead,Slot,Accept
type AcceptMsg struct {
	Ballot int
	Slot   int
	Value  string
}

// AcceptedMsg is sent to the leader in round Accepted by the replicas that
// accepted the slot's value.
//
//sync:msg Ballot,Lead,Slot,Accepted
type AcceptedMsg struct {
	Ballot int
	Slot   int
}

// CommitMsg is broadcast by the leader in round Commit once a majority
// accepted the slot's value.
//
//sync:msg Ballot,Lead,Slot,Commit
type CommitMsg struct {
	Ballot int
	Slot   int
	Value  string
}
