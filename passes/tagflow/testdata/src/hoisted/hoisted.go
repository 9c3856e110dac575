// Package hoisted checks local mailboxes made once, before the tagged
// loop.
package hoisted

//sync:msg Round
type Vote struct{ Round, From, V int }

type Proc struct {
	round, x int
	in       chan Vote
	out      chan Vote
}

func majority(votes map[int]int) int {
	c := map[int]int{}
	best := 0
	for _, v := range votes {
		c[v]++
		if c[v] > c[best] {
			best = v
		}
	}
	return best
}

// The votes of every earlier round stay in the map.
func (p *Proc) Hoisted() {
	votes := make(map[int]int)
	//sync:tag p.round
	for {
		p.round++
		p.out <- Vote{Round: p.round, V: p.x}
		for range 3 {
			m := <-p.in
			if m.Round != p.round {
				continue
			}
			votes[m.From] = m.V // want `condition 3: votes is made before the loop and never emptied in it: the messages of earlier rounds stay in the mailbox`
		}
		p.x = majority(votes)
	}
}

// Cleared where the round starts: the map is this round's mailbox.
func (p *Proc) Cleared() {
	votes := make(map[int]int)
	//sync:tag p.round
	for {
		p.round++
		clear(votes)
		p.out <- Vote{Round: p.round, V: p.x}
		for range 3 {
			m := <-p.in
			if m.Round != p.round {
				continue
			}
			votes[m.From] = m.V
		}
		p.x = majority(votes)
	}
}
