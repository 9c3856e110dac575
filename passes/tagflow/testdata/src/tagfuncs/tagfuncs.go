// Package tagfuncs checks tags computed by functions of the package: one
// that writes no memory is followed, so the tag keeps its value; one that
// is not followed leaves the tag unknown, and a filter that does not order
// the messages with it is "cannot prove", not a violation.
package tagfuncs

type Step int

const (
	ReportStep Step = iota + 1
	ProposalStep
)

//sync:msg Round,ReportStep
type Report struct {
	Round int
	From  int
	Val   int
}

//sync:msg Round,ProposalStep
type Proposal struct {
	Round int
	From  int
	Val   int
}

type Proc struct {
	round int
	step  Step
	n     int
	x     int
	in    chan any
	out   chan any
}

// nextTag is the tag that follows (r, s).
func nextTag(r int, s Step) (int, Step) {
	if s == ReportStep {
		return r, ProposalStep
	}
	return r + 1, ReportStep
}

var advances int

// nextTagCounted is nextTag, counting the calls.
func nextTagCounted(r int, s Step) (int, Step) {
	advances++
	return nextTag(r, s)
}

// Followed: the filters compare the rounds, and the steps are known.
func (p *Proc) Pure() {
	p.round, p.step = 1, ReportStep
	//sync:tag p.round,p.step
	for {
		p.out <- Report{Round: p.round, Val: p.x}
		reports := make(map[int]Report)
		for len(reports) < p.n {
			m, ok := (<-p.in).(Report)
			if !ok || m.Round != p.round {
				continue
			}
			reports[m.From] = m
		}
		p.round, p.step = nextTag(p.round, p.step)
		p.out <- Proposal{Round: p.round, Val: p.x}
		props := make(map[int]Proposal)
		for len(props) < p.n {
			m, ok := (<-p.in).(Proposal)
			if !ok || m.Round != p.round {
				continue
			}
			props[m.From] = m
		}
		p.round, p.step = nextTag(p.round, p.step)
	}
}

// Not followed (it writes a package variable): the step is unknown after
// it, so the Proposal's round cannot be ordered with the tag.
func (p *Proc) Lost() {
	p.round, p.step = 1, ReportStep
	//sync:tag p.round,p.step
	for {
		p.out <- Report{Round: p.round, Val: p.x}
		reports := make(map[int]Report)
		for len(reports) < p.n {
			m, ok := (<-p.in).(Report)
			if !ok || m.Round != p.round {
				continue
			}
			reports[m.From] = m
		}
		p.round, p.step = nextTagCounted(p.round, p.step) // want `cannot prove 1: cannot tell that p.round is not lower than at send \(line 87\)`
		p.out <- Proposal{Round: p.round, Val: p.x} // want `cannot prove 2: cannot tell that p.step is ProposalStep when Proposal \(round ProposalStep\) is sent`
		props := make(map[int]Proposal)
		for len(props) < p.n {
			m, ok := (<-p.in).(Proposal)
			if !ok || m.Round != p.round {
				continue
			}
			props[m.From] = m // want `cannot prove 3: cannot tell that the Proposal stored here is from the current round or a later one \(the tag was set from what a call ccvet does not follow returned\)`
		}
		p.round++
		p.step = ReportStep
	}
}

// A filter that does not order the messages with a known tag is still a
// violation: the round is not compared at all.
func (p *Proc) Unfiltered() {
	p.round, p.step = 1, ReportStep
	//sync:tag p.round,p.step
	for {
		p.out <- Report{Round: p.round, Val: p.x}
		reports := make(map[int]Report)
		for len(reports) < p.n {
			m, ok := (<-p.in).(Report)
			if !ok {
				continue
			}
			reports[m.From] = m // want `condition 3: Report stored without checking that its tag is >= \(p.round,p.step\): a message of an earlier round can get in`
		}
		p.round, p.step = nextTag(p.round, p.step)
		p.out <- Proposal{Round: p.round, Val: p.x}
		p.round, p.step = nextTag(p.round, p.step)
	}
}
