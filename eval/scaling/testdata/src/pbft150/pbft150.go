// Package pbft150 is the normal case of PBFT in a fixed view, written in
// one 150-line loop whose three phases each collect messages with the same
// receive helper: a three-case type switch whose cases each call a
// three-line predicate, admits. It is the case of issue 20's "150-line
// loop with a three-case type switch in a receive helper called three
// times".
package pbft150

import "crypto/sha256"

// Step is the phase of a sequence number.
type Step int

// The three phases of the normal case, in order.
const (
	StepPrePrepare Step = iota
	StepPrepare
	StepCommit
)

// PrePrepare assigns a batch of requests to a sequence number.
//
//sync:msg Seq,StepPrePrepare
type PrePrepare struct {
	View, Seq int
	Digest    [32]byte
	Batch     []string
}

// Prepare is a backup's agreement with a PrePrepare.
//
//sync:msg Seq,StepPrepare
type Prepare struct {
	View, Seq, From int
	Digest          [32]byte
}

// Commit says that its sender is prepared.
//
//sync:msg Seq,StepCommit
type Commit struct {
	View, Seq, From int
	Digest          [32]byte
}

// Conn is a replica's connection to the group.
type Conn interface {
	// Multicast sends m to every replica.
	//
	//sync:send
	Multicast(m any)

	// Next returns the next message and its sender; ok is false on a
	// timeout.
	//
	//sync:recv
	Next() (m any, from int, ok bool)
}

// Stats counts what a replica did.
type Stats struct {
	Proposed, Prepared, Committed, TimedOut, Checkpoints int
	Requests, Duplicates, Stalled                        int
}

// Replica is one replica.
type Replica struct {
	id, n, f int
	view     int
	conn     Conn
	seq      int
	step     Step
	queue    []string
	log      map[int][]string
	stable   int // sequence number of the last checkpoint
	interval int // sequence numbers between checkpoints
	maxBatch int
	maxBytes int              // largest batch in bytes
	executed map[string]bool  // requests already executed
	replies  map[string]int   // sequence number that executed each request
	certs    map[int][32]byte // prepared certificates by sequence number
	idle     int              // sequence numbers in a row that timed out
	stats    Stats
	state    [32]byte // digest of the executed requests
}

// round holds the messages of one sequence number.
type round struct {
	pp       *PrePrepare
	prepares map[int][32]byte
	commits  map[int][32]byte
}

func (r *Replica) primary() int { return r.view % r.n }

// admits reports whether a message of view v, sequence number seq and
// phase s belongs to the current phase.
func (r *Replica) admits(v, seq int, s Step) bool {
	return v == r.view && seq == r.seq && s == r.step
}

// receive waits for one message and files it in rd if it belongs to the
// current phase; it returns false on a timeout.
func (r *Replica) receive(rd *round) bool {
	raw, from, ok := r.conn.Next()
	if !ok {
		return false
	}
	switch m := raw.(type) {
	case PrePrepare:
		if r.admits(m.View, m.Seq, StepPrePrepare) && from == r.primary() && rd.pp == nil {
			rd.pp = &m
		}
	case Prepare:
		if r.admits(m.View, m.Seq, StepPrepare) && m.From == from && from != r.primary() {
			rd.prepares[from] = m.Digest
		}
	case Commit:
		if r.admits(m.View, m.Seq, StepCommit) && m.From == from {
			rd.commits[from] = m.Digest
		}
	}
	return true
}

// matching counts the votes for digest d.
func matching(votes map[int][32]byte, d [32]byte) int {
	n := 0
	for _, v := range votes {
		if v == d {
			n++
		}
	}
	return n
}

