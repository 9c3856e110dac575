package paxoshandlers

// Step is the round of a ballot, in execution order.
type Step int

// The four rounds of a ballot.
const (
	StepPrepare  Step = iota // 1a: the proposer asks the acceptors to join its ballot
	StepPromise              // 1b: the acceptors promise, reporting what they accepted
	StepAccept               // 2a: the proposer asks them to accept a value
	StepAccepted             // 2b: the acceptors report that they accepted it
)

// Value is a value the proposers try to get chosen.
type Value string

// Message is any message of the protocol.
type Message interface {
	sender() int
}

// Prepare is a proposer's phase 1a message.
//
//sync:msg Ballot,StepPrepare
type Prepare struct {
	Ballot uint64
	From   int
}

// Promise is an acceptor's phase 1b answer: it will not accept ballots
// below Ballot, and it last accepted AccValue in ballot AccBallot (0: none).
//
//sync:msg Ballot,StepPromise
type Promise struct {
	Ballot    uint64
	From      int
	AccBallot uint64
	AccValue  Value
}

// Accept is a proposer's phase 2a message.
//
//sync:msg Ballot,StepAccept
type Accept struct {
	Ballot uint64
	From   int
	Value  Value
}

// Accepted is an acceptor's phase 2b answer.
//
//sync:msg Ballot,StepAccepted
type Accepted struct {
	Ballot uint64
	From   int
	Value  Value
}

func (m Prepare) sender() int  { return m.From }
func (m Promise) sender() int  { return m.From }
func (m Accept) sender() int   { return m.From }
func (m Accepted) sender() int { return m.From }

// Transport carries messages between the nodes; it may lose, delay and
// reorder them.
type Transport interface {
	// Send sends m to node to.
	//
	//sync:send
	Send(to int, m Message)
	// Broadcast sends m to every node, the sender included.
	//
	//sync:send
	Broadcast(m Message)
}

// Acceptor is the acceptor role of a node.
//
//sync:tag ballot,step
type Acceptor struct {
	id  int
	net Transport

	ballot uint64 // the highest ballot promised
	step   Step   // how far this acceptor went in ballot

	accBallot uint64 // the ballot of the last accepted value, 0 if none
	accValue  Value
}

// NewAcceptor returns an acceptor that promised nothing.
func NewAcceptor(id int, net Transport) *Acceptor {
	return &Acceptor{id: id, net: net}
}

// OnPrepare handles a Prepare: promise a ballot higher than any promised.
//
//sync:handler
func (a *Acceptor) OnPrepare(m Prepare) {
	if m.Ballot <= a.ballot {
		return // promised this ballot or a higher one already
	}
	a.ballot, a.step = m.Ballot, StepPrepare
	a.step = StepPromise
	a.net.Send(m.From, Promise{Ballot: a.ballot, From: a.id, AccBallot: a.accBallot, AccValue: a.accValue})
}

// OnAccept handles an Accept: accept the value unless a higher ballot was
// promised, or this ballot's value was accepted already.
//
//sync:handler
func (a *Acceptor) OnAccept(m Accept) {
	if m.Ballot < a.ballot || m.Ballot == a.ballot && a.step >= StepAccept {
		return
	}
	if m.Ballot > a.ballot {
		a.ballot = m.Ballot // a ballot whose Prepare we missed: join it
	}
	a.step = StepAccept
	a.accBallot, a.accValue = m.Ballot, m.Value
	a.step = StepAccepted
	a.net.Send(m.From, Accepted{Ballot: a.ballot, From: a.id, Value: a.accValue})
}

// Proposer is the proposer role of a node: it tries to get its value
// chosen, in ballots attempt*n + id.
//
//sync:tag ballot,step
type Proposer struct {
	id, n int
	net   Transport
	value Value // the value this proposer wants chosen

	attempt uint64
	ballot  uint64
	step    Step

	promises map[int]Promise // the mailbox of (ballot, StepPromise)
	accepts  map[int]bool    // the mailbox of (ballot, StepAccepted)
	proposal Value           // the value proposed in phase 2 of ballot

	decided bool
	chosen  Value
}

// NewProposer returns proposer id of n, which proposes v.
func NewProposer(id, n int, net Transport, v Value) *Proposer {
	return &Proposer{id: id, n: n, net: net, value: v}
}

// OnTimeout starts phase 1 of a new ballot: the first attempt, or a retry
// after the previous ballot made no progress.
//
//sync:handler
func (p *Proposer) OnTimeout() {
	if p.decided {
		return
	}
	p.attempt++
	p.ballot = p.attempt*uint64(p.n) + uint64(p.id)
	p.step = StepPrepare
	p.promises = map[int]Promise{}
	p.accepts = map[int]bool{}
	p.net.Broadcast(Prepare{Ballot: p.ballot, From: p.id})
	p.step = StepPromise
}

// OnPromise handles a Promise; with a majority, it starts phase 2 with the
// value accepted in the highest ballot, or its own value if none was.
//
//sync:handler
func (p *Proposer) OnPromise(m Promise) {
	if m.Ballot != p.ballot || p.step != StepPromise {
		return // a late promise for an earlier ballot, or phase 1 is over
	}
	p.promises[m.From] = m
	if len(p.promises) <= p.n/2 {
		return
	}
	p.proposal = p.value
	var highest uint64
	for _, pr := range p.promises {
		if pr.AccBallot > highest {
			highest, p.proposal = pr.AccBallot, pr.AccValue
		}
	}
	p.promises = map[int]Promise{}
	p.step = StepAccept
	p.net.Broadcast(Accept{Ballot: p.ballot, From: p.id, Value: p.proposal})
	p.step = StepAccepted
}

// OnAccepted handles an Accepted; a majority for the ballot means the
// proposal is chosen.
//
//sync:handler
func (p *Proposer) OnAccepted(m Accepted) {
	if m.Ballot != p.ballot || p.step != StepAccepted {
		return
	}
	p.accepts[m.From] = true
	if len(p.accepts) > p.n/2 && !p.decided {
		p.decided, p.chosen = true, p.proposal
	}
}

// Decided returns the value this proposer learnt was chosen, if any.
func (p *Proposer) Decided() (Value, bool) { return p.chosen, p.decided }

// Ballot returns the proposer's current ballot.
func (p *Proposer) Ballot() uint64 { return p.ballot }
