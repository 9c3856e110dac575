// Package maxloop checks condition IV after a loop over the mailbox: only a
// loop computing the maximum of the stored messages' tags settles the jump.
package maxloop

type Step int

const (
	RequestVote Step = iota
	Vote
)

//sync:msg Term,RequestVote
type RV struct{ Term int }

//sync:msg Term,Vote
type V struct{ Term int }

//sync:msg Term,Step
type Msg struct {
	Term int
	Step Step
	Cand int
}

type Node struct {
	term  int
	step  Step
	in    chan RV
	inm   chan Msg
	out   chan any
	outm  chan Msg
	other int
}

// The tag itself is the running maximum.
func (p *Node) Direct() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			if p.term < m.Term {
				p.term = m.Term
			}
		}
		p.step = Vote
		p.out <- V{Term: p.term}
	}
}

// The maximum is computed in a local, then assigned.
func (p *Node) Local() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		hi := p.term
		for _, m := range reqs {
			if m.Term >= hi {
				hi = m.Term
			}
		}
		p.term = hi
		p.step = Vote
		p.out <- V{Term: p.term}
	}
}

// The max builtin, over a map mailbox.
func (p *Node) MaxMap() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		reqs := map[int]RV{}
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs[len(reqs)] = m
		}
		hi := p.term
		for _, m := range reqs {
			hi = max(m.Term, hi)
		}
		p.term = hi
		p.step = Vote
		p.out <- V{Term: p.term}
	}
}

// A guarded assignment of the local maximum; the step is a field of the
// message, which the filter fixed.
func (p *Node) Guard() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.outm <- Msg{Term: p.term, Step: RequestVote}
		var reqs []Msg
		for len(reqs) < 3 {
			m := <-p.inm
			if m.Step != RequestVote || m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		hi := p.term
		for _, m := range reqs {
			if m.Term > hi {
				hi = m.Term
			}
		}
		if hi > p.term {
			p.term = hi
		}
		p.step = Vote
		p.outm <- Msg{Term: p.term, Step: Vote, Cand: reqs[0].Cand}
	}
}

// A jump under an extra condition may skip the latest message: a path sees
// a message above the tag and does not jump to it.
func (p *Node) ExtraCond(quorum int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			if m.Term > p.term && len(reqs) >= quorum {
				p.term = m.Term
			}
		}
		p.step = Vote
		p.out <- V{Term: p.term} // want `condition 4: this send is reached while the mailbox holds a RV of a later round than the tag \(seen at line 159\), and the tag has not jumped to it`
	}
}

// A jump to the next round only: no path shows a message above the tag
// that was not jumped to (m.Term != p.term+1 does not), so it is not proven.
func (p *Node) NextOnly() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			if m.Term == p.term+1 {
				p.term = m.Term
			}
		}
		p.step = Vote
		p.out <- V{Term: p.term} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox's RVs \(stored at line 182\) before send: the loop that sets it at line 186 is not recognised as computing their maximum`
	}
}

// A break leaves the later elements unseen: the tag is set from the first
// of several requests (no back edge, hence no loop computing a maximum).
func (p *Node) Break() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			p.term = max(p.term, m.Term)
			break
		}
		p.step = Vote
		p.out <- V{Term: p.term} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox.s RVs \(stored at line 208\) before send: it is set at line 211 from one of them, and the mailbox may hold several`
	}
}

// Counting up to a round the loop does not compare with the messages.
func (p *Node) CountUp(target int) {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		_ = reqs
		for p.term < target {
			p.term++
		}
		p.step = Vote
		p.out <- V{Term: p.term} // want `cannot prove 4: cannot tell that the tag jumped to the latest round`
	}
}

// The maximum of another field is not the tag's.
func (p *Node) OtherField() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.outm <- Msg{Term: p.term, Step: RequestVote}
		var reqs []Msg
		for len(reqs) < 3 {
			m := <-p.inm
			if m.Step != RequestVote || m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		hi := p.term
		for _, m := range reqs {
			if m.Cand > hi {
				hi = m.Cand
			}
		}
		p.term = hi
		p.step = Vote
		p.outm <- Msg{Term: p.term, Step: Vote} // want `condition 4: this send is reached`
	}
}

// The maximum is computed but the tag does not reach it.
func (p *Node) BelowMax() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		hi := p.term
		for _, m := range reqs {
			hi = max(hi, m.Term)
		}
		if hi > p.term+1 {
			p.term++
		}
		p.step = Vote
		p.out <- V{Term: p.term} // want `condition 4: this send is reached`
	}
}

// A part of the mailbox.
func (p *Node) Part() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs[1:] {
			if m.Term > p.term {
				p.term = m.Term
			}
		}
		p.step = Vote
		p.out <- V{Term: p.term} // want `cannot prove 4: cannot tell that the tag jumped to the latest round`
	}
}

// Every path jumps to some message, maybe not the latest: the last one
// seen, or the first one above 7. No path shows the tag below a message:
// the engine does not count iterations, so a path that leaves the loop
// early is no evidence.
func (p *Node) LastWins() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			p.term = m.Term
			if m.Term > 7 {
				break
			}
		}
		p.step = Vote
		p.out <- V{Term: p.term} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox's RVs \(stored at line 338\) before send: the loop that sets it at line 341 is not recognised as computing their maximum`
	}
}

