// Package envfield receives envelopes carrying a message and tests the
// message's tag through the envelope (e.Msg.Term) before keeping e.Msg:
// the test tells what e.Msg holds, in every iteration (a new envelope
// replaces what the last one's message field held).
package envfield

type Step int

const (
	Request Step = iota
	Vote
)

//sync:msg Term,Step
type Msg struct {
	Term int
	Step Step
	Cand int
}

type Envelope struct {
	From int
	Msg  Msg
}

type Node struct {
	term  int
	step  Step
	inbox <-chan Envelope
	peers []chan<- Envelope
	kept  []Msg
}

func (p *Node) Run() {
	p.step = Request
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Request
		for _, ch := range p.peers {
			ch <- Envelope{Msg: Msg{Term: p.term, Step: p.step}}
		}
		var reqs []Msg
		for len(reqs) < 3 {
			e := <-p.inbox
			if e.Msg.Term != p.term || e.Msg.Step != p.step {
				continue
			}
			reqs = append(reqs, e.Msg)
		}
		p.kept = reqs
	}
}

// RunStale keeps messages of any term of the current step.
func (p *Node) RunStale() {
	p.step = Request
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Request
		for _, ch := range p.peers {
			ch <- Envelope{Msg: Msg{Term: p.term, Step: p.step}} // want `condition 4: the process sends while a Msg of a later round can be kept, without a jump to its round first`
		}
		var reqs []Msg
		for len(reqs) < 3 {
			e := <-p.inbox
			if e.Msg.Step != p.step {
				continue
			}
			reqs = append(reqs, e.Msg) // want `condition 3: Msg stored without checking that its tag is >= \(p.term,p.step\)`
		}
		p.kept = reqs // want `condition 3: Msg stored without checking that its tag is >= \(p.term,p.step\)`
	}
}
