// Package funcform is channel code as it is usually written: a function
// of the process's identity, its inbox and the inboxes of all processes
// (in, out), with the tag in local variables, plain receives and no
// directive. make-HO infers that out is the peers table and in the inbox,
// and turns each reception loop into a loop over the round's mailbox.
package funcform

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

// Run runs rounds phases of flooding the smallest value: every process
// sends its value to all and keeps the smallest of the n it receives, then
// the phase's leader tells everybody its value, which they adopt. It
// returns the value at the end.
func Run(id, n int, in <-chan Msg, out []chan<- Msg, x, rounds int) int {
	round, step := 0, Report
	//sync:tag round,step
	for round < rounds {
		round++
		step = Report
		for _, o := range out {
			o <- Msg{Round: round, Step: step, X: x}
		}
		got := 0
		for got < n {
			m := <-in
			if m.Round != round || m.Step != step {
				continue
			}
			got++
			x = min(x, m.X)
		}

		step = Decide
		leader := round % n
		if id == leader {
			for _, o := range out {
				o <- Msg{Round: round, Step: step, X: x}
			}
		}
		for {
			m := <-in
			if m.Round == round && m.Step == step {
				x = m.X
				break
			}
		}
	}
	return x
}
