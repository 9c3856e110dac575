package phaseking

// Round is the round of the tag inside a phase.
type Round int

// The two rounds of a phase, in execution order.
const (
	// Exchange: every process broadcasts its preference.
	Exchange Round = iota
	// King: the phase's king broadcasts its majority value.
	King
)

// Msg is the one message of the protocol: a preference in an Exchange
// round, the king's value in a King round.
//
//sync:msg Phase,Round
type Msg struct {
	Phase int
	Round Round
	From  int
	Value int
}

// Outbox is the process's side of the network.
type Outbox interface {
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m Msg)
}
