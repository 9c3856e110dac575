// Package handlers is written in handler style: make-HO has no machine
// for it, and says so.
package handlers

type Role int

const (
	Follower Role = iota
	Candidate
)

//sync:msg Term,Role
type Message struct {
	Term uint64
	Role Role
}

// Node is one server.
//
//sync:tag term,role
type Node struct {
	term uint64
	role Role
}

// Step handles one received message.
//
//sync:handler
func (n *Node) Step(m Message) {
	if m.Term < n.term {
		return
	}
	if m.Term > n.term {
		n.term, n.role = m.Term, Follower
	}
}
