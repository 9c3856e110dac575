package pbftview

import "slices"

// Network carries messages between replicas; it may lose and reorder them.
type Network interface {
	// Multicast sends m to every other replica.
	//
	//sync:send
	Multicast(m Message)
}

// Replica is one PBFT replica.
//
//sync:tag view,seq,kind
type Replica struct {
	id, n, f int
	net      Network

	view uint8
	seq  uint64
	kind Kind

	log      []string // executed operations; log[i] has sequence number i+1
	op       string   // the operation pre-prepared at (view, seq)
	prepared *Cert    // prepared beyond the log, if any

	votes map[int]string     // the mailbox of (view, seq, kind): prepares or commits
	vcs   map[int]ViewChange // the new primary's mailbox of (view, 0, KindViewChange)

	pending []string // the primary's client requests not yet pre-prepared
}

// NewReplica returns replica id of n = 3f+1, in view 0.
func NewReplica(id, n int, net Network) *Replica {
	return &Replica{id: id, n: n, f: (n - 1) / 3, net: net, kind: KindNewView,
		votes: map[int]string{}, vcs: map[int]ViewChange{}}
}

func primary(v uint8, n int) int { return int(v) % n }

func (r *Replica) hdr() header { return header{V: r.view, N: r.seq, From: r.id} }

// Request hands a client operation to the replica; the primary orders it.
//
//sync:handler
func (r *Replica) Request(op string) {
	if primary(r.view, r.n) != r.id {
		return // clients retry at the primary
	}
	r.pending = append(r.pending, op)
	if r.kind == KindNewView || r.kind == KindCommit && uint64(len(r.log)) == r.seq {
		r.proposeNext()
	}
}

// proposeNext pre-prepares the next pending request.
func (r *Replica) proposeNext() {
	if len(r.pending) == 0 {
		return
	}
	op := r.pending[0]
	r.pending = r.pending[1:]
	r.prePrepare(op)
}

// prePrepare proposes op at the next sequence number and prepares it.
func (r *Replica) prePrepare(op string) {
	r.seq, r.kind = uint64(len(r.log))+1, KindPrePrepare
	r.op = op
	r.net.Multicast(PrePrepare{header: r.hdr(), Op: op})
	r.kind = KindPrepare
	r.votes = map[int]string{r.id: op}
	r.net.Multicast(Prepare{header: r.hdr(), Digest: op})
}

// Timeout starts a view change: the primary made no progress.
//
//sync:handler
func (r *Replica) Timeout() {
	r.view, r.seq, r.kind = r.view+1, 0, KindViewChange
	r.votes = map[int]string{}
	r.vcs = map[int]ViewChange{}
	vc := ViewChange{header: r.hdr(), Log: slices.Clone(r.log), Prepared: r.prepared}
	r.net.Multicast(vc)
	if primary(r.view, r.n) == r.id {
		r.vcs[r.id] = vc
	}
}

// OnMessage handles a message from another replica.
//
//sync:handler
func (r *Replica) OnMessage(m Message) {
	switch m := m.(type) {
	case PrePrepare:
		r.onPrePrepare(m)
	case Prepare:
		r.onPrepare(m)
	case Commit:
		r.onCommit(m)
	case ViewChange:
		r.onViewChange(m)
	case NewView:
		r.onNewView(m)
	}
}

func (r *Replica) onPrePrepare(m PrePrepare) {
	if m.View() != r.view || m.Sender() != primary(m.View(), r.n) || r.kind < KindNewView {
		return // another view's, or our view is not installed
	}
	if m.Seq() != uint64(len(r.log))+1 || m.Seq() == r.seq {
		return // not the next request, or pre-prepared already
	}
	r.seq, r.kind = m.Seq(), KindPrePrepare
	r.op = m.Op
	r.kind = KindPrepare
	r.votes = map[int]string{r.id: r.op}
	r.net.Multicast(Prepare{header: r.hdr(), Digest: r.op})
}

func (r *Replica) onPrepare(m Prepare) {
	if m.View() != r.view || m.Seq() != r.seq || r.kind != KindPrepare || m.Digest != r.op {
		return
	}
	r.votes[m.Sender()] = m.Digest
	if len(r.votes) < 2*r.f+1 {
		return
	}
	r.prepared = &Cert{View: r.view, Seq: r.seq, Op: r.op}
	r.kind = KindCommit
	r.votes = map[int]string{r.id: r.op}
	r.net.Multicast(Commit{header: r.hdr(), Digest: r.op})
}

func (r *Replica) onCommit(m Commit) {
	if m.View() != r.view || m.Seq() != r.seq || r.kind != KindCommit || m.Digest != r.op {
		return
	}
	r.votes[m.Sender()] = m.Digest
	if len(r.votes) < 2*r.f+1 || uint64(len(r.log)) == r.seq {
		return
	}
	r.log = append(r.log, r.op)
	r.prepared = nil
	if primary(r.view, r.n) == r.id {
		r.proposeNext()
	}
}

func (r *Replica) onViewChange(m ViewChange) {
	if m.View() != r.view || m.Seq() != 0 || r.kind != KindViewChange || primary(r.view, r.n) != r.id {
		return
	}
	r.vcs[m.Sender()] = m
	if len(r.vcs) < 2*r.f+1 {
		return
	}
	// The longest executed log of the quorum holds every committed
	// request; a request prepared right after it, in the highest view,
	// may have committed too, so it is proposed again.
	var cert *Cert
	for _, vc := range r.vcs {
		if len(vc.Log) > len(r.log) {
			r.log = slices.Clone(vc.Log)
		}
	}
	for _, vc := range r.vcs {
		if c := vc.Prepared; c != nil && c.Seq == uint64(len(r.log))+1 && (cert == nil || c.View > cert.View) {
			cert = c
		}
	}
	r.prepared = nil
	r.vcs = map[int]ViewChange{}
	r.kind = KindNewView
	r.net.Multicast(NewView{header: r.hdr(), Log: slices.Clone(r.log)})
	if cert != nil {
		r.prePrepare(cert.Op)
		return
	}
	r.proposeNext()
}

func (r *Replica) onNewView(m NewView) {
	if m.View() < r.view || m.View() == r.view && r.kind != KindViewChange || m.Seq() != 0 || m.Sender() != primary(m.View(), r.n) {
		return // an old view's, one we installed already, or malformed
	}
	if m.View() > r.view {
		r.view, r.seq, r.kind = m.View(), 0, KindNewView // we had not timed out yet: join the view
	}
	r.kind = KindNewView
	r.votes = map[int]string{}
	r.vcs = map[int]ViewChange{}
	if len(m.Log) > len(r.log) {
		r.log = slices.Clone(m.Log)
	}
	if r.prepared != nil && r.prepared.Seq <= uint64(len(r.log)) {
		r.prepared = nil
	}
}

// Log returns a copy of the executed operations.
func (r *Replica) Log() []string { return slices.Clone(r.log) }

// CurrentView returns the replica's view.
func (r *Replica) CurrentView() uint8 { return r.view }
