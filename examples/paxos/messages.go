package paxos

// Step is the round part of the synchronization tag: the round a process is
// in inside its current ballot. The constants are declared in the order in
// which the rounds are executed, so that comparing two tags (ballot, step)
// lexicographically compares their positions in an execution.
type Step int

// The four rounds of a phase (Fig. 1 of "Testing consensus implementations
// using communication closure").
const (
	// Prepare: the leader of the ballot asks everybody to join it.
	Prepare Step = iota
	// Ack: the processes that joined send their log, dated by last, to the
	// leader, which picks the most recent one and appends a new command.
	Ack
	// Propose: the leader sends the extended log to everybody.
	Propose
	// Promise: the processes that adopted the log exchange it; a log that a
	// majority promised is output.
	Promise
)

// String returns the name of the step as used in the paper.
func (s Step) String() string {
	switch s {
	case Prepare:
		return "Prepare"
	case Ack:
		return "Ack"
	case Propose:
		return "Propose"
	case Promise:
		return "Promise"
	}
	return "Step(?)"
}

// Message is the single record type of the protocol, used in all four rounds
// like the tuples ("Prepare", phase, ...) of Fig. 1: its Step field says which
// round it belongs to and its Ballot field which phase. The annotation maps
// both fields onto the tag variables (ballot, step) of Process.Run.
//
//sync:msg Ballot,Step
type Message struct {
	Step   Step
	Ballot int
	From   int      // sender
	Last   int      // Ack only: the ballot that dates Log
	Log    []string // Ack, Propose and Promise: a log of commands
}
