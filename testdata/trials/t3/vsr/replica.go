package vsr

import (
	"slices"
	"sort"
)

// Replica is one VR replica: normal-case replication and view change.
//
//sync:tag view,status
type Replica struct {
	id, n int
	out   *Outbox[Message]

	view       uint64
	status     Status
	lastNormal uint64
	log        []string
	commit     int // the number of committed ops, a prefix of log

	// The mailbox of (view, status), emptied by enter.
	acked map[int]int     // primary: how many ops each replica holds
	svcs  map[int]bool    // the StartViewChanges of this view
	dvcs  map[int]Message // new primary: the DoViewChanges of this view
}

// NewReplica returns replica id of n (n = 2f+1), normal in view 0.
func NewReplica(id, n int) *Replica {
	r := &Replica{id: id, n: n, out: NewOutbox[Message](id, n)}
	r.enter(0, StatusNormal)
	return r
}

func (r *Replica) f() int { return (r.n - 1) / 2 }

func (r *Replica) primary(v uint64) int { return int(v % uint64(r.n)) }

func (r *Replica) isPrimary() bool { return r.primary(r.view) == r.id }

func (r *Replica) header() Header { return Header{View: r.view, Status: r.status, From: r.id} }

// enter moves the replica forward to (v, s) with an empty mailbox.
func (r *Replica) enter(v uint64, s Status) {
	r.view, r.status = v, s
	r.acked = map[int]int{}
	r.svcs = map[int]bool{}
	r.dvcs = map[int]Message{}
}

// OnRequest is a client request reaching this replica.
//
//sync:handler
func (r *Replica) OnRequest(op string) {
	if !r.isPrimary() || r.status != StatusNormal {
		return // the client retries at the primary
	}
	r.log = append(r.log, op)
	r.acked[r.id] = len(r.log)
	r.out.Broadcast(Message{Hdr: r.header(), Kind: Prepare, Log: slices.Clone(r.log), Commit: r.commit})
}

// OnHeartbeat is the primary's idle timer: it re-sends its log, which also
// tells the backups the commit number.
//
//sync:handler
func (r *Replica) OnHeartbeat() {
	if r.isPrimary() && r.status == StatusNormal {
		r.out.Broadcast(Message{Hdr: r.header(), Kind: Prepare, Log: slices.Clone(r.log), Commit: r.commit})
	}
}

// OnTimeout is a backup's view-change timer: the primary is suspected.
//
//sync:handler
func (r *Replica) OnTimeout() {
	if r.isPrimary() && r.status == StatusNormal {
		return
	}
	r.startViewChange(r.view + 1)
}

// startViewChange moves to view v (a later one) in view-change status.
func (r *Replica) startViewChange(v uint64) {
	r.enter(v, StatusViewChange)
	r.out.Broadcast(Message{Hdr: r.header(), Kind: StartViewChange})
	r.onStartViewChange(r.id)
}

// enterNormal installs view v (a later tag) with the primary's log.
func (r *Replica) enterNormal(v uint64, log []string, commit int) {
	r.enter(v, StatusNormal)
	r.lastNormal = v
	r.log = slices.Clone(log)
	r.commit = max(r.commit, commit)
}

// Step handles a message from another replica.
//
//sync:handler
func (r *Replica) Step(m Message) {
	if m.Hdr.View < r.view || m.Hdr.View == r.view && m.Hdr.Status < r.status {
		return // of an earlier view, or of this view's finished view change
	}
	if (m.Kind == Prepare || m.Kind == StartView) && m.Hdr.From != r.primary(m.Hdr.View) {
		return // only the primary of a view sends these
	}
	if m.Hdr.View > r.view || m.Hdr.Status > r.status {
		switch m.Kind {
		case Prepare, StartView:
			r.enterNormal(m.Hdr.View, m.Log, m.Commit)
		case StartViewChange, DoViewChange:
			r.startViewChange(m.Hdr.View)
		default:
			return // a PrepareOK for a view this replica does not lead yet
		}
	}
	switch m.Kind {
	case Prepare, StartView:
		if len(m.Log) > len(r.log) {
			r.log = slices.Clone(m.Log)
		}
		r.commit = max(r.commit, min(m.Commit, len(r.log)))
		r.out.Send(m.Hdr.From, Message{Hdr: r.header(), Kind: PrepareOK, OpNum: len(r.log)})
	case PrepareOK:
		r.onPrepareOK(m)
	case StartViewChange:
		r.onStartViewChange(m.Hdr.From)
	case DoViewChange:
		r.onDoViewChange(m)
	}
}

// onPrepareOK commits the ops a majority holds.
func (r *Replica) onPrepareOK(m Message) {
	if !r.isPrimary() {
		return
	}
	r.acked[m.Hdr.From] = max(r.acked[m.Hdr.From], m.OpNum)
	held := make([]int, 0, len(r.acked))
	for _, k := range r.acked {
		held = append(held, k)
	}
	if len(held) <= r.f() {
		return
	}
	sort.Sort(sort.Reverse(sort.IntSlice(held)))
	r.commit = max(r.commit, held[r.f()])
}

// onStartViewChange counts the replicas that joined the view change; with
// f+1 of them the replica sends its state to the new primary.
func (r *Replica) onStartViewChange(from int) {
	r.svcs[from] = true
	if len(r.svcs) != r.f()+1 {
		return
	}
	dvc := Message{Hdr: r.header(), Kind: DoViewChange, Log: slices.Clone(r.log), Commit: r.commit, LastNormal: r.lastNormal}
	if r.primary(r.view) == r.id {
		r.onDoViewChange(dvc)
		return
	}
	r.out.Send(r.primary(r.view), dvc)
}

// onDoViewChange installs the view at its new primary once f+1 replicas
// sent their state: the log of the latest normal view, the longest of them.
func (r *Replica) onDoViewChange(m Message) {
	if r.primary(r.view) != r.id {
		return
	}
	r.dvcs[m.Hdr.From] = m
	if len(r.dvcs) != r.f()+1 {
		return
	}
	best, commit := m, 0
	for _, d := range r.dvcs {
		if d.LastNormal > best.LastNormal || d.LastNormal == best.LastNormal && len(d.Log) > len(best.Log) {
			best = d
		}
		commit = max(commit, d.Commit)
	}
	r.enterNormal(r.view, best.Log, commit)
	r.acked[r.id] = len(r.log)
	r.out.Broadcast(Message{Hdr: r.header(), Kind: StartView, Log: slices.Clone(r.log), Commit: r.commit})
}

// Outbox returns the replica's outbox, which the driver drains.
func (r *Replica) Outbox() *Outbox[Message] { return r.out }

// View returns the current view.
func (r *Replica) View() uint64 { return r.view }

// Committed returns the committed ops.
func (r *Replica) Committed() []string { return slices.Clone(r.log[:r.commit]) }
