package minbft

import (
	"slices"
	"time"
)

// Step is the round inside a slot of a view, in execution order.
type Step int

// The rounds.
const (
	StepViewChange Step = iota // replicas send their accepted requests to the new primary
	StepNewView                // the new primary sends the log of the view
	StepPrepare                // the primary orders a request
	StepCommit                 // replicas commit it
)

// UI is a unique identifier certified by a replica's USIG.
type UI struct {
	Replica int
	Counter uint64
}

// USIG is the trusted counter of a replica.
type USIG struct {
	id      int
	counter uint64
}

// Create returns the next identifier of the counter.
func (u *USIG) Create() UI {
	u.counter++
	return UI{Replica: u.id, Counter: u.counter}
}

// Message is the only message type; Step says which round it belongs to.
//
//sync:msg View,Slot,Step
type Message struct {
	View    uint64
	Slot    uint64
	Step    Step
	From    int
	Request string   // Prepare and Commit
	UI      UI       // Prepare: the primary's counter value
	Log     []string // ViewChange: accepted requests; NewView: the new log
}

// Replica is one MinBFT replica.
type Replica struct {
	id, n, f int
	inbox    <-chan Message
	peers    []chan<- Message
	usig     *USIG
	timeout  time.Duration
	maxView  uint64
	requests []string // the client requests, ordered by the primary

	view uint64
	slot uint64
	step Step

	accepted []string // requests this replica sent a COMMIT for, in order
	log      []string // executed requests
	lastUI   map[int]uint64
}

// NewReplica returns replica id. peers[q] is the channel to replica q.
// Run gives up after view maxView.
func NewReplica(id int, inbox <-chan Message, peers []chan<- Message, requests []string, timeout time.Duration, maxView uint64) *Replica {
	return &Replica{
		id: id, n: len(peers), f: (len(peers) - 1) / 2,
		inbox: inbox, peers: peers, usig: &USIG{id: id},
		timeout: timeout, maxView: maxView, requests: requests,
		step: StepPrepare, lastUI: map[int]uint64{},
	}
}

// Log returns the executed requests.
func (r *Replica) Log() []string { return slices.Clone(r.log) }

// View returns the current view.
func (r *Replica) View() uint64 { return r.view }

func (r *Replica) primary(view uint64) int { return int(view % uint64(r.n)) }

func (r *Replica) broadcast(m Message) {
	for _, p := range r.peers {
		p <- m
	}
}

// sendOthers sends m to every replica but this one.
func (r *Replica) sendOthers(m Message) {
	for q, p := range r.peers {
		if q != r.id {
			p <- m
		}
	}
}

// nextView gives up the current view.
func (r *Replica) nextView() {
	r.view++
	r.slot = 0
	r.step = StepViewChange
}

// install adopts the log of a NEW-VIEW.
func (r *Replica) install(log []string) {
	r.accepted = slices.Clone(log)
	r.log = slices.Clone(log)
}

// Run orders and executes requests until want of them were executed or the
// replica gives up view maxView.
func (r *Replica) Run(want int) {
	//sync:tag r.view,r.slot,r.step
	for len(r.log) < want && r.view <= r.maxView {
		if r.step == StepViewChange {
			r.changeView()
			continue
		}

		// Round Prepare of (view, slot).
		r.step = StepPrepare
		if r.primary(r.view) == r.id && len(r.accepted) < len(r.requests) {
			r.broadcast(Message{View: r.view, Slot: r.slot, Step: r.step, From: r.id,
				Request: r.requests[len(r.accepted)], UI: r.usig.Create()})
		}
		var got []Message
		timer := time.NewTimer(r.timeout)
	prepare:
		for len(got) == 0 {
			select {
			case m := <-r.inbox:
				switch {
				case m.Step == StepNewView && m.View > r.view && m.From == r.primary(m.View):
					got = append(got, m) // a view we missed: jump to it below
				case m.Step == StepPrepare && m.View == r.view && m.Slot == r.slot &&
					m.From == r.primary(r.view) && m.UI.Counter > r.lastUI[m.From]:
					got = append(got, m)
				}
			case <-timer.C:
				break prepare
			}
		}
		timer.Stop()
		if len(got) == 0 {
			r.nextView()
			continue
		}
		if nv := got[0]; nv.Step == StepNewView {
			r.view, r.slot, r.step = nv.View, nv.Slot, nv.Step
			r.install(nv.Log)
			continue
		}
		prep := got[0]
		r.lastUI[prep.From] = prep.UI.Counter
		r.accepted = append(r.accepted, prep.Request)

		// Round Commit. Our own COMMIT is implied: we need f of the others.
		r.step = StepCommit
		r.sendOthers(Message{View: r.view, Slot: r.slot, Step: r.step, From: r.id, Request: prep.Request})
		commits := map[int]Message{}
		timer = time.NewTimer(r.timeout)
	commit:
		for len(commits) < r.f {
			select {
			case m := <-r.inbox:
				if m.View != r.view || m.Slot != r.slot || m.Step != r.step || m.Request != prep.Request {
					continue
				}
				commits[m.From] = m
			case <-timer.C:
				break commit
			}
		}
		timer.Stop()
		if len(commits) < r.f {
			r.nextView()
			continue
		}
		r.log = append(r.log, prep.Request)
		r.slot++
	}
}

// changeView runs the ViewChange and NewView rounds of r.view.
func (r *Replica) changeView() {
	r.broadcast(Message{View: r.view, Slot: r.slot, Step: r.step, From: r.id, Log: slices.Clone(r.accepted)})
	if r.primary(r.view) == r.id {
		vcs := map[int]Message{}
		timer := time.NewTimer(r.timeout)
	collect:
		for len(vcs) < r.f+1 {
			select {
			case m := <-r.inbox:
				if m.View != r.view || m.Slot != r.slot || m.Step != r.step {
					continue
				}
				vcs[m.From] = m
			case <-timer.C:
				break collect
			}
		}
		timer.Stop()
		if len(vcs) < r.f+1 {
			r.nextView()
			return
		}
		r.step = StepNewView
		r.broadcast(Message{View: r.view, Slot: r.slot, Step: r.step, From: r.id, Log: longest(vcs)})
	}

	r.step = StepNewView
	var nvs []Message
	timer := time.NewTimer(r.timeout)
wait:
	for len(nvs) == 0 {
		select {
		case m := <-r.inbox:
			if m.Step != StepNewView || m.View < r.view || m.From != r.primary(m.View) {
				continue
			}
			nvs = append(nvs, m)
		case <-timer.C:
			break wait
		}
	}
	timer.Stop()
	if len(nvs) == 0 {
		r.nextView()
		return
	}
	r.view, r.slot = nvs[0].View, nvs[0].Slot // a later view's NEW-VIEW: jump to it
	r.install(nvs[0].Log)
}

// longest returns the longest log of the VIEW-CHANGEs.
func longest(vcs map[int]Message) []string {
	var best []string
	for _, m := range vcs {
		if len(m.Log) > len(best) {
			best = m.Log
		}
	}
	return slices.Clone(best)
}
