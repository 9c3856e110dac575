// Package localmsg passes its timer ticks to the same handler as network
// messages, as local messages of term 0: on the path where the handler
// has seen term 0, the message is not a network message and no condition
// is about it. Without the //sync:local directive, the tick would be a
// stale message changing the state.
package localmsg

type Kind int

const (
	Tick Kind = iota
	Vote
)

// Message is a network message, or a local tick of term 0.
//
//sync:msg Term,_
//sync:local Term==0
type Message struct {
	Kind Kind
	Term uint64
	From int
}

type Role int

const (
	Candidate Role = iota
	Follower
)

//sync:tag term,role
type Node struct {
	term    uint64
	role    Role
	elapsed int
	votes   map[int]bool
}

// Step handles ticks and votes.
//
//sync:handler
func (n *Node) Step(m Message) {
	if m.Term == 0 {
		n.elapsed++
		return
	}
	if m.Term < n.term {
		return
	}
	if m.Term > n.term {
		n.term, n.role = m.Term, Follower
		n.votes = map[int]bool{}
	}
	n.votes[m.From] = true
}

// StepNoFilter counts every vote, of any term: one of an earlier term
// changes the state (III), and the data of a later one is kept without a
// jump to its term (IV).
//
//sync:handler
func (n *Node) StepNoFilter(m Message) {
	if m.Term == 0 {
		n.elapsed++
		return
	}
	n.votes[m.From] = true // want `cannot prove 3: the state changes while the received Message may be of an earlier round than \(term,role\) was when the handler was called: such a message must leave the state unchanged`
} // want `cannot prove 4: the process returns while a Message that may be of a later round is kept, without a jump to its round first`
