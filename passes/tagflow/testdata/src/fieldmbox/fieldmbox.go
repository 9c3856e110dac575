// Package fieldmbox keeps mailboxes in fields of the process. A field
// emptied in the round, after the last change of the tag or before a
// change that finds it empty, and filled inside the reception, holds only
// messages of the current round: it is a mailbox, checked as a local one
// is (conditions III and IV). A field that may still hold messages of an
// earlier round is an algorithm variable, which a reception may not write.
package fieldmbox

type Step int

const (
	Prepare Step = iota
	VoteStep
	Decide
)

//sync:msg Tx,VoteStep
type Vote struct {
	Tx   int
	From int
	Yes  bool
}

//sync:msg Tx,Decide
type Decision struct {
	Tx     int
	Commit bool
}

//sync:msg Tx,Step
type Ack struct {
	Tx   int
	Step Step
}

type Proc struct {
	id, n    int
	tx       int
	step     Step
	in       chan any
	out      chan Ack
	decision []Decision
	votes    map[int]Vote
	yes      map[int]bool
	acks     []bool
	nvotes   int
	gotVote  bool
	outcomes []bool
	log      []string
	ready    func(int) bool
	hook     func(string)
}

// SliceNil empties the slice with nil: the reproducer of the false
// violation.
func (p *Proc) SliceNil() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx == p.tx {
				p.decision = append(p.decision, m)
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// MapMake makes a fresh map, keyed by the sender.
func (p *Proc) MapMake() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = VoteStep
		p.votes = make(map[int]Vote)
		for len(p.votes) < p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok && m.Tx == p.tx {
				p.votes[m.From] = m
			}
		}
		p.outcomes = append(p.outcomes, len(p.votes) == p.n)
	}
}

// MapClear clears the map instead; the reset comes before the change of
// the tag, which finds the map empty.
func (p *Proc) MapClear() {
	//sync:tag p.tx,p.step
	for {
		clear(p.votes)
		p.tx++
		p.step = VoteStep
		for len(p.votes) < p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok && m.Tx == p.tx {
				p.votes[m.From] = m
			}
		}
		p.outcomes = append(p.outcomes, len(p.votes) == p.n)
	}
}

// Reslice keeps the slice's array: p.decision[:0], and literals.
func (p *Proc) Reslice() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = p.decision[:0]
		p.yes = map[int]bool{}
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx == p.tx {
				p.decision = append(p.decision, m)
				p.yes[m.Tx] = m.Commit
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// Flags keeps only the senders and a count.
func (p *Proc) Flags() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = VoteStep
		p.acks = make([]bool, p.n)
		p.nvotes = 0
		p.gotVote = false
		for p.nvotes < p.n {
			raw := <-p.in
			m, ok := raw.(Vote)
			if !ok || m.Tx != p.tx || m.From < 0 || m.From >= p.n {
				continue
			}
			p.acks[m.From] = true
			p.nvotes++
			p.gotVote = true
		}
		p.outcomes = append(p.outcomes, p.gotVote)
	}
}

// CountAll counts the Votes of any transaction in a field emptied in the
// round: the count stores them all the same.
func (p *Proc) CountAll() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = VoteStep
		p.nvotes = 0
		for p.nvotes < p.n {
			raw := <-p.in
			if _, ok := raw.(Vote); ok {
				p.nvotes++ // want `condition 3: Vote stored without checking that its tag is >= \(p.tx,p.step\)`
			}
		}
		p.outcomes = append(p.outcomes, true)
	}
}

func (p *Proc) onVote(m Vote) {
	if m.Tx != p.tx || p.step != VoteStep {
		return
	}
	p.yes[m.From] = m.Yes
	p.gotVote = true
}

func (p *Proc) onDecision(m Decision) {
	if m.Tx != p.tx || p.step != Decide {
		return
	}
	p.decision = append(p.decision, m)
}

