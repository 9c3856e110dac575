package etcdraft

import (
	"math/rand/v2"
	"slices"
)

// None is the id of no node; node ids start at 1.
const None uint64 = 0

// StateType is the role of a node.
type StateType int

// The roles.
const (
	StateFollower StateType = iota
	StateCandidate
	StateLeader
)

// Config configures a node.
type Config struct {
	ID            uint64
	Peers         []uint64 // every node, this one included
	ElectionTick  int      // ticks without a leader before campaigning (randomized up to twice)
	HeartbeatTick int      // ticks between two heartbeats of a leader
	Rand          *rand.Rand
}

type stepFunc func(r *raft, m Message)

// raft is one node. The driver hands it messages with Step and time with
// Tick, and drains the messages it sent from msgs.
//
//sync:tag Term,Round,stage
type raft struct {
	id    uint64
	peers []uint64

	Term  uint64
	Vote  uint64
	Round uint64 // the append round of the leader of Term; 0 during the election
	stage Stage

	state  StateType
	lead   uint64
	log    []Entry
	commit uint64

	votes map[uint64]bool   // election mailbox: granted (or not), by voter
	acks  map[uint64]uint64 // append-round mailbox: last matching index, by node
	next  map[uint64]uint64 // leader: the next index to send to each node

	msgs []Message // sent messages, drained by the driver

	electionElapsed           int
	heartbeatElapsed          int
	electionTimeout           int
	heartbeatTimeout          int
	randomizedElectionTimeout int
	rand                      *rand.Rand

	tick func()
	step stepFunc
}

func newRaft(c *Config) *raft {
	r := &raft{
		id:               c.ID,
		peers:            slices.Clone(c.Peers),
		electionTimeout:  c.ElectionTick,
		heartbeatTimeout: c.HeartbeatTick,
		rand:             c.Rand,
	}
	r.becomeFollower(1, None)
	return r
}

func (r *raft) quorum() int       { return len(r.peers)/2 + 1 }
func (r *raft) lastIndex() uint64 { return uint64(len(r.log)) }

func (r *raft) lastTerm() uint64 {
	if len(r.log) == 0 {
		return 0
	}
	return r.log[len(r.log)-1].Term
}

func (r *raft) termAt(i uint64) uint64 {
	if i == 0 || i > r.lastIndex() {
		return 0
	}
	return r.log[i-1].Term
}

// send queues m. Like etcd, it stamps the term (and here the round) of
// every message but votes, whose term the caller sets.
//
//sync:send stamps
func (r *raft) send(m Message) {
	m.From = r.id
	if m.Type != MsgVote && m.Type != MsgVoteResp {
		m.Term = r.Term
		m.Round = r.Round
	}
	r.msgs = append(r.msgs, m)
}

// reset moves to term, emptying the mailboxes; the tag goes to the start
// of the term's election.
func (r *raft) reset(term uint64) {
	if r.Term != term {
		r.Term = term
		r.Vote = None
		r.Round, r.stage = 0, StageVote
	}
	r.lead = None
	r.electionElapsed = 0
	r.heartbeatElapsed = 0
	r.randomizedElectionTimeout = r.electionTimeout + r.rand.IntN(r.electionTimeout)
	r.votes = make(map[uint64]bool)
	r.acks = make(map[uint64]uint64)
}

func (r *raft) becomeFollower(term, lead uint64) {
	r.step = stepFollower
	r.reset(term)
	r.tick = r.tickElection
	r.lead = lead
	r.state = StateFollower
}

func (r *raft) becomeCandidate() {
	r.step = stepCandidate
	r.reset(r.Term + 1)
	r.tick = r.tickElection
	r.Vote = r.id
	r.state = StateCandidate
}

func (r *raft) becomeLeader() {
	r.step = stepLeader
	r.reset(r.Term)
	r.tick = r.tickHeartbeat
	r.lead = r.id
	r.state = StateLeader
	r.next = make(map[uint64]uint64)
	for _, id := range r.peers {
		r.next[id] = r.lastIndex() + 1
	}
	// The empty entry of the new term lets the leader commit what earlier
	// terms left.
	r.log = append(r.log, Entry{Term: r.Term, Index: r.lastIndex() + 1})
	r.bcastAppend()
}

// campaign starts an election in the next term and votes for itself.
func (r *raft) campaign() {
	r.becomeCandidate()
	for _, id := range r.peers {
		if id == r.id {
			continue
		}
		r.send(Message{To: id, Type: MsgVote, Term: r.Term, Round: r.Round, Index: r.lastIndex(), LogTerm: r.lastTerm()})
	}
	r.stage = StageVoteResp
	r.votes[r.id] = true
	if len(r.peers) == 1 {
		r.becomeLeader()
	}
}

// bcastAppend opens the next append round: it sends every follower the
// entries it lacks with the commit index, and records its own match.
func (r *raft) bcastAppend() {
	r.Round++
	r.stage = StageApp
	clear(r.acks)
	for _, id := range r.peers {
		if id == r.id {
			continue
		}
		prev := r.next[id] - 1
		r.send(Message{
			To:      id,
			Type:    MsgApp,
			Index:   prev,
			LogTerm: r.termAt(prev),
			Entries: slices.Clone(r.log[prev:]),
			Commit:  r.commit,
		})
	}
	r.stage = StageAppResp
	r.acks[r.id] = r.lastIndex()
	r.maybeCommit()
}

