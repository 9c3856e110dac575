// Package writes checks that the ways Go can write a synchronization
// variable are all seen as writes.
package writes

//sync:msg Round
type M struct{ Round uint64 }

type S struct{ round uint64 }

type P struct {
	st S
	in chan M
}

// Storing the whole struct that holds the tag assigns the tag.
func (p *P) Whole(init S) {
	//sync:tag p.st.round
	for {
		<-p.in
		p.st = init // want `cannot prove 1: cannot tell that p\.st\.round is not lower than at receive \(line 19\)`
	}
}

func (p *P) reset(s S) { p.st = s } // want `cannot prove 1: cannot tell that p\.st\.round is not lower than at receive \(line 29\)`

func (p *P) Setter(init S) {
	//sync:tag p.st.round
	for {
		<-p.in
		p.reset(init)
	}
}

// Storing back a copy of the struct keeps the tag; a new struct with a
// larger round increases it.
func (p *P) Copy() {
	//sync:tag p.st.round
	for {
		<-p.in
		saved := p.st
		p.st = saved
		p.st = S{round: p.st.round + 1}
	}
}

// The copy taken before and stored back after an increase undoes it.
func (p *P) Restore() {
	//sync:tag p.st.round
	for {
		saved := p.st
		p.st.round++
		<-p.in
		p.st = saved // want `condition 1: p\.st\.round is set lower than it was at receive \(line 52\)`
	}
}
