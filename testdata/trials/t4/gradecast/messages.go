package gradecast

// Step is the round part of the tag (inst, step): the round of a process
// inside its current instance, declared in execution order.
type Step int

// The three rounds of a gradecast instance.
const (
	// Propose: the dealer sends its value.
	Propose Step = iota
	// Echo: everybody relays the value it got from the dealer.
	Echo
	// Vote: a process that saw n-f equal echoes votes for that value.
	Vote
)

// Msg is a message of the protocol; the inboxes carry this interface and
// the rounds recover the concrete message with a type assertion.
type Msg interface {
	// Sender returns the id of the process that sent the message.
	Sender() int
}

// ProposeMsg is the dealer's value for instance Inst.
//
//sync:msg Inst,Propose
type ProposeMsg struct {
	Inst  int
	From  int
	Value string
}

// EchoMsg relays the value its sender got from the dealer of Inst.
//
//sync:msg Inst,Echo
type EchoMsg struct {
	Inst  int
	From  int
	Value string
}

// VoteMsg is sent by a process that received n-f echoes of Value in
// instance Inst.
//
//sync:msg Inst,Vote
type VoteMsg struct {
	Inst  int
	From  int
	Value string
}

// Sender implements Msg.
func (m ProposeMsg) Sender() int { return m.From }

// Sender implements Msg.
func (m EchoMsg) Sender() int { return m.From }

// Sender implements Msg.
func (m VoteMsg) Sender() int { return m.From }

func (m EchoMsg) value() string { return m.Value }
func (m VoteMsg) value() string { return m.Value }
