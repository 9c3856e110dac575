// Package evalrepro holds reductions of what the real-world evaluation
// (EVALUATION.md) found, each asserting what the analysis now says.
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
