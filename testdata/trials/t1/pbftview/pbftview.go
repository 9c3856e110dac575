package pbftview

import (
	"maps"
	"slices"
	"time"
)

// Step is the round of a view change.
type Step int

// The rounds of a view change.
const (
	StepViewChange Step = iota
	StepNewView
)

// Entry is a request prepared at a sequence number in a view.
type Entry struct {
	Seq, View int
	Request   string
}

// ViewChange asks to move to View; Prepared lists the sender's prepared
// requests.
//
//sync:msg View,StepViewChange
type ViewChange struct {
	View     int
	Replica  int
	Prepared []Entry
}

// NewView starts View; Log holds the requests re-proposed in it, by
// increasing sequence number.
//
//sync:msg View,StepNewView
type NewView struct {
	View    int
	Primary int
	Log     []Entry
}

// Inbox is a replica's set of incoming channels.
type Inbox struct {
	ViewChange chan ViewChange
	NewView    chan NewView
}

// NewInbox returns an inbox whose channels buffer size messages.
func NewInbox(size int) *Inbox {
	return &Inbox{ViewChange: make(chan ViewChange, size), NewView: make(chan NewView, size)}
}

type viewState struct {
	view int
	step Step
}

// Replica is one replica in a view change.
type Replica struct {
	id, n, f int
	timeout  time.Duration

	inbox *Inbox   //sync:inbox
	peers []*Inbox //sync:peers

	vs viewState // synchronization variables

	prepared []Entry // requests prepared so far
	log      []Entry // the log installed with the current view
}

// NewReplica returns replica id of n = 3f+1 in view, with the prepared
// requests it already holds.
func NewReplica(id, n, view int, timeout time.Duration, inbox *Inbox, peers []*Inbox, prepared []Entry) *Replica {
	return &Replica{id: id, n: n, f: (n - 1) / 3, timeout: timeout, inbox: inbox, peers: peers,
		vs: viewState{view: view}, prepared: prepared}
}

// View returns the replica's view and the log it installed there.
func (r *Replica) View() (int, []Entry) { return r.vs.view, r.log }

func (r *Replica) primaryOf(view int) int { return view % r.n }

// ChangeView leaves the current view; it makes at most attempts attempts
// and reports whether a new view was installed.
func (r *Replica) ChangeView(attempts int) bool {
	quorum := 2*r.f + 1
	r.vs.view++

	//sync:tag r.vs.view,r.vs.step
	for range attempts {
		r.vs.step = StepViewChange
		vc := ViewChange{View: r.vs.view, Replica: r.id, Prepared: r.prepared}
		for _, p := range r.peers {
			p.ViewChange <- vc
		}

		vcs := make(map[int]ViewChange) // replica -> its latest ViewChange
		timer := time.NewTimer(r.timeout)
	collect:
		for !r.enough(vcs, quorum) {
			select {
			case m := <-r.inbox.ViewChange:
				if m.View < r.vs.view {
					continue // an older view change
				}
				vcs[m.Replica] = m
			case <-timer.C:
				break collect
			}
		}
		timer.Stop()
		for _, m := range vcs {
			if m.View > r.vs.view {
				r.vs.view = m.View // others are ahead: join them
			}
		}

		r.vs.step = StepNewView
		if r.primaryOf(r.vs.view) == r.id {
			support := ofView(vcs, r.vs.view)
			if len(support) < quorum {
				r.vs.view++ // cannot lead this view
				continue
			}
			nv := NewView{View: r.vs.view, Primary: r.id, Log: reproposals(support)}
			for _, p := range r.peers {
				p.NewView <- nv
			}
		}

		var nv *NewView
		timer = time.NewTimer(r.timeout)
	wait:
		for nv == nil {
			select {
			case m := <-r.inbox.NewView:
				if m.View != r.vs.view || m.Primary != r.primaryOf(m.View) {
					continue
				}
				nv = &m
			case <-timer.C:
				break wait
			}
		}
		timer.Stop()
		if nv == nil {
			r.vs.view++ // the primary failed too: try the next view
			continue
		}
		r.log = slices.Clone(nv.Log)
		return true
	}
	return false
}

// enough reports whether the reception can stop: 2f+1 ViewChange messages
// of the current view, or f+1 replicas already in later views.
func (r *Replica) enough(vcs map[int]ViewChange, quorum int) bool {
	current, ahead := 0, 0
	for _, m := range vcs {
		switch {
		case m.View == r.vs.view:
			current++
		case m.View > r.vs.view:
			ahead++
		}
	}
	return current >= quorum || ahead >= r.f+1
}

// ofView returns the ViewChange messages of view v, by replica.
func ofView(vcs map[int]ViewChange, v int) []ViewChange {
	var out []ViewChange
	for _, q := range slices.Sorted(maps.Keys(vcs)) {
		if vcs[q].View == v {
			out = append(out, vcs[q])
		}
	}
	return out
}

// reproposals picks, for every sequence number prepared in some
// ViewChange, the request prepared in the highest view.
func reproposals(vcs []ViewChange) []Entry {
	best := make(map[int]Entry)
	for _, m := range vcs {
		for _, e := range m.Prepared {
			if b, ok := best[e.Seq]; !ok || e.View > b.View {
				best[e.Seq] = e
			}
		}
	}
	var log []Entry
	for _, s := range slices.Sorted(maps.Keys(best)) {
		log = append(log, best[s])
	}
	return log
}
