// Package reinline calls the same helpers at several sites of a tagged loop:
// each call site is inlined again at every iteration, and what the previous
// iteration's inlining established about its values must not hold for the
// new ones (it made ccvet report the guarded step-down as lowering the
// term, and the Vote send as sent lower than the RequestVote).
package reinline

type Step int

const (
	RequestVote Step = iota
	Vote
)

//sync:msg Term,Step
type Msg struct {
	Term int
	Step Step
}

type Node struct {
	term int
	step Step
	in   chan Msg
	out  chan Msg
}

// stepDown adopts a newer term.
func (p *Node) stepDown(term int) {
	if term > p.term {
		p.term = term
	}
}

func (p *Node) newTerm() {
	p.term++
	p.step = RequestVote
}

func (p *Node) msg(s Step) Msg { return Msg{Term: p.term, Step: s} }

func (p *Node) Run(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.newTerm()
		p.out <- p.msg(RequestVote)
		var reqs []Msg
		for len(reqs) < quorum {
			m := <-p.in
			if m.Step != RequestVote || m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			p.stepDown(m.Term)
		}
		p.step = Vote
		p.out <- p.msg(Vote)
	}
}
