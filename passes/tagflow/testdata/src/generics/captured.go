package generics

import "sort"

//sync:msg Term,CastVote
type Msg struct{ Term, V int }

type Proc struct {
	term int
	step Step
	x    int
	in   chan Msg
}

// A closure captures the receiver, which then lives in a heap cell: what
// is written through it is the process state, not a local variable.
func (p *Proc) Captured() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = CastVote
		var got []Msg
		for len(got) < 3 {
			m := <-p.in
			if m.Term != p.term {
				continue
			}
			p.x = m.V // want `condition 3: p.x is written inside the reception loop, which may write only the mailbox`
			got = append(got, m)
		}
		sort.Slice(got, func(i, j int) bool { return got[i].V < got[j].V && p.x > 0 })
	}
}