// maybeCommit commits the largest index a quorum of this round's acks
// holds, if its entry is of the current term (Raft's §5.4.2).
func (r *raft) maybeCommit() {
	match := make([]uint64, 0, len(r.acks))
	for _, idx := range r.acks {
		match = append(match, idx)
	}
	if len(match) < r.quorum() {
		return
	}
	slices.Sort(match)
	n := match[len(match)-r.quorum()]
	if n > r.commit && r.termAt(n) == r.Term {
		r.commit = n
	}
}

// Step advances the node with one message: a local one (term 0) or one
// from a peer.
//
//sync:handler
func (r *raft) Step(m Message) {
	switch {
	case m.Term == 0:
		// local message
	case m.Term > r.Term:
		lead := None
		if m.Type == MsgApp {
			lead = m.From
		}
		r.becomeFollower(m.Term, lead)
		// Move to the message's own round and stage, not just its term.
		r.Round, r.stage = m.Round, stageOf(m.Type)
	case m.Term < r.Term:
		return // a message of an older term: ignore it
	}

	switch m.Type {
	case MsgHup:
		if r.state != StateLeader {
			r.campaign()
		}
	case MsgVote:
		if r.Round > 0 || r.stage > StageVote {
			return // already voted, or following a leader, in this term
		}
		upToDate := m.LogTerm > r.lastTerm() || m.LogTerm == r.lastTerm() && m.Index >= r.lastIndex()
		r.stage = StageVoteResp
		if upToDate {
			r.Vote = m.From
			r.electionElapsed = 0
		}
		r.send(Message{To: m.From, Type: MsgVoteResp, Term: r.Term, Round: r.Round, Reject: !upToDate})
	default:
		r.step(r, m)
	}
}

func stepLeader(r *raft, m Message) {
	switch m.Type {
	case MsgBeat:
		r.bcastAppend()
	case MsgProp:
		for _, e := range m.Entries {
			r.log = append(r.log, Entry{Term: r.Term, Index: r.lastIndex() + 1, Data: e.Data})
		}
		r.bcastAppend()
	case MsgAppResp:
		if m.Round != r.Round || r.stage != StageAppResp {
			return // an answer to an older append round
		}
		if m.Reject {
			r.next[m.From] = max(1, min(r.next[m.From]-1, m.RejectHint+1))
			return
		}
		r.acks[m.From] = m.Index
		r.next[m.From] = m.Index + 1
		r.maybeCommit()
	}
}

func stepCandidate(r *raft, m Message) {
	switch m.Type {
	case MsgApp:
		r.becomeFollower(m.Term, m.From)
		r.handleAppendEntries(m)
	case MsgVoteResp:
		if r.stage != StageVoteResp {
			return
		}
		r.votes[m.From] = !m.Reject
		granted, rejected := 0, 0
		for _, v := range r.votes {
			if v {
				granted++
			} else {
				rejected++
			}
		}
		switch {
		case granted >= r.quorum():
			r.becomeLeader()
		case rejected >= r.quorum():
			r.becomeFollower(r.Term, None)
		}
	}
}

func stepFollower(r *raft, m Message) {
	switch m.Type {
	case MsgProp:
		// Proposals are dropped without a leader; the driver retries.
	case MsgApp:
		r.handleAppendEntries(m)
	}
}

// stageOf is the stage a message of kind t is sent in.
func stageOf(t MessageType) Stage {
	switch t {
	case MsgVoteResp:
		return StageVoteResp
	case MsgApp:
		return StageApp
	case MsgAppResp:
		return StageAppResp
	}
	return StageVote
}

// handleAppendEntries answers a MsgApp of the current term.
func (r *raft) handleAppendEntries(m Message) {
	if m.Round < r.Round || m.Round == r.Round && r.stage > StageApp {
		return // an append round this node has answered already
	}
	r.Round, r.stage = m.Round, StageApp
	r.lead = m.From
	r.electionElapsed = 0
	r.stage = StageAppResp
	if m.Index > r.lastIndex() || r.termAt(m.Index) != m.LogTerm {
		r.send(Message{To: m.From, Type: MsgAppResp, Index: m.Index, Reject: true, RejectHint: r.lastIndex()})
		return
	}
	for _, e := range m.Entries {
		if e.Index <= r.lastIndex() {
			if r.termAt(e.Index) == e.Term {
				continue
			}
			r.log = r.log[:e.Index-1] // a conflicting suffix: drop it
		}
		r.log = append(r.log, e)
	}
	last := m.Index + uint64(len(m.Entries))
	r.commit = max(r.commit, min(m.Commit, last))
	r.send(Message{To: m.From, Type: MsgAppResp, Index: last})
}

// Tick advances the node's clock by one tick.
//
//sync:handler
func (r *raft) Tick() { r.tick() }

func (r *raft) tickElection() {
	r.electionElapsed++
	if r.electionElapsed >= r.randomizedElectionTimeout {
		r.electionElapsed = 0
		r.Step(Message{From: r.id, Type: MsgHup})
	}
}

func (r *raft) tickHeartbeat() {
	r.heartbeatElapsed++
	if r.heartbeatElapsed >= r.heartbeatTimeout {
		r.heartbeatElapsed = 0
		r.Step(Message{From: r.id, Type: MsgBeat})
	}
}