// A lexicographic maximum is not recognised: correct, but not proven.
func (p *Node) Lexico() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.outm <- Msg{Term: p.term, Step: RequestVote}
		var reqs []Msg
		for len(reqs) < 3 {
			m := <-p.inm
			if m.Step != RequestVote || m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			if m.Term > p.term || m.Term == p.term && m.Step > p.step {
				p.term, p.step = m.Term, m.Step
			}
		}
		p.step = Vote
		p.outm <- Msg{Term: p.term, Step: Vote} // want `cannot prove 4: cannot tell that the tag jumped to the latest round`
	}
}

//sync:msg Height,Round,Prevote
type Prevote3 struct{ Height, Round int }

//sync:msg Height,Round,Precommit
type Precommit3 struct{ Height, Round int }

const (
	Prevote Step = iota + 10
	Precommit
)

type Validator struct {
	height, round int
	step          Step
	in            chan Prevote3
	out           chan any
}

// The maximum of the second component, the first one fixed by the filter.
func (p *Validator) Second() {
	//sync:tag p.height,p.round,p.step
	for {
		p.round++
		p.step = Prevote
		p.out <- Prevote3{Height: p.height, Round: p.round}
		votes := map[int]Prevote3{}
		for len(votes) < 3 {
			m := <-p.in
			if m.Height != p.height || m.Round < p.round {
				continue
			}
			votes[len(votes)] = m
		}
		hi := p.round
		for _, v := range votes {
			if v.Round > hi {
				hi = v.Round
			}
		}
		if hi > p.round {
			p.round = hi
		}
		p.step = Precommit
		p.out <- Precommit3{Height: p.height, Round: p.round}
	}
}

// The maximum of the second component, the first one unknown: a later
// height may be stored.
func (p *Validator) SecondAnyHeight() {
	//sync:tag p.height,p.round,p.step
	for {
		p.round++
		p.step = Prevote
		p.out <- Prevote3{Height: p.height, Round: p.round}
		votes := map[int]Prevote3{}
		for len(votes) < 3 {
			m := <-p.in
			if m.Height < p.height || m.Round < p.round {
				continue
			}
			votes[len(votes)] = m
		}
		hi := p.round
		for _, v := range votes {
			if v.Round > hi {
				hi = v.Round
			}
		}
		p.round = hi
		p.step = Precommit
		p.out <- Precommit3{Height: p.height, Round: p.round} // want `condition 4: this send is reached while the mailbox may hold a Prevote3`
	}
}

// The maximum of one of two mailboxes of the same type.
func (p *Node) TwoMailboxes() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var odd, even []RV
		for len(odd)+len(even) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			if m.Term%2 == 0 {
				even = append(even, m)
			} else {
				odd = append(odd, m)
			}
		}
		hi := p.term
		for _, m := range even {
			hi = max(hi, m.Term)
		}
		p.term = hi
		p.step = Vote
		p.out <- V{Term: p.term} // want `condition 4: this send is reached while the mailbox may hold a RV of a later round`
		_ = odd
	}
}

// stepDown adopts a later term: called on every stored message, it computes
// their maximum into the tag.
func (p *Node) stepDown(t int) {
	if t > p.term {
		p.term = t
	}
}

// adopt takes the maximum with the builtin.
func (p *Node) adopt(t int) { p.term = max(p.term, t) }

