// Package panics has two tagged loops; the test makes the analysis of the
// first one panic, as a bug of ccvet would.
package panics

//sync:msg Round
type Msg struct{ Round int }

type P struct {
	round int
	out   chan Msg
}

func (p *P) first() {
	//sync:tag p.round
	for { // want `cannot prove 1: internal error in ccvet while analysing this loop: boom \(please report it\)` `cannot prove 2: internal error` `cannot prove 3: internal error` `cannot prove 4: internal error`
		p.round++
	}
}

func (p *P) second() {
	//sync:tag p.round
	for {
		p.out <- Msg{Round: p.round}
		p.round-- // want `condition 1: p.round is set lower than it was at send \(line 23\)`
	}
}
