// Package recvwrites stores messages without keeping them: a mailbox that
// records only the sender (prepares[m.From] = true) or a count (n++), and
// handlers of the package called inside the reception. Such a write
// stores the message it depends on, and its tag must be checked as if
// the message itself were kept (condition III). So is a count kept by a
// helper's own reception loop (countAnyPrepare).
package recvwrites

import "time"

type Step int

const (
	Prepare Step = iota
	Commit
	Decide
)

//sync:msg View,Step
type Msg struct {
	View int
	Step Step
	From int
	OK   bool
}

//sync:msg Tx,Decide
type Decision struct {
	Tx     int
	Commit bool
}

type Transport interface {
	// Recv returns false on a timeout.
	//
	//sync:recv
	Recv(d time.Duration) (Msg, bool)
}

type Replica struct {
	view      int
	step      Step
	in        chan Msg
	raw       chan any
	net       Transport
	committed bool
	decision  []Decision
	timeout   time.Duration
}

func (r *Replica) keyOnly(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		prepares := make(map[int]bool)
		for len(prepares) < quorum {
			m := <-r.in
			if m.Step != Prepare { // the view is not checked
				continue
			}
			prepares[m.From] = true // want `condition 3: Msg stored without checking that its tag is >= \(r.view,r.step\)`
		}
		r.committed = true
	}
}

func (r *Replica) keyOnlyFiltered(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		prepares := make(map[int]bool)
		for len(prepares) < quorum {
			m := <-r.in
			if m.View != r.view || m.Step != Prepare {
				continue
			}
			prepares[m.From] = true
		}
		r.committed = true
	}
}

func (r *Replica) counter(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		n := 0
		for n < quorum {
			m := <-r.in
			if m.Step != Prepare {
				continue
			}
			n++ // want `condition 3: Msg stored without checking that its tag is >= \(r.view,r.step\)`
		}
		r.committed = true
	}
}

func (r *Replica) counterFiltered(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		n := 0
		for n < quorum {
			m := <-r.in
			if m.View != r.view || m.Step != Prepare {
				continue
			}
			n++
		}
		r.committed = true
	}
}

// countAll counts every message received, of whatever round.
func (r *Replica) countAll(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		n := 0
		for n < quorum {
			<-r.in
			n++ // want `condition 3: Msg stored without checking that its tag is >= \(r.view,r.step\)`
		}
		r.committed = true
	}
}

// iterations bounds the number of receives: i++ is reached whatever the
// filter said, and the messages kept are checked.
func (r *Replica) iterations(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		var acks []Msg
		for i := 0; i < 2*quorum; i++ {
			m := <-r.in
			if m.View != r.view || m.Step != Prepare {
				continue
			}
			acks = append(acks, m)
		}
		r.committed = len(acks) >= quorum
	}
}

// timeouts counts timeouts, which receive no message; tries is written
// before the receive, k is declared inside the reception.
func (r *Replica) timeouts(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		prepares := make(map[int]bool)
		timeouts, tries := 0, 0
		t := time.NewTimer(r.timeout)
		for len(prepares) < quorum && timeouts < 3 {
			tries++
			select {
			case m := <-r.in:
				k := 0
				if m.View != r.view || m.Step != Prepare {
					k++
					continue
				}
				prepares[m.From] = true
			case <-t.C:
				timeouts++
			}
		}
		r.committed = len(prepares) >= quorum && tries > 0
	}
}

// recvTimeouts counts the timeouts of a //sync:recv function.
func (r *Replica) recvTimeouts(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		n, timeouts := 0, 0
		for n < quorum && timeouts < 3 {
			m, ok := r.net.Recv(r.timeout)
			if !ok {
				timeouts++
				continue
			}
			if m.View != r.view || m.Step != Prepare {
				continue
			}
			n++
		}
		r.committed = n >= quorum
	}
}

func (r *Replica) recvTimeoutsUnfiltered(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Prepare
		n, timeouts := 0, 0
		for n < quorum && timeouts < 3 {
			_, ok := r.net.Recv(r.timeout)
			if !ok {
				timeouts++
				continue
			}
			n++ // want `condition 3: Msg stored without checking that its tag is >= \(r.view,r.step\)`
		}
		r.committed = n >= quorum
	}
}

type Proc struct {
	tx       int
	step     Step
	in       chan any
	decision []Decision
	outcomes []bool
}

func (p *Proc) onDecision(m Decision) {
	// Called from the receptions of viaMethod and of viaDispatcher: each
	// reports. p.decision is emptied at the start of each round, a mailbox
	// (fieldmbox), but the Decision it keeps is not checked.
	p.decision = append(p.decision, m) // want `condition 3: Decision stored without checking that its tag is >= \(p.tx,p.step\)` `condition 3: Decision stored without checking that its tag is >= \(p.tx,p.step\)`
}

func (p *Proc) handle(raw any) {
	switch m := raw.(type) {
	case Decision:
		p.onDecision(m)
	}
}

func (p *Proc) viaMethod() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok {
				p.onDecision(m)
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

func (p *Proc) viaDispatcher() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			raw := <-p.in
			p.handle(raw)
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

func (p *Proc) onDecisionChecked(m Decision) {
	if m.Tx != p.tx {
		return
	}
	p.decision = append(p.decision, m)
}

// viaCheckedMethod's handler checks the tag, and p.decision, emptied at the
// start of the round, is a mailbox (fieldmbox): nothing to report.
func (p *Proc) viaCheckedMethod() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok {
				p.onDecisionChecked(m)
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// countDecisions counts Decisions of any transaction in a local counter.
func (p *Proc) countDecisions() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		n := 0
		for n == 0 {
			raw := <-p.in
			if _, ok := raw.(Decision); ok {
				n++ // want `condition 3: Decision stored without checking that its tag is >= \(p.tx,p.step\)`
			}
		}
		p.outcomes = append(p.outcomes, n > 0)
	}
}

// countPrepares counts the prepares of the current round in a helper: its
// count is written by its own reception loop.
func (r *Replica) countPrepares(quorum int) {
	r.step = Prepare
	n := 0
	for n < quorum {
		m := <-r.in
		if m.View == r.view && m.Step == Prepare {
			n++
		}
	}
}

// countAnyPrepare forgets the view.
func (r *Replica) countAnyPrepare(quorum int) {
	r.step = Prepare
	n := 0
	for n < quorum {
		m := <-r.in
		if m.Step == Prepare {
			n++ // want `condition 3: Msg stored without checking that its tag is >= \(r.view,r.step\)`
		}
	}
}

func (r *Replica) helperCounter(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.countPrepares(quorum)
		r.committed = true
	}
}

func (r *Replica) helperCounterStale(quorum int) {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.countAnyPrepare(quorum)
		r.committed = true
	}
}
