package raftprevote

// MessageType is the kind of a message.
type MessageType int32

// The message kinds.
const (
	// MsgHeartbeat is sent by a leader to assert its leadership.
	MsgHeartbeat MessageType = iota
	// MsgPreVote asks whether the receiver would vote for the sender in the
	// term Term.
	MsgPreVote
	// MsgPreVoteResp answers a MsgPreVote.
	MsgPreVoteResp
	// MsgVote asks the receiver to vote for the sender in term Term.
	MsgVote
	// MsgVoteResp answers a MsgVote.
	MsgVoteResp
)

// Step is the round part of the tag: where a node is in its term.
type Step int

// The rounds of a term.
const (
	// StepVote: an election is under way.
	StepVote Step = iota
	// StepLead: a leader is known (or the node leads).
	StepLead
	// StepPreVote: a pre-vote for the next term is under way.
	StepPreVote
)

// Message is every message of the protocol.
//
//sync:msg Phase(),Round()
type Message struct {
	Type MessageType
	To   int
	From int
	// Term is the sender's term, except for MsgPreVote and MsgPreVoteResp,
	// where it is the term the pre-candidate would campaign for.
	Term    uint64
	LogTerm uint64 // vote requests and heartbeats: term of the last entry
	Index   uint64 // vote requests and heartbeats: index of the last entry
	Reject  bool   // answers
}

// GetType returns the kind of m.
func (m *Message) GetType() MessageType {
	if m != nil {
		return m.Type
	}
	return MsgHeartbeat
}

// GetTerm returns the term field of m.
func (m *Message) GetTerm() uint64 {
	if m != nil {
		return m.Term
	}
	return 0
}

// Phase is the term the sender was in when it sent m.
func (m *Message) Phase() uint64 {
	switch m.GetType() {
	case MsgPreVote, MsgPreVoteResp:
		return m.GetTerm() - 1
	}
	return m.GetTerm()
}

// Round is the round of the term m was sent in.
func (m *Message) Round() Step {
	switch m.GetType() {
	case MsgPreVote, MsgPreVoteResp:
		return StepPreVote
	case MsgVote, MsgVoteResp:
		return StepVote
	}
	return StepLead
}
