// Package vrviewchange is the view-change protocol of Viewstamped
// Replication (Liskov and Cowling, "Viewstamped Replication Revisited",
// 2012, section 4.2), the leader election that the sequentialization paper
// checks as "ViewChange".
//
// The view number is the phase and the three messages of the view change
// are its rounds. A replica that hears of a later view joins it: the
// receptions of StartViewChange, DoViewChange and StartView keep messages
// of the current view and of later ones, and the replica then jumps to the
// highest view it received. A later view heard of in StartViewChange
// messages without a quorum there is joined at once, and the next attempt
// moves past it: one view per iteration, and no send after a reception in
// the same round.
package vrviewchange

import (
	"context"
	"slices"
	"time"

	"transport"
)

// Config configures one Replica.
type Config struct {
	ID  int           // id of the replica, in 0..Net.N()-1
	Net transport.Net // network shared by the replicas
	Log []string      // log of the replica when it starts (all committed)

	// Timeout is how long a replica waits in a round for the messages it
	// needs before it gives up on the view and tries the next one.
	Timeout time.Duration

	// MaxAttempts bounds the number of views ChangeView tries.
	MaxAttempts int
}

// Replica is one VR replica, seen from the view change. Normal operation
// (Prepare, PrepareOK, Commit) runs between two calls of ChangeView and is
// not part of this package.
type Replica struct {
	id          int
	n           int
	f           int // number of faulty replicas tolerated: n = 2f+1
	net         transport.Net
	timeout     time.Duration
	maxAttempts int

	// Synchronization variables: the tag (view, step) of ChangeView's loop.
	view int
	step Step

	// Algorithm variables (VR's replica state).
	status       Status
	lastNormal   int      // VR's v': last view in which status was normal
	log          []string // VR's log
	opNumber     int      // VR's op-number
	commitNumber int      // VR's commit-number

	executed int      // number of ops applied to the service
	outputs  []string // ops applied, in order
}

// NewReplica returns a replica in view 0, normal status, configured by cfg.
func NewReplica(cfg Config) *Replica {
	n := cfg.Net.N()
	r := &Replica{
		id:           cfg.ID,
		n:            n,
		f:            (n - 1) / 2,
		net:          cfg.Net,
		timeout:      cfg.Timeout,
		maxAttempts:  cfg.MaxAttempts,
		status:       Normal,
		log:          slices.Clone(cfg.Log),
		opNumber:     len(cfg.Log),
		commitNumber: len(cfg.Log),
	}
	r.execute()
	return r
}

// primaryOf is VR's round-robin choice of the primary of a view.
func (r *Replica) primaryOf(view int) int { return view % r.n }

// ChangeView runs the view change: it is called when the replica suspects
// the primary of its view. Each iteration of the loop tries one view; it
// returns true once the replica is back in normal status in a new view, and
// false when it gave up after MaxAttempts views or ctx is done.
func (r *Replica) ChangeView(ctx context.Context) bool {
	//sync:tag r.view,r.step
	for attempt := 0; attempt < r.maxAttempts && ctx.Err() == nil; attempt++ {
		// Round StartViewChange (VR 4.2, step 1): advance the view and
		// tell the other replicas.
		r.view++
		r.step = StartViewChange
		r.status = ViewChanging
		svc := r.newStartViewChange()
		r.net.Broadcast(svc)

		// Wait until f other replicas started the change to our view or to
		// a later one. Messages of older views are dropped; the reception
		// loop writes nothing but its mailbox.
		svcs := make(map[int]Message)
		deadline := time.Now().Add(r.timeout)
		for !hasQuorum(svcs, r.f) {
			raw, from, ok := r.net.Recv(deadline)
			if !ok {
				break
			}
			m, isMsg := raw.(Message)
			if !isMsg || from == r.id || m.Step != r.step || m.View < r.view {
				continue
			}
			svcs[from] = m
		}
		// A replica that hears of a later view joins its view change
		// (step 1: "or receives a STARTVIEWCHANGE ... with a view-number
		// bigger than its own"): it jumps to the latest view heard of
		// before it does anything else. If f replicas are there, it goes
		// on in that view; otherwise the next attempt moves past it.
		top := r.view
		for _, m := range svcs {
			if m.View > top {
				top = m.View
			}
		}
		if count(svcs, top) < r.f {
			r.view = max(r.view, top)
			continue // no quorum: try the next view
		}
		r.view = max(r.view, top)

		// Round DoViewChange (step 2): send our state to the new primary.
		r.step = DoViewChange
		primary := r.primaryOf(r.view)
		r.net.Send(primary, r.newDoViewChange())
		if primary == r.id {
			// Step 3: the primary waits for f+1 DoViewChange messages, its
			// own included, of its view or of a later view it is also the
			// primary of.
			dvcs := make(map[int]Message)
			deadline = time.Now().Add(r.timeout)
			for !hasQuorum(dvcs, r.f+1) {
				raw, from, ok := r.net.Recv(deadline)
				if !ok {
					break
				}
				if m, isMsg := raw.(Message); isMsg && m.Step == r.step && m.View >= r.view && r.primaryOf(m.View) == r.id {
					dvcs[from] = m
				}
			}
			for _, m := range dvcs {
				if m.View > r.view {
					r.view = m.View
				}
			}
			current := inView(dvcs, r.view)
			if len(current) < r.f+1 {
				continue
			}
			// Adopt the log dated by the largest v', the longest among
			// those, and the largest commit number.
			best := bestLog(current)
			r.log = slices.Clone(best.Log)
			r.opNumber = best.OpNumber
			r.commitNumber = maxCommit(current)
		}

		// Round StartView (steps 3-5): the primary sends the log of the
		// new view; everybody adopts it.
		r.step = StartView
		if primary == r.id {
			r.net.Broadcast(Message{
				Step:         StartView,
				View:         r.view,
				Replica:      r.id,
				Log:          slices.Clone(r.log),
				OpNumber:     r.opNumber,
				CommitNumber: r.commitNumber,
			})
		}
		var starts []Message
		deadline = time.Now().Add(r.timeout)
		for len(starts) == 0 {
			raw, from, ok := r.net.Recv(deadline)
			if !ok {
				break
			}
			if m, isMsg := raw.(Message); isMsg && r.acceptsStartView(m, from) {
				starts = append(starts, m)
			}
		}
		if len(starts) == 0 {
			continue // the primary failed too: try the next view
		}
		// The primary may be in a later view than ours: move there.
		sv := starts[0]
		r.view = max(r.view, sv.View)
		r.log = slices.Clone(sv.Log)
		r.opNumber = sv.OpNumber
		if sv.CommitNumber > r.commitNumber {
			r.commitNumber = sv.CommitNumber
		}
		r.execute()
		r.status = Normal
		r.lastNormal = r.view
		return true
	}
	return false
}

