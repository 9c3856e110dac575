package paxoslike

// Step is the round part of the synchronization tag (Fig. 1's step). The
// constants are in the order the rounds run, so comparing (ballot, step)
// lexicographically compares positions in an execution.
type Step int

// The four rounds of a phase (Fig. 1 of "Testing consensus implementations
// using communication closure").
const (
	Prepare Step = iota // the leader invites everybody to its ballot
	Ack                 // the followers send their dated log to the leader
	Propose             // the leader sends the extended log
	Promise             // everybody exchanges the log it adopted
)

// Message is the one record type of the protocol, used in all rounds like
// the tuples ("Prepare", phase, ...) of Fig. 1: Step says which round it
// belongs to, Ballot which phase.
//
//sync:msg Ballot,Step
type Message struct {
	Ballot int
	Step   Step
	From   int      // the sender (Fig. 1's my_id in a Prepare)
	Last   int      // Ack: the ballot that dates Log
	Log    []string // Ack, Propose, Promise
}
