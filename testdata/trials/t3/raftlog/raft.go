package raftlog

import "slices"

// None is the id of no node.
const None uint64 = 0

// StateType is a node's role inside a term. The constants are declared in
// the order of the rounds of a term: first its election (candidates), then
// replication by its leader to its followers. A candidate that hears from
// the leader of its own term becomes its follower: a step forward.
type StateType int

// The roles.
const (
	StateCandidate StateType = iota
	StateFollower
	StateLeader
)

// Raft is one node: the log replication of Raft with the leader election
// it needs. The driver hands it messages through Step and drains the
// messages it sends with ReadMessages.
//
//sync:tag term,state
type Raft struct {
	id    uint64
	peers []uint64 // every node, this one included

	term  uint64
	state StateType
	vote  uint64 // whom this node voted for in term
	lead  uint64

	log    []Entry // log[0] is a sentinel; log[i].Index == i
	commit uint64

	// The mailbox of the term: what was counted from its messages. reset
	// empties it whenever the term or the role changes.
	votes map[uint64]bool   // candidate: the answers to its MsgVote
	match map[uint64]uint64 // leader: the highest index each node holds
	next  map[uint64]uint64 // leader: the next index to send to each node

	msgs []Message // the outbox the driver drains
}

// New returns node id of the cluster peers (which includes id), a follower
// of term 0 with an empty log.
func New(id uint64, peers []uint64) *Raft {
	r := &Raft{id: id, peers: peers, state: StateFollower, log: []Entry{{}}}
	r.reset(0)
	return r
}

// Step handles one message: a local one (term 0) or one from a peer.
//
//sync:handler
func (r *Raft) Step(m *Message) {
	switch {
	case m.GetTerm() == 0:
		// A tick or a proposal from this node's own driver.
	case m.GetTerm() > r.term:
		lead := None
		if m.Type == MsgApp {
			lead = m.From
		}
		r.becomeFollower(m.GetTerm(), lead)
	case m.GetTerm() < r.term:
		if m.Type == MsgApp {
			// A deposed leader: tell it our term so that it steps down.
			r.send(&Message{To: m.From, Type: MsgAppResp, Reject: boolp(true)})
		}
		return
	}
	switch m.Type {
	case MsgHup:
		r.campaign()
	case MsgBeat:
		if r.state == StateLeader {
			r.bcastAppend()
		}
	case MsgProp:
		r.propose(m.Entries)
	case MsgVote:
		r.handleVote(m)
	case MsgVoteResp:
		r.handleVoteResp(m)
	case MsgApp:
		r.handleAppend(m)
	case MsgAppResp:
		r.handleAppendResp(m)
	}
}

// send queues m, stamped with the sender and the current term.
//
//sync:send stamps
func (r *Raft) send(m *Message) {
	m.From = r.id
	m.Term = u64(r.term)
	r.msgs = append(r.msgs, *m)
}

// reset enters term (at least the current one) with an empty mailbox.
func (r *Raft) reset(term uint64) {
	if term != r.term {
		r.term = term
		r.vote = None
	}
	r.lead = None
	r.votes = map[uint64]bool{}
	r.match = map[uint64]uint64{}
	r.next = map[uint64]uint64{}
}

func (r *Raft) becomeFollower(term, lead uint64) {
	r.reset(term)
	r.state = StateFollower
	r.lead = lead
}

func (r *Raft) becomeCandidate() {
	r.reset(r.term + 1)
	r.state = StateCandidate
	r.vote = r.id
	r.votes[r.id] = true
}

func (r *Raft) becomeLeader() {
	r.reset(r.term)
	r.state = StateLeader
	r.lead = r.id
	// An empty entry of the new term lets the leader commit what earlier
	// terms left uncommitted.
	r.log = append(r.log, Entry{Term: r.term, Index: r.lastIndex() + 1})
	for _, p := range r.peers {
		r.next[p] = r.lastIndex() + 1
	}
	r.match[r.id] = r.lastIndex()
	r.bcastAppend()
}

func (r *Raft) campaign() {
	if r.state == StateLeader {
		return
	}
	r.becomeCandidate()
	if r.quorum(len(r.votes)) {
		r.becomeLeader() // a cluster of one
		return
	}
	for _, p := range r.peers {
		if p != r.id {
			r.send(&Message{To: p, Type: MsgVote, Index: u64(r.lastIndex()), LogTerm: u64(r.lastTerm())})
		}
	}
}

