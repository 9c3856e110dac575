package raftprevote

// Role is what a node currently does.
type Role int

// The roles.
const (
	Follower Role = iota
	PreCandidate
	Candidate
	Leader
)

// None is the id of no node.
const None = -1

// Config configures a Node.
type Config struct {
	ID               int
	Peers            []int // every node, this one included
	ElectionTimeout  int   // in ticks
	HeartbeatTimeout int   // in ticks
}

// Node is one Raft node.
//
//sync:tag term,step
type Node struct {
	id    int
	peers []int

	term uint64
	step Step

	role     Role
	lead     int
	votedFor int

	lastIndex, lastTerm uint64 // position of the last log entry

	electionElapsed, heartbeatElapsed int
	electionTimeout, heartbeatTimeout int

	preVotes map[int]bool // answers to this node's pre-vote: granted or not
	votes    map[int]bool // answers to this node's vote request

	msgs []*Message // outbox
}

// NewNode returns a follower in term 0.
func NewNode(cfg Config) *Node {
	return &Node{id: cfg.ID, peers: cfg.Peers, lead: None, votedFor: None,
		electionTimeout: cfg.ElectionTimeout, heartbeatTimeout: cfg.HeartbeatTimeout,
		preVotes: make(map[int]bool), votes: make(map[int]bool)}
}

// send queues m in the outbox.
//
//sync:send
func (n *Node) send(m *Message) {
	m.From = n.id
	n.msgs = append(n.msgs, m)
}

// broadcast sends a copy of m to every other node.
func (n *Node) broadcast(m Message) {
	for _, p := range n.peers {
		if p != n.id {
			c := m
			c.To = p
			n.send(&c)
		}
	}
}

// ReadMessages returns the outbox and empties it.
func (n *Node) ReadMessages() []*Message {
	out := n.msgs
	n.msgs = nil
	return out
}

func (n *Node) quorum() int { return len(n.peers)/2 + 1 }

// Tick advances the node's clock by one tick.
//
//sync:handler
func (n *Node) Tick() {
	if n.role == Leader {
		n.heartbeatElapsed++
		if n.heartbeatElapsed >= n.heartbeatTimeout {
			n.heartbeatElapsed = 0
			n.broadcast(Message{Type: MsgHeartbeat, Term: n.term, LogTerm: n.lastTerm, Index: n.lastIndex})
		}
		return
	}
	n.electionElapsed++
	if n.electionElapsed < n.electionTimeout {
		return
	}
	n.electionElapsed = 0
	n.step = StepPreVote
	n.role = PreCandidate
	n.lead = None
	clear(n.votes) // a candidate's election is over
	clear(n.preVotes)
	n.preVotes[n.id] = true
	n.broadcast(Message{Type: MsgPreVote, Term: n.term + 1, LogTerm: n.lastTerm, Index: n.lastIndex})
}

// Step handles a message from another node.
//
//sync:handler
func (n *Node) Step(m *Message) {
	switch m.GetType() {
	case MsgHeartbeat:
		if m.Term < n.term || m.Term == n.term && n.step > StepLead {
			return // an old leader, or this term's leader after we gave up on it
		}
		if m.Term > n.term {
			n.becomeFollower(m.Term)
		}
		n.step = StepLead
		n.role = Follower
		n.lead = m.From
		clear(n.votes) // a candidate of this term lost
		n.electionElapsed = 0
		n.lastIndex, n.lastTerm = m.Index, m.LogTerm
	case MsgPreVote:
		if m.Phase() < n.term {
			return
		}
		n.handlePreVote(m)
	case MsgPreVoteResp:
		n.handlePreVoteResp(m)
	case MsgVote:
		if m.Term < n.term || m.Term == n.term && n.step != StepVote {
			return // an old election, or this term's election is over for us
		}
		if m.Term > n.term {
			n.becomeFollower(m.Term)
		}
		grant := (n.votedFor == None || n.votedFor == m.From) && n.upToDate(m.LogTerm, m.Index)
		if grant {
			n.votedFor = m.From
			n.electionElapsed = 0
		}
		n.send(&Message{Type: MsgVoteResp, To: m.From, Term: n.term, Reject: !grant})
	case MsgVoteResp:
		if n.role != Candidate || m.Term != n.term {
			return
		}
		n.votes[m.From] = !m.Reject
		if granted, _ := count(n.votes); granted >= n.quorum() {
			n.becomeLeader()
		}
	}
}

// handlePreVote answers a pre-vote request, unless this node still hears
// from a leader: then it ignores it, and the leader is not disturbed.
func (n *Node) handlePreVote(m *Message) {
	if n.role == Leader || n.lead != None && n.electionElapsed < n.electionTimeout {
		return
	}
	if m.Phase() > n.term {
		n.becomeFollower(m.Phase())
	}
	n.step = StepPreVote
	grant := n.upToDate(m.LogTerm, m.Index)
	n.send(&Message{Type: MsgPreVoteResp, To: m.From, Term: n.term + 1, Reject: !grant})
}

// handlePreVoteResp counts an answer to this node's pre-vote; with a quorum
// of grants it campaigns in the next term.
func (n *Node) handlePreVoteResp(m *Message) {
	if n.role != PreCandidate || m.Phase() != n.term {
		return
	}
	n.preVotes[m.From] = !m.Reject
	granted, rejected := count(n.preVotes)
	switch {
	case granted >= n.quorum():
		n.campaign()
	case rejected >= n.quorum():
		n.role = Follower // give up; the step stays: the next time-out retries
	}
}

// campaign starts an election in the next term.
func (n *Node) campaign() {
	n.term++
	n.step = StepVote
	n.role = Candidate
	n.votedFor = n.id
	n.lead = None
	clear(n.preVotes)
	clear(n.votes)
	n.votes[n.id] = true
	n.broadcast(Message{Type: MsgVote, Term: n.term, LogTerm: n.lastTerm, Index: n.lastIndex})
}

func (n *Node) becomeLeader() {
	n.step = StepLead
	n.role = Leader
	n.lead = n.id
	clear(n.votes)
	n.lastIndex++ // the leader's first entry of its term
	n.lastTerm = n.term
	n.heartbeatElapsed = 0
	n.broadcast(Message{Type: MsgHeartbeat, Term: n.term, LogTerm: n.lastTerm, Index: n.lastIndex})
}

// becomeFollower moves to the start of a later term.
func (n *Node) becomeFollower(term uint64) {
	n.term = term
	n.step = StepVote
	n.role = Follower
	n.votedFor = None
	n.lead = None
	clear(n.preVotes)
	clear(n.votes)
}

// upToDate reports whether a log ending at (term, index) is at least as
// up-to-date as this node's.
func (n *Node) upToDate(term, index uint64) bool {
	return term > n.lastTerm || term == n.lastTerm && index >= n.lastIndex
}

// count returns how many answers granted and how many rejected.
func count(answers map[int]bool) (granted, rejected int) {
	for _, ok := range answers {
		if ok {
			granted++
		} else {
			rejected++
		}
	}
	return granted, rejected
}

// Term returns the node's current term.
func (n *Node) Term() uint64 { return n.term }

// Role returns the node's current role.
func (n *Node) Role() Role { return n.role }

// Lead returns the leader the node knows of, or None.
func (n *Node) Lead() int { return n.lead }