// newStartViewChange returns the StartViewChange message of the current
// view.
func (r *Replica) newStartViewChange() Message {
	return Message{Step: r.step, View: r.view, Replica: r.id}
}

// newDoViewChange returns the DoViewChange message of the current view,
// with the replica's log.
func (r *Replica) newDoViewChange() Message {
	return Message{
		Step:         r.step,
		View:         r.view,
		Replica:      r.id,
		Log:          slices.Clone(r.log),
		OpNumber:     r.opNumber,
		CommitNumber: r.commitNumber,
		LastNormal:   r.lastNormal,
	}
}

// acceptsStartView reports whether m is a StartView of the current view or
// of a later one, sent by the primary of its view.
func (r *Replica) acceptsStartView(m Message, from int) bool {
	return m.Step == r.step && m.View >= r.view && from == r.primaryOf(m.View)
}

// execute applies the committed ops not applied yet (VR's up-call to the
// service).
func (r *Replica) execute() {
	for r.executed < r.commitNumber && r.executed < len(r.log) {
		r.outputs = append(r.outputs, r.log[r.executed])
		r.executed++
	}
}

// topView returns the highest view of the messages in a mailbox and the
// number of messages of that view.
func topView(mbox map[int]Message) (view, n int) {
	for _, m := range mbox {
		switch {
		case m.View > view:
			view, n = m.View, 1
		case m.View == view:
			n++
		}
	}
	return view, n
}

// hasQuorum reports whether q messages of the mailbox carry its highest
// view.
func hasQuorum(mbox map[int]Message, q int) bool {
	_, n := topView(mbox)
	return n >= q
}

// count returns the number of messages of the mailbox of the given view.
func count(mbox map[int]Message, view int) int {
	n := 0
	for _, m := range mbox {
		if m.View == view {
			n++
		}
	}
	return n
}

// inView returns the messages of the mailbox of the given view, by sender.
func inView(mbox map[int]Message, view int) map[int]Message {
	out := make(map[int]Message)
	for q, m := range mbox {
		if m.View == view {
			out[q] = m
		}
	}
	return out
}

// bestLog returns the DoViewChange whose log the new primary adopts: the
// largest v', then the largest op-number, then the smallest sender.
func bestLog(dvcs map[int]Message) Message {
	best := -1
	for q, m := range dvcs {
		if best < 0 {
			best = q
			continue
		}
		b := dvcs[best]
		switch {
		case m.LastNormal != b.LastNormal:
			if m.LastNormal > b.LastNormal {
				best = q
			}
		case m.OpNumber != b.OpNumber:
			if m.OpNumber > b.OpNumber {
				best = q
			}
		case q < best:
			best = q
		}
	}
	return dvcs[best]
}

// maxCommit returns the largest commit number of a DoViewChange mailbox.
func maxCommit(dvcs map[int]Message) int {
	k := 0
	for _, m := range dvcs {
		k = max(k, m.CommitNumber)
	}
	return k
}

// ID returns the id of the replica.
func (r *Replica) ID() int { return r.id }

// View returns the current view of the replica.
func (r *Replica) View() int { return r.view }

// Status returns the status of the replica.
func (r *Replica) Status() Status { return r.status }

// Log returns a copy of the replica's log.
func (r *Replica) Log() []string { return slices.Clone(r.log) }

// Outputs returns the ops the replica applied, in order.
func (r *Replica) Outputs() []string { return slices.Clone(r.outputs) }
