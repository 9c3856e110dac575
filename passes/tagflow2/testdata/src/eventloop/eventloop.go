// Package eventloop is an event loop that reacts to whatever message
// arrives: it drops older ones, jumps to a later term (or to a later round
// of its term) and then answers by the message's round. After the jump the
// tag equals the message's, so a switch on the message's round says what
// the current round is, and the answer's round is above it.
package eventloop

type Kind int

const (
	Ask Kind = iota
	AskResp
	Vote
	VoteResp
)

//sync:msg Term,Kind
type Msg struct {
	Kind Kind
	Term int
	From int
}

type node struct {
	peers []chan<- Msg
	inbox <-chan Msg
	term  int
	round Kind
}

func (n *node) Run() {
	//sync:tag n.term,n.round
	for {
		m := <-n.inbox
		if m.Term < n.term || m.Term == n.term && m.Kind < n.round {
			continue
		}
		if m.Term > n.term {
			n.term, n.round = m.Term, m.Kind
		} else if m.Kind > n.round {
			n.round = m.Kind
		}
		switch m.Kind {
		case Ask:
			n.round = AskResp
			n.peers[m.From] <- Msg{Kind: AskResp, Term: n.term}
		case Vote:
			n.round = VoteResp
			n.peers[m.From] <- Msg{Kind: VoteResp, Term: n.term}
		}
	}
}

// WrongRound answers a vote from the round of an ask: the tag goes back
// from Vote to AskResp, and the answer carries VoteResp.
func (n *node) WrongRound() {
	//sync:tag n.term,n.round
	for {
		m := <-n.inbox
		if m.Term < n.term || m.Term == n.term && m.Kind < n.round {
			continue
		}
		n.term, n.round = m.Term, m.Kind
		switch m.Kind {
		case Ask:
			n.round = AskResp
			n.peers[m.From] <- Msg{Kind: AskResp, Term: n.term}
		case Vote:
			n.round = AskResp
			n.peers[m.From] <- Msg{Kind: VoteResp, Term: n.term} // want `cannot prove 1: the tag \(n.term,n.round\) may be lower here than at the last communication point` `condition 2: Msg is sent with a tag other than the current one \(n.term,n.round\)`
		}
	}
}
