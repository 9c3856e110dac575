// Package tagmax steps down to the highest term of its mailbox with a max
// loop written on the tag itself (if m.Term > p.term { p.term = m.Term }):
// after it, every message of the mailbox is at or below the tag, so
// reading them again is not acting on a later round's message.
package tagmax

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

type Node struct {
	term     int
	step     Step
	votedFor int
	inbox    <-chan Msg
	peers    []chan<- Msg
}

func (p *Node) Run() {
	p.step = Request
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Request
		for _, ch := range p.peers {
			ch <- Msg{Term: p.term, Step: p.step}
		}
		var reqs []Msg
		for len(reqs) < 3 {
			m := <-p.inbox
			if m.Term < p.term || m.Step != p.step {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			if m.Term > p.term {
				p.term = m.Term
			}
		}
		p.votedFor = -1
		for _, m := range reqs {
			if m.Term == p.term {
				p.votedFor = m.Cand
			}
		}
		p.step = Vote
		p.peers[0] <- Msg{Term: p.term, Step: p.step, Cand: p.votedFor}
	}
}

// RunNoStepDown votes for a candidate of a later term without stepping
// down to it.
func (p *Node) RunNoStepDown() {
	p.step = Request
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Request
		for _, ch := range p.peers {
			ch <- Msg{Term: p.term, Step: p.step}
		}
		var reqs []Msg
		for len(reqs) < 3 {
			m := <-p.inbox
			if m.Term < p.term || m.Step != p.step {
				continue
			}
			reqs = append(reqs, m)
		}
		p.votedFor = -1
		for _, m := range reqs {
			if m.Term >= p.term {
				p.votedFor = m.Cand
			}
		}
		p.step = Vote
		p.peers[0] <- Msg{Term: p.term, Step: p.step, Cand: p.votedFor} // want `condition 4: the process sends while a Msg of a later round can be kept, without a jump to its round first`
	}
}
