package vrnormal

import (
	"context"
	"time"
)

// Phase is the last component of the tag (view, op, phase).
type Phase int

// The phases of one operation, in order.
const (
	Preparing Phase = iota
	Acking
	Committing
)

// Header is common to every message.
type Header struct {
	View    int
	Op      int
	Replica int // sender
}

// Message is implemented by the three message kinds.
type Message interface{ header() *Header }

// Prepare carries the request with op-number Hdr.Op to the backups.
//
//sync:msg Hdr.View,Hdr.Op,Preparing
type Prepare struct {
	Hdr     Header
	Request string
	Commit  int // the primary's commit-number
}

// PrepareOK acknowledges a Prepare.
//
//sync:msg Hdr.View,Hdr.Op,Acking
type PrepareOK struct {
	Hdr Header
}

// Commit tells the backups that operation Hdr.Op is committed.
//
//sync:msg Hdr.View,Hdr.Op,Committing
type Commit struct {
	Hdr Header
}

func (m *Prepare) header() *Header   { return &m.Hdr }
func (m *PrepareOK) header() *Header { return &m.Hdr }
func (m *Commit) header() *Header    { return &m.Hdr }

// Bus connects the replicas.
type Bus interface {
	// Send sends m to replica to.
	//
	//sync:send
	Send(to int, m Message)
	// Recv returns the next message, or the context's error.
	//
	//sync:recv
	Recv(ctx context.Context) (Message, error)
}

// Replica is one VR replica in the normal case.
type Replica struct {
	id, n   int
	bus     Bus
	timeout time.Duration

	view  int
	op    int
	phase Phase

	log        []string
	commit     int  // commit-number: ops 1..commit are committed
	recovering bool // missed operations: waits for a state transfer
}

// NewReplica returns replica id of n in view view with an empty log.
func NewReplica(id, n, view int, bus Bus, timeout time.Duration) *Replica {
	return &Replica{id: id, n: n, view: view, bus: bus, timeout: timeout, phase: Committing}
}

func (r *Replica) primary() int { return r.view % r.n }

// Run processes len(requests) operations; only the primary reads requests.
func (r *Replica) Run(ctx context.Context, requests []string) {
	f := (r.n - 1) / 2

	//sync:tag r.view,r.op,r.phase
	for _, req := range requests {
		r.op++
		r.phase = Preparing
		if r.id == r.primary() {
			r.log = append(r.log, req)
			for to := range r.n {
				if to != r.id {
					r.bus.Send(to, &Prepare{Hdr: Header{View: r.view, Op: r.op, Replica: r.id}, Request: req, Commit: r.commit})
				}
			}
		} else {
			var prepares []*Prepare
			rctx, cancel := context.WithTimeout(ctx, r.timeout)
			for len(prepares) == 0 {
				m, err := r.bus.Recv(rctx)
				if err != nil {
					break
				}
				switch m := m.(type) {
				case *Prepare:
					if m.Hdr.View < r.view || m.Hdr.View == r.view && m.Hdr.Op < r.op {
						continue // an old view's or an old operation's
					}
					prepares = append(prepares, m)
				default:
					continue // PrepareOK and Commit of other operations
				}
			}
			cancel()
			if len(prepares) == 0 {
				r.recovering = true // the primary is silent or we lost its message
				continue
			}
			p := prepares[0]
			if p.Hdr.View > r.view || p.Hdr.Op > r.op {
				r.view, r.op = p.Hdr.View, p.Hdr.Op
				r.recovering = true
			}
			if !r.recovering {
				r.log = append(r.log, p.Request)
			}
		}

		r.phase = Acking
		committed := false
		if r.id == r.primary() {
			oks := make(map[int]*PrepareOK)
			rctx, cancel := context.WithTimeout(ctx, r.timeout)
			for len(oks) < f {
				m, err := r.bus.Recv(rctx)
				if err != nil {
					break
				}
				switch m := m.(type) {
				case *PrepareOK:
					if m.Hdr.View != r.view || m.Hdr.Op != r.op {
						continue
					}
					oks[m.Hdr.Replica] = m
				}
			}
			cancel()
			committed = len(oks) >= f
		} else if !r.recovering {
			r.bus.Send(r.primary(), &PrepareOK{Hdr: Header{View: r.view, Op: r.op, Replica: r.id}})
		}

		r.phase = Committing
		if r.id == r.primary() {
			if committed {
				r.commit = r.op
				for to := range r.n {
					if to != r.id {
						r.bus.Send(to, &Commit{Hdr: Header{View: r.view, Op: r.op, Replica: r.id}})
					}
				}
			}
			continue
		}
		var commits []*Commit
		rctx, cancel := context.WithTimeout(ctx, r.timeout)
		for len(commits) == 0 {
			m, err := r.bus.Recv(rctx)
			if err != nil {
				break
			}
			if c, ok := m.(*Commit); ok && c.Hdr.View == r.view && c.Hdr.Op == r.op {
				commits = append(commits, c)
			}
		}
		cancel()
		if len(commits) > 0 && !r.recovering {
			r.commit = r.op
		}
	}
}

// Committed returns the committed prefix of the log; call it after Run.
func (r *Replica) Committed() []string { return r.log[:r.commit] }