// The dispatchers assert one type each (package dispatch has type
// switches).
func (p *Proc) handleVote(raw any) {
	if m, ok := raw.(Vote); ok {
		p.onVote(m)
	}
}

func (p *Proc) handleDecision(raw any) {
	if m, ok := raw.(Decision); ok {
		p.onDecision(m)
	}
}

func (p *Proc) onAnyDecision(m Decision) {
	p.decision = append(p.decision, m) // want `condition 3: Decision stored without checking that its tag is >= \(p.tx,p.step\)`
}

// startVotes changes the round and empties its mailboxes: a handler of the
// round change, called before the reception.
func (p *Proc) startVotes() {
	p.tx++
	p.step = VoteStep
	p.yes = make(map[int]bool)
	p.gotVote = false
}

// Handlers fills the mailboxes in handlers that a dispatcher calls inside
// the reception, in the event-handler style.
func (p *Proc) Handlers() {
	//sync:tag p.tx,p.step
	for {
		p.startVotes()
		for len(p.yes) < p.n {
			p.handleVote(<-p.in)
		}
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			p.handleDecision(<-p.in)
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// AnyHandler's handler keeps Decisions of any transaction in the field
// mailbox.
func (p *Proc) AnyHandler() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			if m, ok := (<-p.in).(Decision); ok {
				p.onAnyDecision(m)
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// BeforeLoop empties the field only once, before the tagged loop: it
// accumulates the decisions of every round.
func (p *Proc) BeforeLoop() {
	p.decision = nil
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx == p.tx {
				p.decision = append(p.decision, m) // want `condition 3: p.decision is written inside the reception loop, which may write only the mailbox`
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// OneBranch empties the field on one branch only.
func (p *Proc) OneBranch(fresh bool) {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = VoteStep
		if fresh {
			p.votes = make(map[int]Vote)
		}
		for len(p.votes) < p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok && m.Tx == p.tx {
				p.votes[m.From] = m // want `condition 3: p.votes is written inside the reception loop, which may write only the mailbox`
			}
		}
		p.outcomes = append(p.outcomes, len(p.votes) == p.n)
	}
}

// TwoSteps empties the field once for two steps: the Votes of the first
// step are still there in the second.
func (p *Proc) TwoSteps() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Prepare
		p.yes = make(map[int]bool)
		for len(p.yes) < p.n {
			raw := <-p.in
			if m, ok := raw.(Ack); ok && m.Tx == p.tx && m.Step == Prepare {
				p.yes[m.Tx] = true
			}
		}
		p.step = VoteStep
		for len(p.yes) < 2*p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok && m.Tx == p.tx {
				p.yes[m.From] = m.Yes // want `condition 3: p.yes is written inside the reception loop, which may write only the mailbox`
			}
		}
		p.outcomes = append(p.outcomes, len(p.yes) > 0)
	}
}

// note writes the process state; the engine does not follow it.
func (p *Proc) note(s string) { p.log = append(p.log, s) }

// Refilled: a call that may write the process state, or a store of the
// process's own vote, comes between the emptying and the reception.
func (p *Proc) Refilled() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = VoteStep
		p.votes = make(map[int]Vote)
		p.note("votes")
		for len(p.votes) < p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok && m.Tx == p.tx {
				p.votes[m.From] = m // want `condition 3: p.votes is written inside the reception loop, which may write only the mailbox`
			}
		}
		p.yes = make(map[int]bool)
		p.yes[p.id] = true
		for len(p.yes) < p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok && m.Tx == p.tx {
				p.yes[m.From] = m.Yes // want `condition 3: p.yes is written inside the reception loop, which may write only the mailbox`
			}
		}
		p.outcomes = append(p.outcomes, len(p.votes) == p.n)
	}
}

