// Package dispatch hands received pointer messages to a type switch that
// calls a handler per type; the handlers fill mailboxes the loop made
// (maps passed to them, or kept in a local struct).
package dispatch

type Step int

const (
	StepAccept Step = iota
	StepAccepted
)

//sync:msg Ballot,StepAccept
type Accept struct {
	From, Ballot int
	Val          string
}

//sync:msg Ballot,StepAccepted
type Accepted struct{ From, Ballot int }

type Node struct {
	ballot int
	step   Step
	accVal string
	in     chan any
	out    chan any
}

func (p *Node) dispatch(accepts map[int]*Accept, accepted map[int]*Accepted, raw any) {
	switch m := raw.(type) {
	case *Accepted:
		p.onAccepted(accepted, m)
	case *Accept:
		p.onAccept(accepts, m)
	}
}

func (p *Node) onAccepted(accepted map[int]*Accepted, m *Accepted) {
	if p.step != StepAccepted || m.Ballot != p.ballot {
		return
	}
	accepted[m.From] = m
}

func (p *Node) onAccept(accepts map[int]*Accept, m *Accept) {
	if m.Ballot != p.ballot {
		return
	}
	accepts[m.From] = m
}

// The second case of the switch is analysed too: its handler's checks.
func (p *Node) Run() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = StepAccept
		accepts := map[int]*Accept{}
		accepted := map[int]*Accepted{}
		for len(accepts) == 0 {
			p.dispatch(accepts, accepted, <-p.in)
		}
		p.step = StepAccepted
		p.out <- &Accepted{Ballot: p.ballot}
	}
}

func (p *Node) dispatchBad(accepts map[int]*Accept, accepted map[int]*Accepted, raw any) {
	switch m := raw.(type) {
	case *Accepted:
		p.onAccepted(accepted, m)
	case *Accept:
		p.onAcceptBad(accepts, m)
	}
}

func (p *Node) onAcceptBad(accepts map[int]*Accept, m *Accept) {
	accepts[m.From] = m // want `condition 3: Accept stored without checking that its tag is >= \(p.ballot,p.step\)`
	p.accVal = m.Val    // want `condition 3: p.accVal is written inside the reception loop, which may write only the mailbox`
}

// Both bugs of the second case's handler are found.
func (p *Node) RunBad() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = StepAccept
		accepts := map[int]*Accept{}
		accepted := map[int]*Accepted{}
		for len(accepts) == 0 {
			p.dispatchBad(accepts, accepted, <-p.in)
		}
		p.step = StepAccepted
		p.out <- &Accepted{Ballot: p.ballot}
	}
}

type ballotState struct {
	accepts map[int]*Accept
}

// The mailbox is a map in a local struct; the jump is to its maximum.
func (p *Node) StructMailbox() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = StepAccept
		bs := &ballotState{accepts: map[int]*Accept{}}
		for len(bs.accepts) == 0 {
			m, ok := (<-p.in).(*Accept)
			if !ok || m.Ballot < p.ballot {
				continue
			}
			bs.accepts[m.From] = m
		}
		hi := p.ballot
		for _, m := range bs.accepts {
			if m.Ballot > hi {
				hi = m.Ballot
			}
		}
		p.ballot = hi
		p.step = StepAccepted
		p.out <- &Accepted{Ballot: p.ballot}
	}
}
