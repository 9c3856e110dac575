// Package commaok is about helpers that return (message, ok): the zero
// message returned with false does not reach the code the caller runs when
// ok; data of the message kept after a computation (slices.Clone) is the
// message's; and a filter through a local holding a call's result
// (h := m.Header(); current(h)) leaves the message inexact.
package commaok

import (
	"slices"
	"time"
)

type Step int

const (
	Append Step = iota
	Ack
)

//sync:msg Term,Append
type AppendEntries struct {
	Term    int
	Entries []string
}

//sync:msg Term,Ack
type AckMsg struct {
	Term int
}

type Transport interface {
	//sync:send
	Send(to int, m any)
	//sync:recv
	Recv(timeout time.Duration) (any, bool)
}

type Replica struct {
	tr   Transport
	term int
	step Step
	log  []string
}

// awaitAppend waits for an AppendEntries of this term or a later one.
func (r *Replica) awaitAppend() (AppendEntries, bool) {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for {
		raw, ok := r.tr.Recv(time.Second)
		if !ok {
			return AppendEntries{}, false
		}
		ae, ok := raw.(AppendEntries)
		if !ok || ae.Term < r.term {
			continue
		}
		return ae, true
	}
}

// awaitAny waits for an AppendEntries of any term.
func (r *Replica) awaitAny() (AppendEntries, bool) {
	for {
		raw, ok := r.tr.Recv(time.Second)
		if !ok {
			return AppendEntries{}, false
		}
		if ae, ok := raw.(AppendEntries); ok {
			return ae, true
		}
	}
}

// Follow installs the log of the leader of this term or a later one.
func (r *Replica) Follow(max int) {
	//sync:tag r.term,r.step
	for i := 0; i < max; i++ {
		r.term++
		r.step = Append
		ae, ok := r.awaitAppend()
		if !ok {
			continue
		}
		if ae.Term > r.term {
			r.term = ae.Term
		}
		r.log = slices.Clone(ae.Entries)
		r.step = Ack
		r.tr.Send(0, AckMsg{Term: r.term})
	}
}

// FollowAny installs the log of a leader of any term, an older one too.
func (r *Replica) FollowAny(max int) {
	//sync:tag r.term,r.step
	for i := 0; i < max; i++ {
		r.term++
		r.step = Append
		ae, ok := r.awaitAny()
		if !ok {
			continue
		}
		if ae.Term > r.term {
			r.term = ae.Term
		}
		r.log = slices.Clone(ae.Entries) // want `cannot prove 3: AppendEntries kept in the state without checking that its tag is >= \(r.term,r.step\)`
		r.step = Ack
		r.tr.Send(0, AckMsg{Term: r.term})
	}
}

// Hdr is a copy of a message's tag.
type Hdr struct{ Term int }

// Header returns the message's tag.
func (m AppendEntries) Header() Hdr { return Hdr{m.Term} }

func (r *Replica) current(h Hdr) bool { return h.Term == r.term }

// FollowCurrent installs the log of this term's leader, filtered through
// a copy of its header kept in a local.
func (r *Replica) FollowCurrent(max int) {
	//sync:tag r.term,r.step
	for i := 0; i < max; i++ {
		r.term++
		r.step = Append
		raw, ok := r.tr.Recv(time.Second)
		if !ok {
			continue
		}
		ae, ok := raw.(AppendEntries)
		if !ok {
			continue
		}
		h := ae.Header()
		if !r.current(h) {
			continue
		}
		r.log = slices.Clone(ae.Entries) // want `cannot prove 3: AppendEntries kept in the state without checking that its tag is >= \(r.term,r.step\)`
		r.step = Ack
		r.tr.Send(0, AckMsg{Term: r.term}) // want `cannot prove 4: the process sends while a AppendEntries that may be of a later round is kept, without a jump to its round first`
	}
}
