// Package handlers is Raft's election in the handler style: a process
// type tagged with its term and role, a Step handler for received
// messages and a Tick handler for the timer. Each handler is one step of
// the process, checked between its entry and its exits. A handler may be
// handed a message of any term (a message of an older term may be late,
// one of a later term early), so what it does with one of the wrong term
// is a violation. Which kind of message the driver hands it is not in the
// code (a handler per kind need not test the kind): a round the message
// carries in a kind field is left to "cannot prove" (see perkind). A
// mailbox field the handler did not fill that may still hold the old
// round's messages is "cannot prove" too.
package handlers

type Role int

const (
	Follower Role = iota
	Candidate
	Leader
)

type MsgType int

const (
	Vote MsgType = iota
	VoteResp
)

//sync:msg Term,_
type Message struct {
	Type    MsgType
	From    int
	To      int
	Term    uint64
	Granted bool
}

//sync:tag term,role
type Node struct {
	id      int
	n       int
	term    uint64
	role    Role
	votedIn uint64
	granted int
	out     []Message
}

//sync:send
func (n *Node) send(m Message) { n.out = append(n.out, m) }

// Step handles one received message.
//
//sync:handler
func (n *Node) Step(m Message) {
	if m.Term < n.term {
		return
	}
	if m.Term > n.term {
		n.term, n.role = m.Term, Follower
		n.granted = 0
	}
	switch m.Type {
	case Vote:
		grant := n.votedIn < n.term
		if grant {
			n.votedIn = n.term
		}
		n.send(Message{Type: VoteResp, From: n.id, To: m.From, Term: n.term, Granted: grant})
	case VoteResp:
		if n.role == Candidate && m.Granted {
			n.granted++
			if 2*n.granted > n.n {
				n.role = Leader
			}
		}
	}
}

// Tick starts an election in the next term.
//
//sync:handler
func (n *Node) Tick() {
	if n.role == Leader {
		return
	}
	n.term++
	n.role = Candidate
	n.granted = 1
	n.votedIn = n.term
	n.send(Message{Type: Vote, From: n.id, Term: n.term})
}

// Rejoin "restarts" an election in the term before: the tag goes back.
//
//sync:handler
func (n *Node) Rejoin() {
	n.term--
	n.role = Candidate
	n.send(Message{Type: Vote, From: n.id, Term: n.term}) // want `condition 1: the tag \(term,role\) is lower here than at the last communication point`
}

// AnswerOld answers with the term of the message, which may be older.
//
//sync:handler
func (n *Node) AnswerOld(m Message) {
	if m.Type == Vote {
		n.send(Message{Type: VoteResp, From: n.id, To: m.From, Term: m.Term}) // want `condition 2: Message can be sent with a tag other than the current one \(term,role\)`
	}
}

// CountAny counts a grant of any term.
//
//sync:handler
func (n *Node) CountAny(m Message) {
	if m.Type == VoteResp && m.Granted {
		n.granted++ // want `condition 3: the state changes while the received Message may be of an earlier round than \(term,role\) was when the handler was called: such a message must leave the state unchanged`
	}
}

// Buffering keeps the messages of its term that it has not used yet: a
// mailbox, which holds the current term's messages only.
//
//sync:tag term,role
type Buffering struct {
	term uint64
	role Role
	kept []Message
	out  []Message
}

//sync:send
func (b *Buffering) send(m Message) { b.out = append(b.out, m) }

// Keep jumps to a later term, emptying the mailbox of the old one, and
// keeps the message.
//
//sync:handler
func (b *Buffering) Keep(m Message) {
	if m.Term < b.term {
		return
	}
	if m.Term > b.term {
		b.term, b.role = m.Term, Follower
		b.kept = nil
	}
	b.kept = append(b.kept, m)
}

// Advance moves to the next term and empties the mailbox.
//
//sync:handler
func (b *Buffering) Advance() {
	b.term++
	b.role = Candidate
	b.kept = b.kept[:0]
	b.send(Message{Type: Vote, Term: b.term})
}

// AdvanceKeeping moves to the next term and keeps the old term's
// messages, which would count in the new one.
//
//sync:handler
func (b *Buffering) AdvanceKeeping() {
	b.term++
	b.role = Candidate
	b.send(Message{Type: Vote, Term: b.term})
} // want `cannot prove 3: the tag changes without emptying kept, which may hold what was received in the old round: its content would count in the new one`

// Buffer keeps a message of a later term for later, without moving to
// its term.
//
//sync:handler
func (b *Buffering) Buffer(m Message) {
	if m.Term < b.term {
		return
	}
	b.kept = append(b.kept, m) // want `condition 3: Message stored without checking that its tag is == \(term,role\)`
} // want `condition 4: the process returns while a Message of a later round can be kept, without a jump to its round first`

// stamp sends m with the process's current term.
//
//sync:send stamps
func (b *Buffering) stamp(m Message) {
	m.Term = b.term
	b.out = append(b.out, m)
}

// Ping builds its message without the term: the stamping send puts it on.
//
//sync:handler
func (b *Buffering) Ping() { b.stamp(Message{Type: Vote}) }

// Zxid is a two-part tag held in one struct.
type Zxid struct {
	Epoch   uint64
	Counter uint64
}

// Peer's tag is the zxid's parts and its step.
//
//sync:tag zxid.Epoch,zxid.Counter,step
type Peer struct {
	zxid Zxid
	step Role
	out  []ZMsg
}

//sync:msg Epoch,Counter,_
type ZMsg struct {
	Epoch, Counter uint64
}

//sync:send
func (p *Peer) send(m ZMsg) { p.out = append(p.out, m) }

// Lead starts the next epoch, writing the zxid whole.
//
//sync:handler
func (p *Peer) Lead() {
	p.zxid = Zxid{Epoch: p.zxid.Epoch + 1}
	p.step = Candidate
	p.send(ZMsg{Epoch: p.zxid.Epoch, Counter: p.zxid.Counter})
}

// Rewind writes the zxid whole with an older epoch.
//
//sync:handler
func (p *Peer) Rewind() {
	p.zxid = Zxid{Epoch: p.zxid.Epoch - 1, Counter: p.zxid.Counter}
	p.send(ZMsg{Epoch: p.zxid.Epoch, Counter: p.zxid.Counter}) // want `condition 1: the tag \(zxid.Epoch,zxid.Counter,step\) is lower here than at the last communication point`
}

// Recording keeps, per term, the leader it heard of: a record keyed by the
// term keeps each round's entry apart, so moving to a later term owes no
// emptying (it is no mailbox); votes, counted across terms, is one.
//
//sync:tag term,role
type Recording struct {
	term    uint64
	role    Role
	leaders map[uint64]int
	votes   map[int]bool
}

//sync:handler
func (r *Recording) OnHeartbeat(m Message) {
	if m.Term < r.term {
		return
	}
	if m.Term > r.term {
		r.term, r.role = m.Term, Follower
		r.votes = map[int]bool{}
	}
	r.leaders[r.term] = m.From
}

//sync:handler
func (r *Recording) OnVote(m Message) {
	if m.Term != r.term {
		return
	}
	r.votes[m.From] = true
	if len(r.votes) > 2 {
		r.role = Leader
	}
}

//sync:handler
func (r *Recording) Timeout() {
	r.term++
	r.role = Candidate
} // want `cannot prove 3: the tag changes while votes, filled from received messages, is not emptied: if it counts what the round received \(a mailbox\), empty it when the tag changes`
