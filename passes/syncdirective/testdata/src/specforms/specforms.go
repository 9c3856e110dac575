// Package specforms holds the examples of the specification of the
// process form, as written there: every one is accepted silently.
package specforms

// Role is a server's step inside a term.
type Role int

const (
	Follower Role = iota
	Candidate
	Leader
)

type MsgType int

const (
	MsgVote MsgType = iota
	MsgVoteResp
)

// Node is one Raft server.
//
//sync:tag term,role
type Node struct {
	id    int
	term  uint64
	role  Role
	votes map[int]bool // the mailbox of the current term
	out   []Message    // the outbox the driver drains
}

// Message is every message of the protocol.
//
//sync:msg Term,_
type Message struct {
	Type    MsgType
	From    int
	Term    uint64
	Granted bool
}

// send appends m to the outbox.
//
//sync:send
func (n *Node) send(m Message) { n.out = append(n.out, m) }

// Step handles one received message.
//
//sync:handler
func (n *Node) Step(m Message) {
	if m.Term < n.term {
		return // stale: ignored
	}
	if m.Term > n.term {
		n.term, n.role = m.Term, Follower // jump to the message's term
		n.votes = map[int]bool{}          // and empty the old term's mailbox
	}
}

// Tick is a timer event.
//
//sync:handler
func (n *Node) Tick() {
	n.term++
	n.role = Candidate
	n.votes = map[int]bool{}
	n.send(Message{Type: MsgVote, From: n.id, Term: n.term})
}

type MessageType byte

// ConsensusPayload is what replicas exchange.
//
//sync:msg Height(),ViewNumber()
type ConsensusPayload interface {
	Height() uint32
	ViewNumber() byte
	Type() MessageType
}

// Header nests the tag of a replica.
type Header struct {
	Height uint32
	View   byte
}

// DBFT is a dBFT replica.
//
//sync:tag hdr.Height,hdr.View
type DBFT struct{ hdr Header }

// OnReceive handles a payload.
//
//sync:handler
func (d *DBFT) OnReceive(p ConsensusPayload) {}

// OnTimeout is a timer event.
//
//sync:handler
func (d *DBFT) OnTimeout(h uint32, v byte) {}

type SignedMsgType int32

const (
	UnknownType   SignedMsgType = 0
	PrevoteType   SignedMsgType = 1
	PrecommitType SignedMsgType = 2
	ProposalType  SignedMsgType = 32
)

type RoundStepType uint8

const (
	RoundStepNewHeight RoundStepType = iota + 1
	RoundStepPropose
	RoundStepPrevote
	RoundStepPrecommit
)

// Vote is a CometBFT vote.
//
//sync:msg Height,Round,Type{UnknownType:RoundStepNewHeight,PrevoteType:RoundStepPrevote,PrecommitType:RoundStepPrecommit,ProposalType:RoundStepPropose}
type Vote struct {
	Height int64
	Round  int32
	Type   SignedMsgType
}

// State is a CometBFT consensus state.
//
//sync:tag rs.Height,rs.Round,rs.Step
type State struct{ rs *RoundState }

// RoundState is the state's tag.
type RoundState struct {
	Height int64
	Round  int32
	Step   RoundStepType
}

// AddVote handles a vote.
//
//sync:handler
func (cs *State) AddVote(v *Vote, peer string) {}

// PbMessage has an optional term; term 0 marks a local message.
//
//sync:msg GetTerm()
//sync:local GetTerm()==0
type PbMessage struct{ Term *uint64 }

// GetTerm returns 0 for nil.
func (m *PbMessage) GetTerm() uint64 {
	if m == nil || m.Term == nil {
		return 0
	}
	return *m.Term
}

// Raft stamps its sends.
//
//sync:tag Term
type Raft struct {
	Term uint64
	msgs []PbMessage
}

// send stamps m with the current term.
//
//sync:send stamps
func (r *Raft) send(m PbMessage) {
	t := r.Term
	m.Term = &t
	r.msgs = append(r.msgs, m)
}

// Step handles a message.
//
//sync:handler
func (r *Raft) Step(m PbMessage) { r.send(PbMessage{}) }
