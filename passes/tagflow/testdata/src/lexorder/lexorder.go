// Package lexorder filters and jumps on tags of several components in the
// usual Go spellings: a lexicographic drop test, a jump component by
// component, and a conditional jump to the one message kept.
package lexorder

type Step int

const (
	Append Step = iota
	Ack
)

//sync:msg Term,Seq,Append
type AppendEntries struct{ Term, Seq, Leader int }

//sync:msg Term,Seq,Ack
type AppendResp struct{ Term, Seq int }

type Node struct {
	term, seq int
	step      Step
	leader    int
	in        chan AppendEntries
	out       chan AppendResp
}

// Older term, or an older heartbeat of this term, is dropped: the filter
// shows (m.Term, m.Seq) >= (r.term, r.seq).
func (r *Node) Filter() {
	//sync:tag r.term,r.seq,r.step
	for {
		r.seq++
		r.step = Append
		m := <-r.in
		if m.Term < r.term || (m.Term == r.term && m.Seq < r.seq) {
			continue
		}
		ae := m
		r.term, r.seq = ae.Term, ae.Seq
		r.leader = ae.Leader
		r.step = Ack
		r.out <- AppendResp{Term: r.term, Seq: r.seq}
	}
}

// The jump goes component by component; on the path without one, the
// message is not above the tag.
func (r *Node) Jump() {
	//sync:tag r.term,r.seq,r.step
	for {
		r.seq++
		r.step = Append
		var ae AppendEntries
		m := <-r.in
		if !(m.Term > r.term || (m.Term == r.term && m.Seq >= r.seq)) {
			continue
		}
		ae = m
		if ae.Term > r.term {
			r.term, r.seq = ae.Term, ae.Seq
		} else if ae.Seq > r.seq {
			r.seq = ae.Seq
		}
		r.leader = ae.Leader
		r.step = Ack
		r.out <- AppendResp{Term: r.term, Seq: r.seq}
	}
}

// The one message kept is jumped to if it is later.
func (r *Node) CondJump() {
	//sync:tag r.term,r.seq,r.step
	for {
		r.seq++
		r.step = Append
		var ae AppendEntries
		m := <-r.in
		if m.Term < r.term || m.Term == r.term && m.Seq < r.seq {
			continue
		}
		ae = m
		if ae.Term > r.term || ae.Term == r.term && ae.Seq > r.seq {
			r.term, r.seq = ae.Term, ae.Seq
		}
		r.step = Ack
		r.out <- AppendResp{Term: r.term, Seq: r.seq}
		r.leader = ae.Leader
	}
}

// Without the jump, the later message stays unjumped to.
func (r *Node) NoJump() {
	//sync:tag r.term,r.seq,r.step
	for {
		r.seq++
		r.step = Append
		var ae AppendEntries
		m := <-r.in
		if m.Term < r.term || m.Term == r.term && m.Seq < r.seq {
			continue
		}
		ae = m
		r.step = Ack
		r.out <- AppendResp{Term: r.term, Seq: r.seq} // want `condition 4: this send is reached while the mailbox may hold a AppendEntries of a later round \(stored at line 102\)`
		r.leader = ae.Leader
	}
}
