package caspaxos

// Round is the round part of the tag, in execution order.
type Round int

// The rounds of a ballot.
const (
	// RoundPrepare: the proposer asks the acceptors to promise its ballot.
	RoundPrepare Round = iota
	// RoundPromise: the acceptors promise and return what they accepted.
	RoundPromise
	// RoundAccept: the proposer asks the acceptors to accept a new value.
	RoundAccept
	// RoundAccepted: the acceptors confirm.
	RoundAccepted
	// RoundDone: the proposer has committed; no message has this round.
	RoundDone
)

// Msg is a CASPaxos message. Every concrete type belongs to one round.
//
//sync:msg Ballot(),Round()
type Msg interface {
	// Ballot is the ballot the message belongs to.
	Ballot() uint64
	// Round is the round the message is sent in.
	Round() Round
}

// Prepare asks acceptors to promise ballot Bal.
type Prepare struct {
	Bal  uint64
	From int // proposer
}

// Promise answers a Prepare with what the acceptor accepted last.
type Promise struct {
	Bal         uint64
	From        int      // acceptor
	AcceptedBal uint64   // 0: nothing accepted yet
	Value       []string // accepted value
}

// Accept asks acceptors to accept Value in ballot Bal.
type Accept struct {
	Bal   uint64
	From  int
	Value []string
}

// Accepted confirms an Accept.
type Accepted struct {
	Bal  uint64
	From int
}

// Ballot implements Msg.
func (m *Prepare) Ballot() uint64 { return m.Bal }

// Round implements Msg.
func (m *Prepare) Round() Round { return RoundPrepare }

// Ballot implements Msg.
func (m *Promise) Ballot() uint64 { return m.Bal }

// Round implements Msg.
func (m *Promise) Round() Round { return RoundPromise }

// Ballot implements Msg.
func (m *Accept) Ballot() uint64 { return m.Bal }

// Round implements Msg.
func (m *Accept) Round() Round { return RoundAccept }

// Ballot implements Msg.
func (m *Accepted) Ballot() uint64 { return m.Bal }

// Round implements Msg.
func (m *Accepted) Round() Round { return RoundAccepted }

// Network carries messages between proposers and acceptors.
type Network interface {
	// ToAcceptors sends m to every acceptor.
	//
	//sync:send
	ToAcceptors(m Msg)
	// ToProposer sends m to proposer id.
	//
	//sync:send
	ToProposer(id int, m Msg)
}
