package etcdraft

// MessageType is the kind of a Message. Local messages (MsgHup, MsgBeat,
// MsgProp) are handed to Step by the node itself or by its driver and carry
// term 0; the others travel between nodes.
type MessageType int

// The message kinds.
const (
	// MsgHup is local: start an election.
	MsgHup MessageType = iota
	// MsgBeat is local: the leader's heartbeat is due.
	MsgBeat
	// MsgProp is local: append Entries to the leader's log.
	MsgProp
	// MsgVote asks for a vote in Term.
	MsgVote
	// MsgVoteResp grants (or, with Reject, refuses) a vote.
	MsgVoteResp
	// MsgApp replicates Entries after Index and carries the leader's
	// commit index; it is also the heartbeat.
	MsgApp
	// MsgAppResp acknowledges a MsgApp, or rejects it with a hint.
	MsgAppResp
)

// Stage is the exchange a node is in inside an append round, in order: a
// term starts with the election (round 0, stages Vote then VoteResp); each
// MsgApp the leader broadcasts opens the next round (stages App then
// AppResp).
type Stage int

// The stages of a round.
const (
	StageVote Stage = iota
	StageVoteResp
	StageApp
	StageAppResp
)

// Entry is one log entry; the entry of index i is at log[i-1].
type Entry struct {
	Term  uint64
	Index uint64
	Data  string
}

// Message is every message between nodes, and the local messages. Term,
// Round and the stage its Type maps to are the tag of the sender when it
// sent it; local message kinds are not mapped.
//
//sync:msg Term,Round,Type{MsgVote:StageVote,MsgVoteResp:StageVoteResp,MsgApp:StageApp,MsgAppResp:StageAppResp}
type Message struct {
	Type MessageType
	To   uint64
	From uint64
	Term uint64 // 0 for local messages
	// Round is the leader's append round in Term; 0 for votes.
	Round uint64
	// LogTerm is the term of the entry at Index (MsgApp), or of the
	// candidate's last entry (MsgVote).
	LogTerm uint64
	// Index precedes Entries (MsgApp), is the candidate's last index
	// (MsgVote), or the follower's last matching index (MsgAppResp).
	Index   uint64
	Entries []Entry
	Commit  uint64
	Reject  bool
	// RejectHint is the last index of a follower that rejects a MsgApp.
	RejectHint uint64
}