// nextOnly jumps only to the very next term: not a maximum.
func (p *Node) nextOnly(t int) {
	if t == p.term+1 {
		p.term = t
	}
}

// The maximum is computed by a helper called on every element.
func (p *Node) Helper() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			p.stepDown(m.Term)
		}
		p.step = Vote
		p.out <- V{Term: p.term}
	}
}

func (p *Node) HelperMax() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			p.adopt(m.Term)
		}
		p.step = Vote
		p.out <- V{Term: p.term}
	}
}

// A helper that jumps only to the next term may leave a later one stored:
// the loop sets the tag through the call, so ccvet cannot tell.
func (p *Node) HelperNext() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			p.nextOnly(m.Term)
		}
		p.step = Vote
		p.out <- V{Term: p.term} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox's RVs \(stored at line 558\) before send: the loop that sets it at line 561 is not recognised as computing their maximum`
	}
}

// better says which request wins.
func better(a, b RV) bool { return a.Term < b.Term }

// After the jump to the maximum, the tag is set to the term of the request
// chosen, which may be lower: the later requests stay unjumped to.
func (p *Node) LowerAfterMax() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		for _, m := range reqs {
			if m.Term > p.term {
				p.term = m.Term
			}
		}
		best := 0
		for i := range reqs {
			if better(reqs[i], reqs[best]) {
				best = i
			}
		}
		p.term = reqs[best].Term
		p.step = Vote
		p.out <- V{Term: p.term} // want `condition 4: this send is reached while the mailbox may hold a RV of a later round \(stored at line 585\)`
	}
}

// FirstOfSeveral jumps to the first of several requests, which need not
// be the latest.
func (p *Node) FirstOfSeveral() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		p.term = reqs[0].Term
		p.step = Vote
		p.out <- V{Term: p.term} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox's RVs \(stored at line 618\) before send: it is set at line 620 from one of them, and the mailbox may hold several`
	}
}

// FirstOfOne jumps to the only request received.
func (p *Node) FirstOfOne() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) == 0 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		p.term = reqs[0].Term
		p.step = Vote
		p.out <- V{Term: p.term}
	}
}

// CopyOfFirst copies the first of several requests into a variable before
// jumping to its term: still one message, maybe not the latest.
func (p *Node) CopyOfFirst() {
	//sync:tag p.term,p.step
	for {
		p.term++
		p.step = RequestVote
		p.out <- RV{Term: p.term}
		var reqs []RV
		for len(reqs) < 3 {
			m := <-p.in
			if m.Term < p.term {
				continue
			}
			reqs = append(reqs, m)
		}
		first := reqs[0]
		p.term = first.Term
		p.step = Vote
		p.out <- V{Term: p.term} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox's RVs \(stored at line 661\) before send: it is set at line 664 from one of them, and the mailbox may hold several`
	}
}

// StrictlyLater keeps only requests of a strictly later term, so when it
// kept any their maximum is above p.term and the jump to (hi,
// RequestVote) does not go below (p.term, Vote): the range over the
// non-empty mailbox runs at least once.
func (p *Node) StrictlyLater() {
	//sync:tag p.term,p.step
	for try := 0; try < 5; try++ {
		p.term++
		p.step = Vote
		p.out <- V{Term: p.term}
		var later []RV
		for range 3 {
			m := <-p.in
			if m.Term > p.term {
				later = append(later, m)
			}
		}
		if len(later) > 0 {
			hi := p.term
			for _, m := range later {
				hi = max(hi, m.Term)
			}
			p.term, p.step = hi, RequestVote
		}
	}
}

// LaterOrEqual keeps requests of the current term too: the maximum may be
// p.term itself, and (p.term, RequestVote) is below (p.term, Vote).
func (p *Node) LaterOrEqual() {
	//sync:tag p.term,p.step
	for try := 0; try < 5; try++ {
		p.term++
		p.step = Vote
		p.out <- V{Term: p.term}
		var later []RV
		for range 3 {
			m := <-p.in
			if m.Term >= p.term {
				later = append(later, m) // want `RV stored without checking that its tag is >= \(p.term,p.step\)`
			}
		}
		if len(later) > 0 {
			hi := p.term
			for _, m := range later {
				hi = max(hi, m.Term)
			}
			p.term, p.step = hi, RequestVote // want `p.step is set lower than it was at receive \(line 707\), while p.term did not increase`
		}
	}
}
