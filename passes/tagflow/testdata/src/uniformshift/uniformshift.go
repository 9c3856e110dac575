// Package uniformshift checks the refutation of condition I when the
// received rounds are compared among themselves (the votes of the latest
// round heard of): a witness that moves every received round up by the
// same amount keeps those comparisons, so they do not bound the rounds.
package uniformshift

type Step int

const (
	Vote Step = iota
	Done
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	Value int
}

type Proc struct {
	round int
	step  Step
	n     int
	x     int
	last  int
	best  Msg
	in    chan Msg
	out   chan Msg
}

// latest is the largest round of the votes (0 for none).
func latest(votes map[int]Msg) int {
	l := 0
	for _, m := range votes {
		l = max(l, m.Round)
	}
	return l
}

// valuesIn returns the values of the votes of round r.
func valuesIn(votes map[int]Msg, r int) []int {
	var vs []int
	for _, m := range votes {
		if m.Round == r {
			vs = append(vs, m.Value)
		}
	}
	return vs
}

// adopt updates the estimate from the values of one round; it reads no
// synchronization variable.
func (p *Proc) adopt(vs []int) {
	if len(vs) > 0 {
		p.x = vs[0]
	}
}

// keep reads a message kept in the process state.
func (p *Proc) keep(vs []int) {
	if len(vs) > 0 && p.best.Value < vs[0] {
		p.x = vs[0]
	}
}

// note reads the round.
func (p *Proc) note(vs []int) {
	p.last = p.round + len(vs)
}

// The round is taken from the loop counter, which undoes a catch-up to the
// latest round of the votes: the votes of one round are picked by
// comparing the rounds among themselves, which does not bound them.
func (p *Proc) Counter(rounds int) {
	//sync:tag p.round,p.step
	for r := range rounds {
		p.round = r + 1 // want `condition 1: p.round may be set lower than it was at send \(line 96\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.step = Vote
		p.out <- Msg{Round: p.round, Step: p.step, Value: p.x}
		votes := make(map[int]Msg)
		for 2*len(valuesIn(votes, latest(votes))) <= p.n {
			m := <-p.in
			if m.Step != Vote || m.Round < p.round {
				continue
			}
			votes[len(votes)] = m
		}
		for _, m := range votes {
			if m.Round > p.round {
				p.round = m.Round
			}
		}
		p.adopt(valuesIn(votes, p.round))
		p.step = Done
		p.out <- Msg{Round: p.round, Step: p.step}
	}
}

// The same, counting the votes of round 7: a quorum there makes the
// process jump to round 7 or later, which the next round (2) undoes.
func (p *Proc) Fixed(rounds int) {
	//sync:tag p.round,p.step
	for r := range rounds {
		p.round = r + 1 // want `condition 1: p.round may be set lower than it was at send \(line 123\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.step = Vote
		p.out <- Msg{Round: p.round, Step: p.step, Value: p.x}
		votes := make(map[int]Msg)
		for 2*len(valuesIn(votes, 7)) <= p.n {
			m := <-p.in
			if m.Step != Vote || m.Round < p.round {
				continue
			}
			votes[len(votes)] = m
		}
		for _, m := range votes {
			if m.Round > p.round {
				p.round = m.Round
			}
		}
		p.adopt(valuesIn(votes, p.round))
		p.step = Done
		p.out <- Msg{Round: p.round, Step: p.step}
	}
}

// The same as Counter, but the values are handed to a helper that reads
// the round: what it does with it is not followed, and ccvet cannot tell.
func (p *Proc) Reads(rounds int) {
	//sync:tag p.round,p.step
	for r := range rounds {
		p.round = r + 1 // want `cannot prove 1: cannot tell that p.round is not lower than at send \(line 150\)`
		p.step = Vote
		p.out <- Msg{Round: p.round, Step: p.step, Value: p.x}
		votes := make(map[int]Msg)
		for 2*len(valuesIn(votes, latest(votes))) <= p.n {
			m := <-p.in
			if m.Step != Vote || m.Round < p.round {
				continue
			}
			votes[len(votes)] = m
		}
		for _, m := range votes {
			if m.Round > p.round {
				p.round = m.Round
			}
		}
		p.note(valuesIn(votes, p.round))
		p.step = Done
		p.out <- Msg{Round: p.round, Step: p.step}
	}
}

// Correct: the round moves on from where the process is.
func (p *Proc) Correct(rounds int) {
	//sync:tag p.round,p.step
	for range rounds {
		p.round++
		p.step = Vote
		p.out <- Msg{Round: p.round, Step: p.step, Value: p.x}
		votes := make(map[int]Msg)
		for 2*len(valuesIn(votes, latest(votes))) <= p.n {
			m := <-p.in
			if m.Step != Vote || m.Round < p.round {
				continue
			}
			votes[len(votes)] = m
		}
		for _, m := range votes {
			if m.Round > p.round {
				p.round = m.Round
			}
		}
		p.adopt(valuesIn(votes, p.round))
		p.step = Done
		p.out <- Msg{Round: p.round, Step: p.step}
	}
}

// above reports whether a vote is of a round above l.
func above(votes map[int]Msg, l int) bool {
	for _, m := range votes {
		if m.Round > l {
			return true
		}
	}
	return false
}

// Correct: votes of a round past the current one are all dropped, so the
// jump never goes past r+1. The first range over the votes bounds each of
// them, and one that yields none finds the mailbox empty, so the second
// cannot find one above the round (ccvet cannot tell, for another reason,
// that r+2 is above r+1 across the back edge).
func (p *Proc) Bounded(rounds int) {
	//sync:tag p.round,p.step
	for r := range rounds {
		p.round = r + 1 // want `cannot prove 1: cannot tell that p.round is not lower than at receive \(line 203\)`
		p.step = Vote
		p.out <- Msg{Round: p.round, Step: p.step, Value: p.x}
		votes := make(map[int]Msg)
		for len(votes) <= p.n {
			m := <-p.in
			if m.Step != Vote || m.Round < p.round {
				continue
			}
			votes[len(votes)] = m
		}
		if above(votes, r+1) {
			continue
		}
		for _, m := range votes {
			if m.Round > p.round {
				p.round = m.Round
			}
		}
		p.step = Done
		p.out <- Msg{Round: p.round, Step: p.step}
	}
}

// The same as Counter, but a vote is kept in the process state and the
// helper handed the values reads it: it sees a received round (and could
// branch on it), so ccvet cannot tell.
func (p *Proc) Kept(rounds int) {
	//sync:tag p.round,p.step
	for r := range rounds {
		p.round = r + 1 // want `cannot prove 1: cannot tell that p.round is not lower than at send \(line 247\)`
		p.step = Vote
		p.out <- Msg{Round: p.round, Step: p.step, Value: p.x}
		votes := make(map[int]Msg)
		for 2*len(valuesIn(votes, latest(votes))) <= p.n {
			m := <-p.in
			if m.Step != Vote || m.Round < p.round {
				continue
			}
			votes[len(votes)] = m
		}
		for _, m := range votes {
			if m.Round > p.round {
				p.round = m.Round
				p.best = m
			}
		}
		p.keep(valuesIn(votes, p.round))
		p.step = Done
		p.out <- Msg{Round: p.round, Step: p.step} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox's Msgs \(stored at line 237\) before send: the loop that sets it at line 241 is not recognised as computing their maximum`
	}
}