// Run orders the requests of the queue, sequence number by sequence
// number, until last.
func (r *Replica) Run(last int) {
	//sync:tag r.seq,r.step
	for r.seq < last {
		r.seq++
		r.step = StepPrePrepare
		rd := &round{prepares: make(map[int][32]byte), commits: make(map[int][32]byte)}

		// The high watermark: a replica does not run more than two
		// checkpoint intervals ahead of its last stable checkpoint.
		if r.interval > 0 && r.seq > r.stable+2*r.interval {
			r.stats.Stalled++
		}
		// Many timeouts in a row: the replica suspects the primary (the
		// view change is not modelled here).
		if r.idle > 3 {
			r.stats.Stalled++
		}

		// Pre-prepare: the primary proposes a batch of queued requests,
		// bounded in number and in bytes, leaving out those executed.
		if r.id == r.primary() {
			var batch []string
			size := 0
			for _, req := range r.queue {
				if len(batch) == r.maxBatch {
					break
				}
				if r.executed[req] {
					r.stats.Duplicates++
					continue
				}
				if r.maxBytes > 0 && size+len(req) > r.maxBytes && len(batch) > 0 {
					break
				}
				batch = append(batch, req)
				size += len(req)
			}
			var buf []byte
			for _, req := range batch {
				buf = append(buf, req...)
				buf = append(buf, 0)
			}
			d := sha256.Sum256(buf)
			r.conn.Multicast(PrePrepare{View: r.view, Seq: r.seq, Digest: d, Batch: batch})
			r.stats.Proposed++
		}
		for rd.pp == nil {
			if !r.receive(rd) {
				break
			}
		}
		if rd.pp == nil {
			r.stats.TimedOut++
			r.idle++
			continue
		}
		pp := *rd.pp
		var buf []byte
		for _, req := range pp.Batch {
			buf = append(buf, req...)
			buf = append(buf, 0)
		}
		if sha256.Sum256(buf) != pp.Digest {
			// A faulty primary: wait for the view change.
			r.stats.TimedOut++
			r.idle++
			continue
		}

		// Prepare: the backups agree with the pre-prepare.
		r.step = StepPrepare
		if r.id != r.primary() {
			r.conn.Multicast(Prepare{View: r.view, Seq: r.seq, From: r.id, Digest: pp.Digest})
		}
		prepared := false
		for !prepared {
			if !r.receive(rd) {
				break
			}
			prepared = matching(rd.prepares, pp.Digest) >= 2*r.f
		}
		if !prepared {
			r.stats.TimedOut++
			r.idle++
			continue
		}
		r.stats.Prepared++
		r.certs[r.seq] = pp.Digest

		// Commit: a quorum of replicas is prepared.
		r.step = StepCommit
		r.conn.Multicast(Commit{View: r.view, Seq: r.seq, From: r.id, Digest: pp.Digest})
		committed := false
		for !committed {
			if !r.receive(rd) {
				break
			}
			committed = matching(rd.commits, pp.Digest) >= 2*r.f+1
		}
		if !committed {
			r.stats.TimedOut++
			r.idle++
			continue
		}
		r.stats.Committed++
		r.idle = 0

		// Execute the batch and drop its requests from the queue.
		r.log[r.seq] = pp.Batch
		for _, req := range pp.Batch {
			if r.executed[req] {
				// Proposed twice by a slow primary: executed once.
				r.stats.Duplicates++
				continue
			}
			h := sha256.New()
			h.Write(r.state[:])
			h.Write([]byte(req))
			copy(r.state[:], h.Sum(nil))
			r.executed[req] = true
			r.replies[req] = r.seq
			r.stats.Requests++
		}
		done := make(map[string]bool, len(pp.Batch))
		for _, req := range pp.Batch {
			done[req] = true
		}
		rest := r.queue[:0]
		for _, req := range r.queue {
			if !done[req] {
				rest = append(rest, req)
			}
		}
		r.queue = rest

		// Checkpoint: garbage-collect the log every interval sequence
		// numbers.
		if r.interval > 0 && r.seq%r.interval == 0 {
			for s := range r.log {
				if s <= r.stable {
					delete(r.log, s)
					delete(r.certs, s)
				}
			}
			for req, s := range r.replies {
				if s <= r.stable {
					delete(r.replies, req)
				}
			}
			r.stable = r.seq
			r.stats.Checkpoints++
		}
	}
}