// Stale appends to the slice as it was before it was emptied.
func (p *Proc) Stale() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		old := p.decision
		p.decision = nil
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx == p.tx {
				p.decision = append(old, m) // want `condition 3: p.decision is written inside the reception loop, which may write only the mailbox`
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// Earlier lets Decisions of earlier transactions into the field mailbox.
func (p *Proc) Earlier() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx <= p.tx {
				p.decision = append(p.decision, m) // want `condition 3: Decision stored without checking that its tag is >= \(p.tx,p.step\)`
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// Later keeps Acks of later transactions in the field mailbox and answers
// without jumping to them.
func (p *Proc) Later() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx >= p.tx {
				p.decision = append(p.decision, m)
			}
		}
		p.out <- Ack{Tx: p.tx, Step: Decide} // want `condition 4: this send is reached while the mailbox may hold a Decision of a later round`
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// Jumped keeps Decisions of later transactions and jumps to the first one
// before answering. The loop stores exactly one, but what is known of a
// field's length does not survive the loop's blocks, and the first of
// several Decisions need not be the latest: it cannot tell.
func (p *Proc) Jumped() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx >= p.tx {
				p.decision = append(p.decision, m)
			}
		}
		p.tx = p.decision[0].Tx
		p.out <- Ack{Tx: p.tx, Step: Decide} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox's Decisions \(stored at line 403\) before send: it is set at line 406 from one of them, and the mailbox may hold several`
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// FuncValue calls a function value between the emptying and the
// reception; no function of the package of its type writes the process
// state.
func (p *Proc) FuncValue() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		if p.ready(p.tx) {
			p.out <- Ack{Tx: p.tx, Step: Decide}
		}
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx == p.tx {
				p.decision = append(p.decision, m)
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

// JumpedLocal is Jumped with a local mailbox.
func (p *Proc) JumpedLocal() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		var decision []Decision
		for len(decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx >= p.tx {
				decision = append(decision, m)
			}
		}
		p.tx = decision[0].Tx
		p.out <- Ack{Tx: p.tx, Step: Decide}
		p.outcomes = append(p.outcomes, decision[0].Commit)
	}
}

// StaleCount counts on from the count the field held before it was
// emptied.
func (p *Proc) StaleCount() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = VoteStep
		n := p.nvotes
		p.nvotes = 0
		for p.nvotes < p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok && m.Tx == p.tx {
				n++
				p.nvotes = n // want `condition 3: p.nvotes is written inside the reception loop, which may write only the mailbox`
			}
		}
		p.outcomes = append(p.outcomes, n > 0)
	}
}

// Hook calls a function value of the type of note, which writes the
// process state, between the emptying and the reception.
func (p *Proc) Hook() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = Decide
		p.decision = nil
		p.hook("decide")
		for len(p.decision) == 0 {
			raw := <-p.in
			if m, ok := raw.(Decision); ok && m.Tx == p.tx {
				p.decision = append(p.decision, m) // want `condition 3: p.decision is written inside the reception loop, which may write only the mailbox`
			}
		}
		p.outcomes = append(p.outcomes, p.decision[0].Commit)
	}
}

func (p *Proc) startRound() { p.votes = make(map[int]Vote) }

func (p *Proc) resetVotes() { clear(p.votes) }

// The map is emptied by a helper called after the change of the tag,
// which does not set the tag itself.
func (p *Proc) EmptiedByHelper() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = VoteStep
		p.startRound()
		for len(p.votes) < p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok && m.Tx == p.tx {
				p.votes[m.From] = m
			}
		}
		p.outcomes = append(p.outcomes, len(p.votes) == p.n)
	}
}

// The same with clear, and a stale vote let in.
func (p *Proc) ClearedByHelperStale() {
	//sync:tag p.tx,p.step
	for {
		p.tx++
		p.step = VoteStep
		p.resetVotes()
		for len(p.votes) < p.n {
			raw := <-p.in
			if m, ok := raw.(Vote); ok {
				p.votes[m.From] = m // want `condition 3: Vote stored without checking that its tag is >= \(p.tx,p.step\)`
			}
		}
		p.outcomes = append(p.outcomes, len(p.votes) == p.n)
	}
}
