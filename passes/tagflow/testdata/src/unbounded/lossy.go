package unbounded

// FProc remembers in its state whether the ballot received was later.
type FProc struct {
	ballot int
	phase  Phase
	id, n  int
	far    bool
	tries  int
	in     chan PrepareMsg
	out    chan PromiseMsg
}

// Only the ballot the replica is in is joined: a later one sets p.far,
// and then the replica stops. Every execution that jumps got a ballot
// equal to its own, and the next one is larger; the engine forgets p.far
// between blocks, so its path through "later, yet not far" is not one: it
// must not be a witness. It cannot tell.
func (p *FProc) FlagInState() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = 2*b + 1 // want `cannot prove 1: cannot tell that p.ballot is not lower than at send`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		if prepares[0].Ballot > p.ballot {
			p.far = true // want `condition 4: this update of p.far is reached while the mailbox may hold a PrepareMsg of a later round \(stored at line 30\) and the tag has not jumped to it`
		} else {
			p.far = false
		}
		if p.far {
			return
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The same with the flag in a local variable: the engine keeps what it
// knows of it, and does not follow the infeasible path either (it cannot
// order the ballots, which facts about the mailbox's element it lost).
func (p *FProc) FlagLocal() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = 2*b + 1 // want `cannot prove 1: cannot tell that p.ballot is not lower than at send \(line 71\)`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		far := false
		if prepares[0].Ballot > p.ballot { // want `condition 4: this test of the mailbox \(the path it chooses ends the iteration without the jump\) is reached while the mailbox may hold a PrepareMsg of a later round \(stored at line 60\) and the tag has not jumped to it`
			far = true
		}
		if far {
			return
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The state is written before the ballot is received, and tested after:
// that test cannot be tied to the ballot, which nothing bounds. A
// violation.
func (p *FProc) WrittenBefore() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = 2*b + 1 // want `condition 1: p.ballot may be set lower than it was at send \(line 97\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.phase = Prepare
		p.tries++
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		if p.tries > 3 {
			return
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The flag is merged in a local variable, then kept in the state and
// tested there: it cannot tell.
func (p *FProc) FlagMerged() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = 2*b + 1 // want `cannot prove 1: cannot tell that p.ballot is not lower than at send`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		far := false
		if prepares[0].Ballot > p.ballot {
			far = true
		}
		p.far = far // want `condition 4: this update of p.far is reached while the mailbox may hold a PrepareMsg of a later round \(stored at line 114\) and the tag has not jumped to it`
		if p.far {
			return
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// markFar sets the flag.
func (p *FProc) markFar(v bool) { p.far = v }

// The flag is set by a helper (not followed), from the comparison: it
// cannot tell.
func (p *FProc) FlagHelper() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = 2*b + 1 // want `cannot prove 1: cannot tell that p.ballot is not lower than at send`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.markFar(prepares[0].Ballot > p.ballot) // want `condition 4: this call to markFar, which writes the process state, is reached while the mailbox may hold a PrepareMsg of a later round \(stored at line 146\) and the tag has not jumped to it`
		if p.far {
			return
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}
