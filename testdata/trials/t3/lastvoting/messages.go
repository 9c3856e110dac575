package lastvoting

// Step is the round of a process inside a phase.
type Step int

// The four rounds of a phase, in order.
const (
	StepCollect Step = iota // everybody sends its estimate to the coordinator
	StepVote                // the coordinator sends the estimate it chose
	StepAck                 // who adopted it acknowledges
	StepDecide              // the coordinator announces the decision
)

// Message is any message of the protocol.
type Message interface{ isMessage() }

// Estimate is a process's current value and the phase it adopted it in.
//
//sync:msg Phase,StepCollect
type Estimate struct {
	Phase uint32
	From  int
	Value string
	TS    uint32
}

// Vote is the value the coordinator chose from a majority of estimates.
//
//sync:msg Phase,StepVote
type Vote struct {
	Phase uint32
	From  int
	Value string
}

// Ack says that its sender adopted the vote of Phase.
//
//sync:msg Phase,StepAck
type Ack struct {
	Phase uint32
	From  int
}

// Decide announces that a majority adopted Value.
//
//sync:msg Phase,StepDecide
type Decide struct {
	Phase uint32
	From  int
	Value string
}

func (Estimate) isMessage() {}
func (Vote) isMessage()     {}
func (Ack) isMessage()      {}
func (Decide) isMessage()   {}

// Transport carries messages between processes.
type Transport interface {
	// Send sends m to process to (possibly the sender).
	//
	//sync:send
	Send(to int, m Message)
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m Message)
}

// Tally keeps at most one message per sender.
type Tally[M any] struct {
	from map[int]M
}

func newTally[M any]() Tally[M] { return Tally[M]{from: map[int]M{}} }

// Add records m from sender from and returns how many senders it holds.
func (t Tally[M]) Add(from int, m M) int {
	t.from[from] = m
	return len(t.from)
}

// All returns the messages held.
func (t Tally[M]) All() []M {
	ms := make([]M, 0, len(t.from))
	for _, m := range t.from {
		ms = append(ms, m)
	}
	return ms
}
