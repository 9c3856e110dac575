// Package laterdata checks receptions whose data is used after the tag
// moved on: data of a message checked against the tag of its round
// (block = p.Block after r.phase = Commit), a part of a message with no
// tag field kept as the best so far (high = nv.HighQC), the ok flag of a
// type assertion reusing a variable, and a message returned with its flag
// by a helper (p, ok := r.await(), raw, ok := r.recv()). The whole message
// stored after the tag moved on is still checked against the current tag.
package laterdata

type Phase int

const (
	NewView Phase = iota + 1
	Prepare
	Commit
)

// QC is a certificate: its View is not the tag of the message holding it.
type QC struct {
	View  int
	Block string
}

//sync:msg View,NewView
type NewViewMsg struct {
	View   int
	HighQC QC
}

//sync:msg View,Phase
type Proposal struct {
	View  int
	Phase Phase
	Block string
	Just  QC
}

type Replica struct {
	view    int
	phase   Phase
	in      chan any
	nvs     chan NewViewMsg
	out     chan Proposal
	decided []string
	log     []Proposal
}

// The highest certificate of the NewView messages of the view, compared
// by its View, is sent in the Proposal: the Proposal's View is r.view.
func (r *Replica) HighQC() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = NewView
		var high QC
		for range 3 {
			nv := <-r.nvs
			if nv.View != r.view {
				continue
			}
			if nv.HighQC.View > high.View {
				high = nv.HighQC
			}
		}
		r.phase = Prepare
		r.out <- Proposal{View: r.view, Phase: r.phase, Just: high}
	}
}

// The block of the round's proposal is decided once the replica moved to
// Commit: it was received in (r.view, Prepare), the tag of the last
// communication point.
func (r *Replica) DataAfterPhase() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = Prepare
		raw := <-r.in
		p, ok := raw.(Proposal)
		if !ok || p.View != r.view || p.Phase != r.phase {
			continue
		}
		block := p.Block
		r.phase = Commit
		r.decided = append(r.decided, block)
	}
}

// The same with a filter that forgets the phase: a proposal of an earlier
// phase of the view gets in.
func (r *Replica) DataAfterPhaseNoPhase() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = Commit
		raw := <-r.in
		p, ok := raw.(Proposal)
		if !ok || p.View != r.view {
			continue
		}
		block := p.Block
		r.phase = Commit + 1
		r.decided = append(r.decided, block) // want `condition 3: Proposal stored without checking that its tag is >= \(r.view,r.phase\): a message of an earlier round can get in`
	}
}

// The whole proposal is kept in the log once the replica moved to Commit:
// the log then holds a message of an earlier round.
func (r *Replica) WholeAfterPhase() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = Prepare
		raw := <-r.in
		p, ok := raw.(Proposal)
		if !ok || p.View != r.view || p.Phase != r.phase {
			continue
		}
		r.phase = Commit
		r.log = append(r.log, p) // want `condition 3: Proposal stored without checking that its tag is >= \(r.view,r.phase\): a message of an earlier round can get in`
	}
}

// ok is reused by the type assertion: it is a flag, not the message, and
// q is kept in p only once it passed the filter.
func (r *Replica) ReusedOk() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = Prepare
		var p Proposal
		for {
			raw, ok := <-r.in
			if !ok {
				break
			}
			q, ok := raw.(Proposal)
			if ok && q.View == r.view && q.Phase == r.phase {
				p = q
				break
			}
		}
		block := p.Block
		r.phase = Commit
		r.decided = append(r.decided, block)
	}
}

// await returns the proposal of the current view and phase, and whether
// there is one.
func (r *Replica) await() (Proposal, bool) {
	for {
		raw, ok := <-r.in
		if !ok {
			return Proposal{}, false
		}
		p, ok := raw.(Proposal)
		if ok && p.View == r.view && p.Phase == r.phase {
			return p, true
		}
	}
}

// awaitAny returns any proposal.
func (r *Replica) awaitAny() (Proposal, bool) {
	raw, ok := <-r.in
	if !ok {
		return Proposal{}, false
	}
	p, ok := raw.(Proposal)
	return p, ok
}

// The proposal comes from a helper with its flag: what the helper's
// filter said of it holds in the caller.
func (r *Replica) Await() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = Prepare
		p, ok := r.await()
		if !ok {
			continue
		}
		block := p.Block
		r.phase = Commit
		r.decided = append(r.decided, block)
	}
}

// The same with a helper that does not filter.
func (r *Replica) AwaitAny() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = Prepare
		p, ok := r.awaitAny()
		if !ok {
			continue
		}
		block := p.Block
		r.phase = Commit
		r.decided = append(r.decided, block) // want `condition 3: Proposal stored without checking that its tag is >= \(r.view,r.phase\): a message of an earlier round can get in`
	}
}

// recv returns the next message and whether there is one (not annotated
// //sync:recv: it is followed).
func (r *Replica) recv() (any, bool) {
	m, ok := <-r.in
	return m, ok
}

// The messages of a helper that returns them with a flag are checked by
// the caller's filter: this one forgets the view.
func (r *Replica) RecvHelper() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = Prepare
		var got []Proposal
		for range 3 {
			raw, ok := r.recv()
			if !ok {
				break
			}
			if p, isProp := raw.(Proposal); isProp && p.Phase == r.phase {
				got = append(got, p) // want `condition 3: Proposal stored without checking that its tag is >= \(r.view,r.phase\): a message of an earlier round can get in`
			}
		}
		r.phase = Commit
		r.decided = append(r.decided, got[0].Block)
	}
}

// The same with the view checked.
func (r *Replica) RecvHelperOK() {
	//sync:tag r.view,r.phase
	for {
		r.view++
		r.phase = Prepare
		var got []Proposal
		for range 3 {
			raw, ok := r.recv()
			if !ok {
				break
			}
			if p, isProp := raw.(Proposal); isProp && p.View == r.view && p.Phase == r.phase {
				got = append(got, p)
			}
		}
		r.phase = Commit
		r.decided = append(r.decided, got[0].Block)
	}
}
