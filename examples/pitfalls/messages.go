package pitfalls

// Step is the round part of the tag (ballot, step): the round a process is
// in inside its ballot, declared in the order the rounds are executed.
type Step int

// The rounds of a ballot.
const (
	// Prepare: the leader of the ballot asks everybody to join it.
	Prepare Step = iota
	// Ack: the processes that joined answer the leader with their log.
	Ack
	// Propose: the leader sends the log it chose to everybody.
	Propose
	// Accept: the processes that adopted the log tell the leader.
	Accept
)

// Message is the one message type of the protocol, used in every round:
// Ballot and Step carry the tag (ballot, step) of the round it was sent in.
//
//sync:msg Ballot,Step
type Message struct {
	Step   Step
	Ballot int
	From   int      // sender
	Log    []string // Ack and Propose: a log of commands
}
