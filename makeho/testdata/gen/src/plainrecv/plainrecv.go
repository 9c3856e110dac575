// Package plainrecv receives with plain receives, for COND { m := <-in;
// ... }, from an inbox that is a parameter, and sends on a peers table
// that is a parameter, with no directive: make-HO infers both and turns
// each reception loop into a loop over the round's mailbox.
package plainrecv

type Step int

const (
	Report Step = iota
	Decide
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	X     int
}

type Proc struct {
	id, n, f int
	round    int
	step     Step
	x        int
	heard    int
}

// Run runs rounds phases: every process sends its value to all and keeps
// the smallest of the first n-f it receives; then the phase's leader tells
// everybody its value, which they adopt.
func (p *Proc) Run(in <-chan Msg, out []chan<- Msg, rounds int) {
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = Report
		for _, o := range out {
			o <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var xs []int
		for len(xs) < p.n-p.f {
			m := <-in
			if m.Round != p.round || m.Step != p.step {
				continue
			}
			xs = append(xs, m.X)
		}
		p.heard = len(xs)
		for _, x := range xs {
			p.x = min(p.x, x)
		}

		p.step = Decide
		leader := p.round % p.n
		if p.id == leader {
			for _, o := range out {
				o <- Msg{Round: p.round, Step: p.step, X: p.x}
			}
		}
		var decided []int
		for len(decided) == 0 {
			m := <-in
			if m.Round == p.round && m.Step == p.step {
				decided = append(decided, m.X)
			}
		}
		if len(decided) > 0 {
			p.x = decided[0]
		}
	}
}
