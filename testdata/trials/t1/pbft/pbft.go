package pbft

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Step is the round of a sequence number.
type Step int

// The three rounds of the normal case, in order.
const (
	StepPrePrepare Step = iota
	StepPrepare
	StepCommit
)

// PrePrepare assigns a request to a sequence number; only the primary sends
// it.
//
//sync:msg Seq,StepPrePrepare
type PrePrepare struct {
	View, Seq int
	Digest    string
	Request   string
}

// Prepare is a backup's agreement with a PrePrepare.
//
//sync:msg Seq,StepPrepare
type Prepare struct {
	View, Seq int
	Digest    string
	Replica   int
}

// Commit says that its sender is prepared.
//
//sync:msg Seq,StepCommit
type Commit struct {
	View, Seq int
	Digest    string
	Replica   int
}

// Conn is a replica's connection to the group.
type Conn interface {
	// Multicast sends m to every replica, the sender included.
	//
	//sync:send
	Multicast(m any)

	// Next returns the next message and its sender; it fails when ctx is
	// done.
	//
	//sync:recv
	Next(ctx context.Context) (m any, from int, err error)
}

// Replica is one PBFT replica in a fixed view.
type Replica struct {
	id, n, f int
	view     int
	conn     Conn
	timeout  time.Duration // how long a step waits

	seq  int  // phase: the sequence number
	step Step // round

	pending []string       // primary only: requests not yet committed
	log     map[int]string // committed requests by sequence number
}

// NewReplica returns replica id of n = 3f+1 in view; the primary of the view
// proposes the requests in order.
func NewReplica(id, n, view int, conn Conn, timeout time.Duration, requests []string) *Replica {
	return &Replica{id: id, n: n, f: (n - 1) / 3, view: view, conn: conn, timeout: timeout,
		pending: requests, log: make(map[int]string)}
}

// Log returns the committed requests by sequence number.
func (r *Replica) Log() map[int]string { return r.log }

func (r *Replica) primary() int { return r.view % r.n }

// mailbox holds the messages of one sequence number.
type mailbox struct {
	preprepare *PrePrepare
	prepares   map[int]string // backup -> digest
	commits    map[int]string // replica -> digest
}

// Run runs sequence numbers 1..last.
func (r *Replica) Run(ctx context.Context, last int) {
	//sync:tag r.seq,r.step
	for r.seq < last {
		r.seq++
		r.step = StepPrePrepare
		mb := &mailbox{prepares: make(map[int]string), commits: make(map[int]string)}
		if r.id == r.primary() {
			req := "" // the null request when there is nothing to do
			if len(r.pending) > 0 {
				req = r.pending[0]
			}
			r.conn.Multicast(PrePrepare{View: r.view, Seq: r.seq, Digest: digest(req), Request: req})
		}
		if !r.await(ctx, mb, func() bool { return mb.preprepare != nil }) {
			continue
		}
		r.seq = mb.preprepare.Seq // a backup that fell behind joins the primary
		pp := *mb.preprepare

		r.step = StepPrepare
		if r.id != r.primary() {
			r.conn.Multicast(Prepare{View: r.view, Seq: r.seq, Digest: pp.Digest, Replica: r.id})
		}
		if !r.await(ctx, mb, func() bool { return matching(mb.prepares, pp.Digest) >= 2*r.f }) {
			continue
		}

		r.step = StepCommit
		r.conn.Multicast(Commit{View: r.view, Seq: r.seq, Digest: pp.Digest, Replica: r.id})
		if !r.await(ctx, mb, func() bool { return matching(mb.commits, pp.Digest) >= 2*r.f+1 }) {
			continue
		}
		r.log[r.seq] = pp.Request
		if r.id == r.primary() && len(r.pending) > 0 {
			r.pending = r.pending[1:]
		}
	}
}

// await receives into mb until done holds; false if the step timed out.
func (r *Replica) await(ctx context.Context, mb *mailbox, done func() bool) bool {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	for !done() {
		if !r.receive(ctx, mb) {
			return false
		}
	}
	return true
}

// receive waits for one message and files it in mb if it belongs to the
// current step; it returns false once ctx is done.
func (r *Replica) receive(ctx context.Context, mb *mailbox) bool {
	raw, from, err := r.conn.Next(ctx)
	if err != nil {
		return false
	}
	switch m := raw.(type) {
	case PrePrepare:
		if r.currentOrLater(m.View, m.Seq, StepPrePrepare) && from == r.primary() &&
			m.Digest == digest(m.Request) && mb.preprepare == nil {
			mb.preprepare = &m
		}
	case Prepare:
		if r.current(m.View, m.Seq, StepPrepare) && m.Replica == from && from != r.primary() {
			mb.prepares[from] = m.Digest
		}
	case Commit:
		if r.current(m.View, m.Seq, StepCommit) && m.Replica == from {
			mb.commits[from] = m.Digest
		}
	}
	return true
}

// current reports whether a message of view v, sequence number seq and
// round s belongs to the step the replica is in.
func (r *Replica) current(v, seq int, s Step) bool {
	return v == r.view && seq == r.seq && s == r.step
}

// currentOrLater is current, also admitting later sequence numbers.
func (r *Replica) currentOrLater(v, seq int, s Step) bool {
	return v == r.view && seq >= r.seq && s == r.step
}

// matching counts the votes for digest d.
func matching(votes map[int]string, d string) int {
	n := 0
	for _, v := range votes {
		if v == d {
			n++
		}
	}
	return n
}

func digest(req string) string {
	sum := sha256.Sum256([]byte(req))
	return hex.EncodeToString(sum[:8])
}
