package raftelect

import "time"

// Step is the round inside a term.
type Step int

// The rounds of a term.
const (
	Solicit Step = iota
	Grant
	Lead
)

// Role is what a node is in its current term.
type Role int

// Raft's three roles.
const (
	Follower Role = iota
	Candidate
	Leader
)

// RequestVote asks for votes when Stand is set. Every node sends one in
// every term, so that round Solicit ends as soon as every node was heard
// of: one with Stand false only announces its term and that it does not
// run (Raft's followers stay silent and the round would always end on its
// timer, racing with the nodes that already moved on).
//
//sync:msg Term,Solicit
type RequestVote struct {
	Term     int
	From     int
	Stand    bool
	LastTerm int // term of the last leader the sender followed
}

// VoteGranted is a vote for the candidate it is sent to.
//
//sync:msg Term,Grant
type VoteGranted struct {
	Term int
	From int
}

// Heartbeat announces the leader of a term.
//
//sync:msg Term,Lead
type Heartbeat struct {
	Term int
	From int
}

// Node is one Raft node, election only.
type Node struct {
	id      int
	size    int
	tr      Transport
	timeout time.Duration
	stand   func(term int) bool // whether the node's election timer fires in term

	term int
	step Step

	role     Role
	lastTerm int         // term of the last leader followed
	leaders  map[int]int // term -> leader, as seen by this node
}

// NewNode returns node id of a cluster of size nodes.
func NewNode(id, size int, tr Transport, stand func(int) bool, timeout time.Duration) *Node {
	return &Node{id: id, size: size, tr: tr, stand: stand, timeout: timeout, leaders: make(map[int]int)}
}

// Leaders returns the leader this node knows of each term.
func (n *Node) Leaders() map[int]int { return n.leaders }

// choose returns the candidate to vote for among the requests of the
// current term, or -1.
func (n *Node) choose(reqs map[int]RequestVote) int {
	if n.role == Candidate {
		return n.id
	}
	best := -1
	for from, rv := range reqs {
		if rv.Stand && rv.Term == n.term && rv.LastTerm >= n.lastTerm && (best < 0 || from < best) {
			best = from
		}
	}
	return best
}

// Run runs at most maxTerms terms.
func (n *Node) Run(maxTerms int) {
	majority := n.size/2 + 1
	//sync:tag n.term,n.step
	for i := 0; i < maxTerms; i++ {
		n.term++
		n.step = Solicit
		n.role = Follower
		if n.stand(n.term) {
			n.role = Candidate
		}
		n.tr.Broadcast(RequestVote{Term: n.term, From: n.id, Stand: n.role == Candidate, LastTerm: n.lastTerm})

		reqs := make(map[int]RequestVote)
		for len(reqs) < n.size {
			raw, ok := n.tr.Recv(n.timeout)
			if !ok {
				break
			}
			rv, isRV := raw.(RequestVote)
			if !isRV || rv.Term < n.term {
				continue
			}
			reqs[rv.From] = rv
		}
		// Step down to the highest term a candidate asked for.
		hi := n.term
		for _, rv := range reqs {
			hi = max(hi, rv.Term)
		}
		if hi > n.term {
			n.term = hi
			n.role = Follower
		}

		choice := n.choose(reqs)
		n.step = Grant
		if choice >= 0 {
			n.tr.Send(choice, VoteGranted{Term: n.term, From: n.id})
		}
		if n.role == Candidate {
			votes := make(map[int]bool)
			for len(votes) < majority {
				raw, ok := n.tr.Recv(n.timeout)
				if !ok {
					break
				}
				vg, isVG := raw.(VoteGranted)
				if !isVG || vg.Term != n.term {
					continue
				}
				votes[vg.From] = true
			}
			if len(votes) >= majority {
				n.role = Leader
			}
		}

		n.step = Lead
		if n.role == Leader {
			n.tr.Broadcast(Heartbeat{Term: n.term, From: n.id})
		}
		var hbs []Heartbeat
		for len(hbs) == 0 {
			raw, ok := n.tr.Recv(n.timeout)
			if !ok {
				break
			}
			hb, isHB := raw.(Heartbeat)
			if !isHB || hb.Term < n.term {
				continue
			}
			hbs = append(hbs, hb)
		}
		if len(hbs) == 0 {
			continue // no leader this term
		}
		if hbs[0].Term > n.term {
			n.term = hbs[0].Term // a leader of a later term: follow it there
			n.role = Follower
		}
		n.lastTerm = hbs[0].Term
		n.leaders[hbs[0].Term] = hbs[0].From
	}
}
