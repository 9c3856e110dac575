// Package constrange checks steps that only ever hold constants: setting
// one to the largest of them never lowers it, whatever the step was.
package constrange

type Step int

const (
	Follow Step = iota
	Candidate
	Lead
)

//sync:msg Term,Lead
type Heartbeat struct{ Term int }

//sync:msg Term,Candidate
type Ballot struct{ Term int }

type Node struct {
	term     int
	step     Step
	leader   bool
	in, out  chan any
	timeouts chan bool
}

// An event loop: a heartbeat of this term makes the node a follower of
// its leader, at the top step of the term.
func (nd *Node) Run() {
	//sync:tag nd.term,nd.step
	for {
		select {
		case raw := <-nd.in:
			m, ok := raw.(Heartbeat)
			if !ok || m.Term != nd.term {
				continue
			}
			nd.step = Lead
		case <-nd.timeouts:
			nd.term++
			nd.step = Candidate
			nd.out <- Ballot{Term: nd.term}
		}
	}
}

// Pub has its step exported: code of other packages may write anything.
type Pub struct {
	term     int
	Step     Step
	in, out  chan any
	timeouts chan bool
}

func (nd *Pub) Run() {
	//sync:tag nd.term,nd.Step
	for {
		select {
		case raw := <-nd.in:
			m, ok := raw.(Heartbeat)
			if !ok || m.Term != nd.term {
				continue
			}
			nd.Step = Lead // want `cannot prove 1: cannot tell that nd.Step is not lower than at`
		case <-nd.timeouts:
			nd.term++
			nd.Step = Candidate
			nd.out <- Ballot{Term: nd.term}
		}
	}
}

// Odd sets its step from a number once: not only constants.
type Odd struct {
	term     int
	step     Step
	in, out  chan any
	timeouts chan bool
}

func (nd *Odd) restore(s int) { nd.step = Step(s) }

func (nd *Odd) Run() {
	//sync:tag nd.term,nd.step
	for {
		select {
		case raw := <-nd.in:
			m, ok := raw.(Heartbeat)
			if !ok || m.Term != nd.term {
				continue
			}
			nd.step = Lead // want `cannot prove 1: cannot tell that nd.step is not lower than at`
		case <-nd.timeouts:
			nd.term++
			nd.step = Candidate
			nd.out <- Ballot{Term: nd.term}
		}
	}
}

// Mid sets its step to a middle constant on the heartbeat: lower than the
// step its timeout left it in.
type Mid struct {
	term     int
	step     Step
	in, out  chan any
	timeouts chan bool
}

func (nd *Mid) Run() {
	//sync:tag nd.term,nd.step
	for {
		select {
		case raw := <-nd.in:
			m, ok := raw.(Heartbeat)
			if !ok || m.Term != nd.term {
				continue
			}
			nd.step = Candidate // want `condition 1: nd.step is set lower than it was at receive \(line 113\), while nd.term did not increase`
		case <-nd.timeouts:
			nd.term++
			nd.step = Lead
			nd.out <- Heartbeat{Term: nd.term}
		}
	}
}
