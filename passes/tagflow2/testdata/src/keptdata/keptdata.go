// Package keptdata keeps what received messages say, not the messages: a
// map from sender to value. Keeping the data of a message that may be of
// a later round owes the jump to its round as keeping the message would.
package keptdata

type Step int

const (
	Report Step = iota
	Echo
)

//sync:msg Inst,Round
type Msg struct {
	Inst  int
	Round Step
	From  int
	Value string
}

type proc struct {
	inst  int
	round Step
	in    <-chan Msg
	out   chan<- Msg
}

// Run keeps the reports of its own instance and round only.
func (p *proc) Run(n int) []string {
	var decided []string
	//sync:tag p.inst,p.round
	for p.inst < 10 {
		p.inst++
		p.round = Report
		p.out <- Msg{Inst: p.inst, Round: Report}
		seen := make(map[int]string)
		for len(seen) < n {
			m := <-p.in
			if m.Inst != p.inst || m.Round != Report {
				continue
			}
			seen[m.From] = m.Value
		}
		for _, v := range seen {
			decided = append(decided, v)
		}
	}
	return decided
}

// KeepsLater keeps reports of later instances too, and counts them.
func (p *proc) KeepsLater(n int) []string {
	var decided []string
	//sync:tag p.inst,p.round
	for p.inst < 10 {
		p.inst++
		p.round = Report
		p.out <- Msg{Inst: p.inst, Round: Report} // want `cannot prove 4: the process sends while a Msg that may be of a later round is kept, without a jump to its round first`
		seen := make(map[int]string)
		for len(seen) < n {
			m := <-p.in
			if m.Inst < p.inst {
				continue
			}
			// Not below the tag: m.Round is Report or Echo, and p.round is
			// Report, the first of them.
			seen[m.From] = m.Value
		}
		for _, v := range seen {
			decided = append(decided, v)
		}
	}
	return decided
}
