// Package endjump checks condition IV where the iteration ends: a process
// that stored a message of a later round, changed its state and never
// jumped to that round.
package endjump

type Step int

const (
	RequestVote Step = iota
	Vote
)

//sync:msg Term,Step
type Msg struct {
	Term int
	Step Step
	From int
}

type Node struct {
	term, id int
	step     Step
	leader   bool
	log      map[int]int
	in       chan Msg
	out      chan Msg
}

// A candidate counts votes of later terms and becomes leader.
func (p *Node) CountFuture(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Vote
		p.out <- Msg{Term: p.term, Step: Vote, From: p.id}
		votes := map[int]bool{}
		for len(votes) < quorum {
			m := <-p.in
			if m.Step != Vote || m.Term < p.term {
				continue
			}
			votes[m.From] = true
		}
		p.leader = true // want `condition 4: this update of p.leader is reached while the mailbox may hold a Msg of a later round \(stored at line 42\) and the tag has not jumped to it`
	}
}

// Later votes are stored, then dropped with the mailbox: nothing was done
// with them, as if they had been lost.
func (p *Node) Dropped(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Vote
		p.out <- Msg{Term: p.term, Step: Vote, From: p.id}
		var votes []Msg
		for len(votes) < quorum {
			m := <-p.in
			if m.Step != Vote || m.Term < p.term {
				continue
			}
			votes = append(votes, m)
		}
	}
}

// The state is updated before the jump, which comes before the next send.
func (p *Node) UpdateThenJump(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Vote
		p.out <- Msg{Term: p.term, Step: Vote, From: p.id}
		var votes []Msg
		for len(votes) < quorum {
			m := <-p.in
			if m.Step != Vote || m.Term < p.term {
				continue
			}
			votes = append(votes, m)
		}
		p.leader = false
		for _, m := range votes {
			if m.Term > p.term {
				p.term = m.Term
			}
		}
		p.out <- Msg{Term: p.term, Step: Vote, From: p.id}
	}
}

func (p *Node) record(k int) { p.log[k] = p.term }

// The update is in a helper.
func (p *Node) HelperUpdate(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Vote
		p.out <- Msg{Term: p.term, Step: Vote, From: p.id}
		var votes []Msg
		for len(votes) < quorum {
			m := <-p.in
			if m.Step != Vote || m.Term < p.term {
				continue
			}
			votes = append(votes, m)
		}
		if len(votes) > 0 {
			p.record(votes[0].From) // want `condition 4: this call to record, which writes the process state, is reached while the mailbox may hold a Msg of a later round \(stored at line 107\) and the tag has not jumped to it`
		}
	}
}

// The leader sends once more and leaves the loop: the send is still the
// loop's, and the later ack it kept is not jumped to.
func (p *Node) SendThenReturn(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		leader := p.term%3 == p.id
		if leader {
			acks := map[int]bool{}
			for len(acks) < quorum {
				m := <-p.in
				if m.Term >= p.term && m.Step == p.step {
					acks[m.From] = true
				}
			}
		}
		p.step = Vote
		if leader {
			p.out <- Msg{Term: p.term, Step: p.step} // want `condition 4: this send is reached while the mailbox may hold a Msg of a later round \(stored at line 128\)`
			return
		}
	}
}

// The second test of leader takes the branch the first one took: the
// receive on the other branch is not reached with the leader's mailbox.
func (p *Node) LeaderTwice(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		leader := p.term%3 == p.id
		if leader {
			acks := map[int]bool{}
			for len(acks) < quorum {
				m := <-p.in
				if m.Term >= p.term && m.Step == p.step {
					acks[m.From] = true
				}
			}
		}
		p.step = Vote
		if leader {
			p.out <- Msg{Term: p.term, Step: p.step} // want `condition 4: this send is reached while the mailbox may hold a Msg of a later round \(stored at line 153\)`
		} else {
			c := <-p.in
			if c.Term != p.term || c.Step != p.step {
				continue
			}
		}
		return
	}
}

// A process that abandons its round because it saw a later one, without
// jumping to it: the path is chosen by the later round's messages (had
// they been lost, it would have gone on to Vote).
func (p *Node) AbandonOnLater(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- Msg{Term: p.term, Step: RequestVote, From: p.id}
		var later []Msg
		for range quorum {
			m := <-p.in
			if m.Term > p.term {
				later = append(later, m)
			}
		}
		if len(later) > 0 { // want `condition 4: this test of the mailbox \(the path it chooses ends the iteration without the jump\) is reached while the mailbox may hold a Msg of a later round \(stored at line 183\) and the tag has not jumped to it`
			continue
		}
		p.step = Vote
	}
}

// Giving up for good on a later round's message is acting on it too.
func (p *Node) ReturnOnLater(quorum int) bool {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- Msg{Term: p.term, Step: RequestVote, From: p.id}
		var later []Msg
		for range quorum {
			m := <-p.in
			if m.Term > p.term {
				later = append(later, m)
			}
		}
		if len(later) != 0 { // want `condition 4: this test of the mailbox \(the path it chooses ends the iteration without the jump\) is reached while the mailbox may hold a Msg of a later round \(stored at line 204\)`
			return false
		}
		p.step = Vote
	}
}

// Too few votes, counting later ones, is too few without them as well:
// the retry is what a lossy execution does. Becoming leader with them is
// not.
func (p *Node) RetryOnFewVotes(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = Vote
		p.out <- Msg{Term: p.term, Step: Vote, From: p.id}
		var votes []Msg
		for range 3 {
			m := <-p.in
			if m.Step != Vote || m.Term < p.term {
				continue
			}
			votes = append(votes, m)
		}
		if len(votes) < quorum {
			continue
		}
		p.leader = true // want `condition 4: this update of p.leader is reached while the mailbox may hold a Msg of a later round \(stored at line 229\)`
	}
}
