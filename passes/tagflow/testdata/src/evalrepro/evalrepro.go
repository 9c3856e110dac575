// Package evalrepro holds reductions of what the real-world evaluation
// (docs/evaluation.md) found, each asserting what the analysis now says.
package evalrepro

import "log"

// FP-1: logging a field of a received message is not storing it.

//sync:msg Term
type Req struct{ Term, Index uint64 }

type P struct {
	term uint64
	in   chan *Req
}

func (p *P) Run() {
	//sync:tag p.term
	for {
		m := <-p.in
		log.Printf("index %d", m.Index)
	}
}

// A mailbox grown with append is still a mailbox.
func (p *P) Collect() {
	//sync:tag p.term
	for {
		p.term++
		var mbox []*Req
		for len(mbox) < 3 {
			m := <-p.in
			mbox = append(mbox, m) // want `condition 3: Req stored without checking that its tag is >= \(p\.term\): a message of an earlier round can get in`
		}
	}
}

// TG-1: a range loop over a slice is a loop the analysis finds.

//sync:msg Round
type M struct{ Round uint64 }

type Q struct{ round uint64 }

func (q *Q) one(m *M) error { return nil }

func (q *Q) Many(ms []*M) error {
	//sync:tag q.round
	for _, m := range ms {
		if err := q.one(m); err != nil {
			return err
		}
	}
	return nil
}

// TG-2: an interface call whose implementation is a method of a generic
// type may write the tag.

type Ev[T any] interface{ apply(*S[T]) }

type S[T any] struct {
	e  uint64
	ch chan Ev[T]
}

type reset[T any] struct{}

func (reset[T]) apply(s *S[T]) { s.e = 0 }

func (s *S[T]) Run() {
	//sync:tag s.e
	for {
		ev := <-s.ch
		ev.apply(s) // want `cannot prove 1: the call to the method apply of an interface may change s\.e and ccvet cannot follow it`
	}
}
