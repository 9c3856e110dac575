package hotstuff2

import "slices"

// Replica is one HotStuff-2 replica. The driver calls OnMessage for every
// delivered message and OnTimeout when the view's timer expires.
//
//sync:tag view,phase
type Replica struct {
	id, n int
	view  uint64
	phase Phase
	net   Transport

	// Mailboxes of the current (view, phase), emptied when the tag changes.
	newViews map[int]QC
	votes    map[int]bool

	locked QC
	high   QC
	next   []string // commands this replica proposes when it leads

	// Committed is the chain of the last block this replica committed.
	Committed []string
}

// NewReplica returns replica id of n in view 1; cmds are the commands it
// proposes when it leads.
func NewReplica(id, n int, net Transport, cmds []string) *Replica {
	r := &Replica{id: id, n: n, net: net, next: cmds}
	r.enterView(1)
	return r
}

func (r *Replica) quorum() int { return r.n - (r.n-1)/3 }

func (r *Replica) leader(v uint64) int { return int(v % uint64(r.n)) }

// enterView starts view v: the replica hands its highest QC to the leader.
func (r *Replica) enterView(v uint64) {
	r.view, r.phase = v, PhaseNewView
	r.newViews = map[int]QC{}
	r.votes = map[int]bool{}
	r.net.Send(r.leader(v), Msg{Hdr: Header{View: r.view, Phase: PhaseNewView}, Type: NewViewMsg, From: r.id, QC: r.high})
}

// catchUp moves the replica to the tag h if it is later than its own and
// reports whether a message with header h is to be processed at all.
func (r *Replica) catchUp(h Header) bool {
	if h.View < r.view || (h.View == r.view && h.Phase < r.phase) {
		return false
	}
	if h.View > r.view || h.Phase > r.phase {
		r.view, r.phase = h.View, h.Phase
		r.newViews = map[int]QC{}
		r.votes = map[int]bool{}
	}
	return true
}

// routed reports whether m travels as the protocol says: proposals and
// certificates come from the leader of their view, new-views and votes go
// to it. (Signatures are left out.)
func (r *Replica) routed(m Msg) bool {
	switch m.Type {
	case ProposalMsg, CertMsg:
		return m.From == r.leader(m.Hdr.View)
	default:
		return r.leader(m.Hdr.View) == r.id
	}
}

// OnMessage handles one message.
//
//sync:handler
func (r *Replica) OnMessage(m Msg) {
	if !r.routed(m) || !r.catchUp(m.Hdr) {
		return
	}
	switch m.Type {
	case NewViewMsg:
		r.newViews[m.From] = m.QC
		if len(r.newViews) < r.quorum() {
			return
		}
		justify := highest(r.newViews, func(qc QC) uint64 { return qc.View })
		cmd := "noop"
		if len(r.next) > 0 {
			cmd, r.next = r.next[0], r.next[1:]
		}
		b := Block{View: r.view, Cmds: append(slices.Clone(justify.Block.Cmds), cmd)}
		r.phase = PhasePropose
		r.newViews = map[int]QC{}
		r.net.Broadcast(Msg{Hdr: Header{View: r.view, Phase: PhasePropose}, Type: ProposalMsg, From: r.id, Block: b, QC: justify})
	case ProposalMsg:
		// The safety rule: vote only for a block justified by a QC at least
		// as recent as the lock.
		if m.QC.View < r.locked.View {
			return
		}
		if m.QC.View > r.high.View {
			r.high = m.QC
		}
		r.phase = PhaseLock
		r.net.Send(r.leader(r.view), Msg{Hdr: Header{View: r.view, Phase: r.phase}, Type: VoteMsg, From: r.id, Block: m.Block})
	case VoteMsg:
		r.votes[m.From] = true
		if len(r.votes) == r.quorum() {
			r.net.Broadcast(Msg{Hdr: Header{View: r.view, Phase: r.phase}, Type: CertMsg, From: r.id, QC: QC{View: r.view, Block: m.Block}})
		}
	case CertMsg:
		r.onCert(m.QC)
	}
}

// onCert handles the leader's certificate of the current phase.
func (r *Replica) onCert(qc QC) {
	if qc.View > r.high.View {
		r.high = qc
	}
	if r.phase == PhaseLock {
		r.locked = qc
		r.phase = PhaseCommit
		r.votes = map[int]bool{}
		r.net.Send(r.leader(r.view), Msg{Hdr: Header{View: r.view, Phase: PhaseCommit}, Type: VoteMsg, From: r.id, Block: qc.Block})
		return
	}
	if r.phase == PhaseCommit {
		r.Committed = qc.Block.Cmds
		r.enterView(r.view + 1)
	}
}

// OnTimeout is the pacemaker: the view made no progress, move to the next.
//
//sync:handler
func (r *Replica) OnTimeout() {
	r.enterView(r.view + 1)
}

// highest returns the value of m with the largest key.
func highest[T any](m map[int]T, key func(T) uint64) T {
	var best T
	first := true
	for _, v := range m {
		if first || key(v) > key(best) {
			best, first = v, false
		}
	}
	return best
}
