package evalrepro

import (
	"fmt"
	"sync/atomic"
)

// FP-2: a getter that reads the tag with an atomic load is a read of the
// tag, so the filter is recognised (hashicorp/raft's getCurrentTerm).

type Resp struct{ Term uint64 }

type A struct {
	term uint64
	in   chan *Req
}

func (a *A) getTerm() uint64 { return atomic.LoadUint64(&a.term) }

func (a *A) Run() {
	//sync:tag a.term
	for {
		m := <-a.in
		if m.Term < a.getTerm() {
			continue
		}
		resp := &Resp{}
		resp.Term = m.Term
		_ = resp
	}
}

// Without the filter, the reply built from the message holds a stale
// message's data: building it stores no message (a reply kept or sent
// would be checked there).
func (a *A) NoFilter() {
	//sync:tag a.term
	for {
		m := <-a.in
		resp := &Resp{}
		resp.Term = m.Term
		_ = resp
	}
}

// The tag in an embedded struct whose methods read and write it
// atomically (raft's raftState): the setter is a write of the tag, and
// the jump to the message's term makes the reply and the send correct.
type state struct{ term uint64 }

func (s *state) getTerm() uint64  { return atomic.LoadUint64(&s.term) }
func (s *state) setTerm(t uint64) { atomic.StoreUint64(&s.term, t) }

type R struct {
	state
	in  chan *Req
	out chan *Req
}

func (r *R) Run() {
	//sync:tag r.term
	for {
		m := <-r.in
		if m.Term < r.getTerm() {
			continue
		}
		if m.Term > r.getTerm() {
			r.setTerm(m.Term)
		}
		resp := &Resp{}
		resp.Term = m.Term
		r.out <- &Req{Term: r.getTerm()}
	}
}

// The setter skipped: the send carries a term the process never jumped to.
func (r *R) NoJump() {
	//sync:tag r.term
	for {
		m := <-r.in
		if m.Term < r.getTerm() {
			continue
		}
		r.out <- &Req{Term: m.Term} // want `condition 2: Req sent with Term different from the current r\.term`
	}
}

// atomic.LoadInt64 and AddInt64 on the tag directly.

//sync:msg Round
type V struct{ Round int64 }

type B struct {
	round int64
	in    chan V
}

func (b *B) Run() {
	//sync:tag b.round
	for {
		atomic.AddInt64(&b.round, 1)
		var mbox []V
		for len(mbox) < 2 {
			v := <-b.in
			if v.Round != atomic.LoadInt64(&b.round) {
				continue
			}
			mbox = append(mbox, v)
		}
	}
}

// Subtracting with AddUint64(&x, ^uint64(0)) lowers the tag.
func (a *A) Down() {
	//sync:tag a.term
	for {
		<-a.in
		atomic.AddUint64(&a.term, ^uint64(0)) // want `condition 1: a\.term is set lower than it was at receive \(line 117\)`
	}
}

// Storing a message's term with no filter: the tag may go back.
func (a *A) Adopt() {
	//sync:tag a.term
	for {
		m := <-a.in
		atomic.StoreUint64(&a.term, m.Term) // want `cannot prove 1: cannot tell that a\.term is not lower than at receive \(line 126\)`
	}
}

// A compare-and-swap that increments the tag.
func (a *A) CAS() {
	//sync:tag a.term
	for {
		<-a.in
		old := atomic.LoadUint64(&a.term)
		atomic.CompareAndSwapUint64(&a.term, old, old+1)
	}
}

// An increment by an unknown amount.
func (b *B) AddUnknown(d int64) {
	//sync:tag b.round
	for {
		<-b.in
		atomic.AddInt64(&b.round, d) // want `cannot prove 1: cannot tell that b\.round is not lower than at receive \(line 145\)`
	}
}

// A function of another package handed the tag's address may write it.
func (b *B) Scan(s string) {
	//sync:tag b.round
	for {
		<-b.in
		fmt.Sscan(s, &b.round) // want `cannot prove 1: the call to Sscan, which is passed the address of b\.round, may change b\.round and ccvet cannot follow it`
	}
}
