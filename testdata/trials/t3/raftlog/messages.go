package raftlog

// MessageType says what a Message is.
type MessageType int32

// The message types. The first three are local: the driver hands them to
// the node it belongs to, with no term.
const (
	MsgHup      MessageType = iota // local: the election timeout fired
	MsgBeat                        // local: the heartbeat timeout fired
	MsgProp                        // local: a client proposes entries
	MsgVote                        // a candidate asks for a vote
	MsgVoteResp                    // the answer to MsgVote
	MsgApp                         // the leader appends entries (or heartbeats)
	MsgAppResp                     // the answer to MsgApp
)

// Entry is one log entry.
type Entry struct {
	Term  uint64
	Index uint64
	Data  string
}

// Message is the wire message, shaped like generated protobuf code: the
// optional scalar fields are pointers and are read through getters that
// return the zero value for a missing field.
//
//sync:msg GetTerm(),_
//sync:local GetTerm()==0
type Message struct {
	Type    MessageType
	To      uint64
	From    uint64
	Term    *uint64
	LogTerm *uint64
	Index   *uint64
	Entries []Entry
	Commit  *uint64
	Reject  *bool
}

// GetTerm returns the term of m, 0 when it has none (local messages).
func (m *Message) GetTerm() uint64 {
	if m != nil && m.Term != nil {
		return *m.Term
	}
	return 0
}

// GetLogTerm returns the term of the entry that precedes m's entries.
func (m *Message) GetLogTerm() uint64 {
	if m != nil && m.LogTerm != nil {
		return *m.LogTerm
	}
	return 0
}

// GetIndex returns the index of the entry that precedes m's entries (MsgApp),
// the last index of the sender's log (MsgVote) or the index acknowledged
// (MsgAppResp).
func (m *Message) GetIndex() uint64 {
	if m != nil && m.Index != nil {
		return *m.Index
	}
	return 0
}

// GetCommit returns the leader's commit index carried by m.
func (m *Message) GetCommit() uint64 {
	if m != nil && m.Commit != nil {
		return *m.Commit
	}
	return 0
}

// GetReject reports whether m is a refusal.
func (m *Message) GetReject() bool {
	return m != nil && m.Reject != nil && *m.Reject
}

func u64(v uint64) *uint64 { return &v }

func boolp(v bool) *bool { return &v }
