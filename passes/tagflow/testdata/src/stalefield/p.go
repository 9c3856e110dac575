// Package stalefield: a synchronization variable assigned from a field
// that is stored to later (p.ballot = p.next, then p.next = ...), and the
// loop-counter shapes whose reference is the previous iteration's tag.
package stalefield

type Step int

const (
	Prepare Step = iota
	Ack
)

//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
}

type P struct {
	ballot, next int
	caught       bool
	step         Step
	in           chan Msg
	out          chan Msg
}

// viaField is correct: the next ballot is kept in a field, one past the
// ballot after the jump. The store to p.next must not leave p.ballot named
// after p.next's new content (it once made ccvet claim that p.ballot did not
// increase, and report p.step as set lower).
func (p *P) viaField() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot = p.next // want `cannot prove 1: cannot tell that p.ballot is not lower than at send`
		p.step = Prepare
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
		m := <-p.in
		if m.Step == Prepare && m.Ballot > p.ballot {
			p.ballot = m.Ballot
		}
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
		p.next = p.ballot + 1
	}
}

// counterUntilCaught is correct: the counter is used only until the first
// jump, and then the ballot is increased. At the loop head the flag
// p.caught is process state, whose facts are dropped, so that the path
// that takes the counter looks like counterOnly's: a rule that called the
// counter shape a violation from the facts at the head would flag this
// correct loop too.
func (p *P) counterUntilCaught() {
	//sync:tag p.ballot,p.step
	for r := 0; ; r++ {
		if p.caught {
			p.ballot++
		} else if r+1 > p.ballot {
			p.ballot = r + 1 // want `cannot prove 1: cannot tell that p.ballot is not lower than at send`
		} else {
			p.ballot++
		}
		p.step = Prepare
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
		m := <-p.in
		if m.Step == Prepare && m.Ballot > p.ballot {
			p.ballot = m.Ballot
			p.caught = true
		}
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}

// counterOnly is the shape of the corpus mutants loop-counter-round and
// ballot-from-attempt-counter: a violation (a jump to a later ballot is
// undone at the next iteration). The path that jumped is told apart from
// the one that did not by what it knows of r + 1 (offset.go), so the
// received ballot, which nothing bounds above, refutes condition I there.
func (p *P) counterOnly() {
	//sync:tag p.ballot,p.step
	for r := 0; ; r++ {
		p.ballot = r + 1 // want `condition 1: p.ballot may be set lower than it was at send \(line 91\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.step = Prepare
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
		m := <-p.in
		if m.Step == Prepare && m.Ballot > p.ballot {
			p.ballot = m.Ballot
		}
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}
