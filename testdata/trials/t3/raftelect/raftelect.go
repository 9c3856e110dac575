package raftelect

import "math/rand/v2"

// Role is a server's round inside a term. The constants are in the order
// in which a server goes through them in one term.
type Role int

// The roles of a server.
const (
	Follower Role = iota
	Candidate
	Leader
)

// String returns the name of the role.
func (r Role) String() string {
	switch r {
	case Follower:
		return "Follower"
	case Candidate:
		return "Candidate"
	case Leader:
		return "Leader"
	}
	return "Role(?)"
}

// MsgType is the kind of a Message.
type MsgType int

// The message kinds of the election.
const (
	MsgVote      MsgType = iota // RequestVote: a candidate asks for a vote
	MsgVoteResp                 // the answer to a RequestVote
	MsgHeartbeat                // an empty AppendEntries of the leader
)

// None is the id of no server.
const None = -1

// Message is every message of the election. Term is the sender's term; the
// role is not carried.
//
//sync:msg Term,_
type Message struct {
	Type   MsgType
	From   int
	To     int
	Term   uint64
	Reject bool // MsgVoteResp: the vote was not granted
}

// Config configures a Node.
type Config struct {
	ID               int
	Peers            []int // every server of the cluster, this one included
	ElectionTimeout  int   // ticks without a leader before a campaign
	HeartbeatTimeout int   // ticks between two heartbeats of a leader

	// Rand draws the randomized election timeout, in
	// [ElectionTimeout, 2*ElectionTimeout), at every reset; nil keeps it
	// fixed at ElectionTimeout.
	Rand *rand.Rand
}

// Node is one Raft server, driven by calls to Step and Tick.
//
//sync:tag term,role
type Node struct {
	id    int
	peers []int

	term     uint64
	role     Role
	votedFor int
	lead     int

	votes map[int]bool // the mailbox of (term, Candidate): granted or not, per voter

	electionTimeout  int
	randomized       int // the election timeout of the current wait
	heartbeatTimeout int
	electionElapsed  int
	heartbeatElapsed int

	rng  *rand.Rand
	msgs []Message // the outbox the driver drains
}

// NewNode returns a follower in term 0.
func NewNode(c Config) *Node {
	n := &Node{
		id:               c.ID,
		peers:            append([]int(nil), c.Peers...),
		electionTimeout:  c.ElectionTimeout,
		heartbeatTimeout: c.HeartbeatTimeout,
		rng:              c.Rand,
	}
	n.becomeFollower(0, None)
	return n
}

// send puts m in the outbox.
//
//sync:send
func (n *Node) send(m Message) {
	m.From = n.id
	n.msgs = append(n.msgs, m)
}

// bcast sends a copy of m to every other server.
func (n *Node) bcast(m Message) {
	for _, p := range n.peers {
		if p != n.id {
			m.To = p
			n.send(m)
		}
	}
}

// Tick advances the node's logical clock by one tick.
//
//sync:handler
func (n *Node) Tick() {
	if n.role == Leader {
		n.heartbeatElapsed++
		if n.heartbeatElapsed >= n.heartbeatTimeout {
			n.heartbeatElapsed = 0
			n.bcast(Message{Type: MsgHeartbeat, Term: n.term})
		}
		return
	}
	n.electionElapsed++
	if n.electionElapsed >= n.randomized {
		n.campaign()
	}
}

// campaign starts an election in the next term.
func (n *Node) campaign() {
	n.becomeCandidate()
	if n.wonElection() {
		n.becomeLeader() // a cluster of one
		return
	}
	n.bcast(Message{Type: MsgVote, Term: n.term})
}

// Step handles one message received from another server.
//
//sync:handler
func (n *Node) Step(m Message) {
	if m.Term > n.term {
		lead := None
		if m.Type == MsgHeartbeat {
			lead = m.From
		}
		n.becomeFollower(m.Term, lead)
	}
	switch m.Type {
	case MsgVote:
		if m.Term < n.term {
			// Tell the stale candidate our term, so that it steps down.
			n.send(Message{Type: MsgVoteResp, To: m.From, Term: n.term, Reject: true})
			return
		}
		grant := n.votedFor == None || n.votedFor == m.From
		if grant {
			n.votedFor = m.From
			n.resetElectionTimer()
		}
		n.send(Message{Type: MsgVoteResp, To: m.From, Term: n.term, Reject: !grant})
	case MsgVoteResp:
		if m.Term != n.term || n.role != Candidate {
			return // a late answer to an earlier campaign, or we already won or lost
		}
		n.votes[m.From] = !m.Reject
		if n.wonElection() {
			n.becomeLeader()
			n.bcast(Message{Type: MsgHeartbeat, Term: n.term})
		}
	case MsgHeartbeat:
		if m.Term < n.term {
			return // a deposed leader: it learns our term from our next message
		}
		n.lead = m.From
		n.resetElectionTimer()
	}
}

// wonElection reports whether a majority of the cluster granted its vote.
func (n *Node) wonElection() bool {
	granted := 0
	for _, g := range n.votes {
		if g {
			granted++
		}
	}
	return granted > len(n.peers)/2
}

// becomeFollower moves to term as a follower of lead (None if unknown).
func (n *Node) becomeFollower(term uint64, lead int) {
	n.term, n.role = term, Follower
	n.votedFor = None
	n.lead = lead
	n.votes = map[int]bool{}
	n.resetElectionTimer()
}

// becomeCandidate starts the next term as a candidate that votes for
// itself.
func (n *Node) becomeCandidate() {
	n.term++
	n.role = Candidate
	n.votedFor = n.id
	n.lead = None
	n.votes = map[int]bool{n.id: true}
	n.resetElectionTimer()
}

// resetElectionTimer starts a new wait for a leader, with a new randomized
// timeout so that candidates rarely split the votes twice in a row.
func (n *Node) resetElectionTimer() {
	n.electionElapsed = 0
	n.randomized = n.electionTimeout
	if n.rng != nil {
		n.randomized += n.rng.IntN(n.electionTimeout)
	}
}

// becomeLeader makes the candidate the leader of its term.
func (n *Node) becomeLeader() {
	n.role = Leader
	n.lead = n.id
	n.votes = map[int]bool{}
	n.heartbeatElapsed = 0
}

// ReadMessages returns the outbox and empties it.
func (n *Node) ReadMessages() []Message {
	msgs := n.msgs
	n.msgs = nil
	return msgs
}

// Term returns the current term.
func (n *Node) Term() uint64 { return n.term }

// Role returns the current role.
func (n *Node) Role() Role { return n.role }

// Lead returns the leader the node knows of in its term, or None.
func (n *Node) Lead() int { return n.lead }