func (r *Raft) handleVote(m *Message) {
	upToDate := m.GetLogTerm() > r.lastTerm() ||
		(m.GetLogTerm() == r.lastTerm() && m.GetIndex() >= r.lastIndex())
	grant := upToDate && (r.vote == None || r.vote == m.From)
	if grant {
		r.vote = m.From
	}
	r.send(&Message{To: m.From, Type: MsgVoteResp, Reject: boolp(!grant)})
}

func (r *Raft) handleVoteResp(m *Message) {
	if r.state != StateCandidate {
		return
	}
	r.votes[m.From] = !m.GetReject()
	granted := 0
	for _, g := range r.votes {
		if g {
			granted++
		}
	}
	switch {
	case r.quorum(granted):
		r.becomeLeader()
	case r.quorum(len(r.votes) - granted):
		r.becomeFollower(r.term, None) // lost: wait for the winner
	}
}

func (r *Raft) propose(es []Entry) {
	if r.state != StateLeader {
		return // the driver retries at the leader
	}
	for _, e := range es {
		r.log = append(r.log, Entry{Term: r.term, Index: r.lastIndex() + 1, Data: e.Data})
	}
	r.match[r.id] = r.lastIndex()
	r.maybeCommit()
	r.bcastAppend()
}

func (r *Raft) bcastAppend() {
	for _, p := range r.peers {
		if p != r.id {
			r.sendAppend(p)
		}
	}
}

func (r *Raft) sendAppend(to uint64) {
	prev := r.next[to] - 1
	r.send(&Message{
		To: to, Type: MsgApp,
		Index: u64(prev), LogTerm: u64(r.log[prev].Term),
		Entries: slices.Clone(r.log[prev+1:]), Commit: u64(r.commit),
	})
}

func (r *Raft) handleAppend(m *Message) {
	if r.state == StateCandidate {
		r.becomeFollower(r.term, m.From)
	}
	r.lead = m.From
	prev := m.GetIndex()
	if prev > r.lastIndex() || r.log[prev].Term != m.GetLogTerm() {
		r.send(&Message{To: m.From, Type: MsgAppResp, Index: u64(r.lastIndex()), Reject: boolp(true)})
		return
	}
	for i, e := range m.Entries {
		idx := prev + 1 + uint64(i)
		if idx <= r.lastIndex() {
			if r.log[idx].Term == e.Term {
				continue
			}
			r.log = r.log[:idx] // a conflicting suffix of an old term
		}
		r.log = append(r.log, e)
	}
	last := prev + uint64(len(m.Entries))
	if c := min(m.GetCommit(), last); c > r.commit {
		r.commit = c
	}
	r.send(&Message{To: m.From, Type: MsgAppResp, Index: u64(last)})
}

func (r *Raft) handleAppendResp(m *Message) {
	if r.state != StateLeader {
		return
	}
	if m.GetReject() {
		// The follower's log does not hold our entry at next-1: back off,
		// at once to just past its last entry when that is shorter.
		r.next[m.From] = max(1, min(r.next[m.From]-1, m.GetIndex()+1))
		r.sendAppend(m.From)
		return
	}
	if m.GetIndex() > r.match[m.From] {
		r.match[m.From] = m.GetIndex()
		r.next[m.From] = m.GetIndex() + 1
		r.maybeCommit()
	}
}

// maybeCommit commits the highest entry of the current term that a quorum
// holds (Raft commits entries of earlier terms only through it).
func (r *Raft) maybeCommit() {
	for idx := r.lastIndex(); idx > r.commit && r.log[idx].Term == r.term; idx-- {
		n := 0
		for _, mi := range r.match {
			if mi >= idx {
				n++
			}
		}
		if r.quorum(n) {
			r.commit = idx
			return
		}
	}
}

func (r *Raft) quorum(n int) bool { return n > len(r.peers)/2 }

func (r *Raft) lastIndex() uint64 { return uint64(len(r.log) - 1) }

func (r *Raft) lastTerm() uint64 { return r.log[r.lastIndex()].Term }

// ReadMessages drains the outbox.
func (r *Raft) ReadMessages() []Message {
	ms := r.msgs
	r.msgs = nil
	return ms
}

// Term returns the current term.
func (r *Raft) Term() uint64 { return r.term }

// IsLeader reports whether the node leads its term.
func (r *Raft) IsLeader() bool { return r.state == StateLeader }

// Committed returns the committed entries.
func (r *Raft) Committed() []Entry { return slices.Clone(r.log[1 : r.commit+1]) }
