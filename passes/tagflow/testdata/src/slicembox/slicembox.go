// Package slicembox checks mailboxes that are slices the loop makes each
// round and indexes by sender (votes := make([]bool, n); votes[m.From] =
// true): a local variable, written by the reception as a mailbox; unless
// the slice is kept in the process state, where writing it is writing an
// algorithm variable.
package slicembox

//sync:msg Round
type Vote struct {
	Round, From, Val int
}

type Proc struct {
	n, round, heard int
	kept            []bool
	in              chan Vote
	out             chan Vote
}

func count(vs []bool) int {
	c := 0
	for _, v := range vs {
		if v {
			c++
		}
	}
	return c
}

// Votes of this round, one flag per sender.
func (p *Proc) Flags() {
	//sync:tag p.round
	for {
		p.out <- Vote{Round: p.round}
		votes := make([]bool, p.n)
		for i := 0; i < p.n; i++ {
			m := <-p.in
			if m.Round != p.round {
				continue
			}
			votes[m.From] = true
		}
		p.heard = count(votes)
		p.round++
	}
}

// Values of this round, one per sender, without the filter.
func (p *Proc) Unfiltered() {
	//sync:tag p.round
	for {
		p.out <- Vote{Round: p.round}
		vals := make([]int, p.n)
		for i := 0; i < p.n; i++ { // want `condition 3: Vote stored without checking that its tag is >= \(p.round\): a message of an earlier round can get in`
			m := <-p.in
			vals[m.From] = m.Val + 1 // want `condition 3: Vote stored without checking that its tag is >= \(p.round\): a message of an earlier round can get in`
		}
		p.heard = vals[0]
		p.round++
	}
}

// The slice is kept in the process state: writing it in the reception
// writes an algorithm variable.
func (p *Proc) Kept() {
	//sync:tag p.round
	for {
		p.out <- Vote{Round: p.round}
		votes := make([]bool, p.n)
		p.kept = votes
		for i := 0; i < p.n; i++ {
			m := <-p.in
			if m.Round != p.round {
				continue
			}
			votes[m.From] = true // want `condition 3: votes\[m.From\] is written inside the reception loop, which may write only the mailbox`
		}
		p.heard = count(votes)
		p.round++
	}
}
