// Package partialfilter: filters of a message whose tag has a _ (it
// carries its ballot, not its step), and a filter ccvet cannot look into.
package partialfilter

// Step is a step of a ballot.
type Step int

const (
	Prepare Step = iota
	Accept
)

// Nack rejects a ballot, whatever the step.
//
//sync:msg Ballot,_
type Nack struct {
	Ballot   int
	Promised int
}

// Vote is a vote of a ballot's Accept step.
//
//sync:msg Ballot,Accept
type Vote struct {
	Ballot int
	From   int
}

// Proc is a proposer.
type Proc struct {
	ballot int
	step   Step
	nacks  chan Nack
	votes  chan Vote
	accept func(Vote) bool
}

// Equal keeps the Nacks of the current ballot.
func (p *Proc) Equal() int {
	hi := 0
	//sync:tag p.ballot,p.step
	for range 10 {
		p.ballot++
		p.step = Accept
		rejected := 0
		for range 3 {
			m := <-p.nacks
			if m.Ballot == p.ballot {
				rejected = max(rejected, m.Promised)
			}
		}
		hi = max(hi, rejected)
	}
	return hi
}

// AtLeast keeps later ones too: a message without its step may only be of
// the current round.
func (p *Proc) AtLeast() int {
	hi := 0
	//sync:tag p.ballot,p.step
	for range 10 {
		p.ballot++
		p.step = Accept
		rejected := 0
		for range 3 {
			m := <-p.nacks
			if m.Ballot >= p.ballot {
				rejected = max(rejected, m.Promised) // want `condition 3: Nack stored without checking that its tag is == \(p.ballot,p.step\): its tag has a _, so it must be of the current round, and a message of a later round can get in`
			}
		}
		hi = max(hi, rejected)
	}
	return hi
}

// Opaque filters through a function value ccvet cannot follow.
func (p *Proc) Opaque() int {
	//sync:tag p.ballot,p.step
	for range 10 {
		p.ballot++
		p.step = Accept
		var got []Vote
		for range 3 {
			v := <-p.votes
			if !p.accept(v) {
				continue
			}
			got = append(got, v) // want `cannot prove 3: cannot tell that the Vote stored here is from the current round or a later one \(its filter calls code ccvet does not follow\)`
		}
		_ = got
	}
	return 0
}
