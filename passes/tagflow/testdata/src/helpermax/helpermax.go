// Package helpermax checks the jump to the latest round of a mailbox that
// a helper of the package computes (hi := latest(mins, r); if hi > r { r
// = hi }): the helper is followed while the jump is pending, so that its
// result is known to bound the mailbox.
package helpermax

type Step int

const (
	Flood Step = iota
	Report
)

//sync:msg Round,Flood
type MinMsg struct{ Round, Min int }

//sync:msg Round,Report
type Changed struct{ Round int }

type Proc struct {
	step Step
	min  int
	n    int
	in   chan any
	out  chan any
}

// latest is the highest round among r and the messages' rounds.
func latest(ms []MinMsg, r int) int {
	for _, m := range ms {
		r = max(r, m.Round)
	}
	return r
}

// first is the round of the first message, or r.
func first(ms []MinMsg, r int) int {
	if len(ms) > 0 {
		return ms[0].Round
	}
	return r
}

// Jumps to the latest round heard of.
func (p *Proc) Latest(rounds int) {
	p.step = Flood
	//sync:tag r,p.step
	for r := 1; r <= rounds; r++ {
		p.step = Flood
		p.out <- MinMsg{Round: r, Min: p.min}
		var mins []MinMsg
		for len(mins) < p.n {
			if m, ok := (<-p.in).(MinMsg); ok && m.Round >= r {
				mins = append(mins, m)
			}
		}
		if hi := latest(mins, r); hi > r {
			r = hi
		}
		for _, m := range mins {
			if m.Round == r {
				p.min = min(p.min, m.Min)
			}
		}
		p.step = Report
		p.out <- Changed{Round: r}
	}
}

// Jumps to the round of the first message heard of, which need not be the
// latest.
func (p *Proc) First(rounds int) {
	p.step = Flood
	//sync:tag r,p.step
	for r := 1; r <= rounds; r++ {
		p.step = Flood
		p.out <- MinMsg{Round: r, Min: p.min}
		var mins []MinMsg
		for len(mins) < p.n {
			if m, ok := (<-p.in).(MinMsg); ok && m.Round >= r {
				mins = append(mins, m)
			}
		}
		if hi := first(mins, r); hi > r {
			r = hi
		}
		for _, m := range mins {
			if m.Round == r {
				p.min = min(p.min, m.Min)
			}
		}
		p.step = Report
		p.out <- Changed{Round: r} // want `condition 4: this send is reached while the mailbox may hold a MinMsg of a later round \(stored at line 81\) and the tag has not jumped to it`
	}
}
