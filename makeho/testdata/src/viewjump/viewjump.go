// Package viewjump is a make-HO abort case: the StartViewChange round of
// the VR view change as the corpus had it before (Liskov and Cowling 2012,
// sec. 4.2, step 1 read literally). A replica that hears of a later view
// jumps to it and re-broadcasts StartViewChange for that view in the same
// iteration: a second send of the round, after its reception. The round
// model sends before it receives, so the paper's make-HO aborts (two sends
// on one path of a round). The corpus VR (testdata/corpus/src/vrviewchange)
// announces the later view at the start of its next attempt instead.
package viewjump

import (
	"time"

	"transport"
)

type Step int

const (
	StartViewChange Step = iota
	DoViewChange
)

//sync:msg View,Step
type Message struct {
	Step Step
	View int
}

type Replica struct {
	n, f    int
	id      int
	net     transport.Net
	timeout time.Duration

	view int
	step Step
}

func count(mbox map[int]Message, view int) int {
	n := 0
	for _, m := range mbox {
		if m.View == view {
			n++
		}
	}
	return n
}

func (r *Replica) ChangeView(attempts int) {
	//sync:tag r.view,r.step
	for range attempts {
		r.view++
		r.step = StartViewChange
		r.net.Broadcast(Message{Step: r.step, View: r.view})
		svcs := make(map[int]Message)
		deadline := time.Now().Add(r.timeout)
		for len(svcs) < r.f {
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
		// Join the highest view heard of and announce it, stamped with
		// the new view: a second send of round StartViewChange.
		before := r.view
		for _, m := range svcs {
			if m.View > r.view {
				r.view = m.View
			}
		}
		if r.view > before {
			r.net.Broadcast(Message{Step: r.step, View: r.view})
		}
		if count(svcs, r.view) < r.f {
			continue
		}
		r.step = DoViewChange
		r.net.Send(r.view%r.n, Message{Step: r.step, View: r.view})
	}
}
