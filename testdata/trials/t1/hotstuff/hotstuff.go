package hotstuff

import (
	"errors"
	"slices"
	"time"
)

// Phase is the round inside a view. The leader's broadcasts and the
// replicas' votes are rounds of their own.
type Phase int

// The rounds of a view, in execution order.
const (
	NewViewR Phase = iota
	PrepareR
	PrepareVoteR
	PreCommitR
	PreCommitVoteR
	CommitR
	CommitVoteR
	DecideR
)

// Header says which round a message belongs to.
type Header struct {
	View int
	Type Phase
}

// Node is a block of the chain; in this implementation a node carries its
// whole branch, the commands from the root.
type Node struct {
	Cmds []string
}

// extends reports whether n extends (or is) b.
func (n Node) extends(b Node) bool {
	return len(n.Cmds) >= len(b.Cmds) && slices.Equal(n.Cmds[:len(b.Cmds)], b.Cmds)
}

// QC is a quorum certificate: n-f votes of one round on one node.
type QC struct {
	View int
	Type Phase
	Node Node
}

// Msg is the message of every round.
//
//sync:msg Hdr.View,Hdr.Type
type Msg struct {
	Hdr     Header
	From    int
	Node    Node // Prepare: the proposal; votes: the node voted for
	Justify *QC  // NewView: the sender's prepareQC; leader broadcasts: the QC they carry
}

// ErrTimeout is returned by Transport.Recv when nothing arrived in time.
var ErrTimeout = errors.New("hotstuff: timeout")

// Transport connects a replica to the others.
type Transport interface {
	// Send sends m to replica to.
	//
	//sync:send
	Send(to int, m Msg)

	// Recv returns the next message, or ErrTimeout after timeout.
	//
	//sync:recv
	Recv(timeout time.Duration) (Msg, error)
}

// Replica is one HotStuff replica.
type Replica struct {
	id, n, f int
	tr       Transport
	timeout  time.Duration
	command  func(view int) string // the command this replica proposes as leader

	view  int   // phase
	phase Phase // round

	prepareQC QC // highest prepareQC seen
	lockedQC  QC
	committed Node
}

// NewReplica returns replica id of n = 3f+1.
func NewReplica(id, n int, tr Transport, timeout time.Duration, command func(view int) string) *Replica {
	return &Replica{id: id, n: n, f: (n - 1) / 3, tr: tr, timeout: timeout, command: command}
}

// Committed returns the committed branch.
func (h *Replica) Committed() []string { return h.committed.Cmds }

func (h *Replica) leaderOf(view int) int { return view % h.n }

func (h *Replica) hdr() Header { return Header{View: h.view, Type: h.phase} }

// Run runs views up to last; a view whose leader is not heard from in time
// is abandoned (the pacemaker's time-out).
func (h *Replica) Run(last int) {
	quorum := h.n - h.f
	//sync:tag h.view,h.phase
	for h.view < last {
		h.view++
		h.phase = NewViewR
		leader := h.leaderOf(h.view) == h.id
		h.tr.Send(h.leaderOf(h.view), Msg{Hdr: h.hdr(), From: h.id, Justify: ref(h.prepareQC)})

		var proposal Node
		var high QC
		if leader {
			nvs := h.gather(quorum, Node{}, false)
			if len(nvs) < quorum {
				continue
			}
			high = highestQC(nvs)
			proposal = Node{Cmds: append(slices.Clone(high.Node.Cmds), h.command(h.view))}
		}

		h.phase = PrepareR
		if leader {
			h.broadcast(Msg{Hdr: h.hdr(), From: h.id, Node: proposal, Justify: ref(high)})
		}
		prop, ok := h.next(h.isProposal)
		if !ok {
			continue
		}
		h.view = prop.Hdr.View // a proposal of a later view: we are behind, catch up
		if !prop.Node.extends(prop.Justify.Node) || !h.safeNode(prop.Node, *prop.Justify) {
			continue
		}

		// The three voting rounds are alike: vote for the node, the leader
		// builds a QC from n-f votes and broadcasts it, replicas act on it.
		var qc QC
		for _, ph := range []Phase{PrepareVoteR, PreCommitVoteR, CommitVoteR} {
			h.phase = ph
			h.tr.Send(h.leaderOf(h.view), Msg{Hdr: h.hdr(), From: h.id, Node: prop.Node})
			if h.leaderOf(h.view) == h.id {
				votes := h.gather(quorum, prop.Node, true)
				if len(votes) < quorum {
					break
				}
				qc = QC{View: h.view, Type: ph - 1, Node: prop.Node}
			}
			h.phase = ph + 1
			if h.leaderOf(h.view) == h.id {
				h.broadcast(Msg{Hdr: h.hdr(), From: h.id, Justify: ref(qc)})
			}
			m, ok := h.next(h.isCurrent)
			if !ok || !slices.Equal(m.Justify.Node.Cmds, prop.Node.Cmds) {
				break
			}
			switch h.phase {
			case PreCommitR:
				h.prepareQC = *m.Justify
			case CommitR:
				h.lockedQC = *m.Justify
			case DecideR:
				h.committed = m.Justify.Node
			}
		}
	}
}

// safeNode is HotStuff's safety rule: a replica votes for a node that
// extends its locked node, or whose justification is newer than its lock.
func (h *Replica) safeNode(n Node, justify QC) bool {
	return n.extends(h.lockedQC.Node) || justify.View > h.lockedQC.View
}

// isCurrent accepts the leader's message of the current round.
func (h *Replica) isCurrent(m Msg) bool {
	return m.Hdr == h.hdr() && m.From == h.leaderOf(h.view) && m.Justify != nil
}

// isProposal accepts the Prepare of the current view or of a later one,
// from the leader of its view.
func (h *Replica) isProposal(m Msg) bool {
	return m.Hdr.Type == PrepareR && m.Hdr.View >= h.view && m.From == h.leaderOf(m.Hdr.View) && m.Justify != nil
}

// next waits for one message that accept takes; false on a time-out.
func (h *Replica) next(accept func(Msg) bool) (Msg, bool) {
	deadline := time.Now().Add(h.timeout)
	for {
		m, err := h.tr.Recv(time.Until(deadline))
		if err != nil {
			return Msg{}, false
		}
		if accept(m) {
			return m, true
		}
	}
}

// gather collects messages of the current round from distinct replicas,
// votes for node if votes is set, until need of them or a time-out.
func (h *Replica) gather(need int, node Node, votes bool) []Msg {
	var got []Msg
	seen := make(map[int]bool)
	deadline := time.Now().Add(h.timeout)
	for len(got) < need {
		m, err := h.tr.Recv(time.Until(deadline))
		if err != nil {
			break
		}
		if m.Hdr != h.hdr() || seen[m.From] || votes && !slices.Equal(m.Node.Cmds, node.Cmds) {
			continue
		}
		seen[m.From] = true
		got = append(got, m)
	}
	return got
}

// broadcast sends m to every replica, this one included.
func (h *Replica) broadcast(m Msg) {
	for q := range h.n {
		h.tr.Send(q, m)
	}
}

// highestQC returns the prepareQC of the highest view among NewView
// messages.
func highestQC(nvs []Msg) QC {
	high := *nvs[0].Justify
	for _, m := range nvs[1:] {
		if m.Justify.View > high.View {
			high = *m.Justify
		}
	}
	return high
}

// ref returns a pointer to a copy of qc, for a message: messages must not
// share the replica's state.
func ref(qc QC) *QC { return &qc }
