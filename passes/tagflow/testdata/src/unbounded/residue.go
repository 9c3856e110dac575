package unbounded

// RProc sends its promises to the leader of the ballot through a table of
// peers indexed by id.
type RProc struct {
	ballot int
	phase  Phase
	id, n  int
	in     chan PrepareMsg
	peers  []chan PromiseMsg
	log    []string
}

// send sends m to peer q (indexing the table: q is in range once it
// returns).
//
//sync:send
func (p *RProc) send(q int, m PromiseMsg) {
	p.peers[q] <- m
}

// sendLogged sends like send, but a deferred recover may let it return
// after an index out of range.
//
//sync:send
func (p *RProc) sendLogged(q int, m PromiseMsg) {
	defer func() {
		if r := recover(); r != nil {
			p.log = append(p.log, "bad peer")
		}
	}()
	p.peers[q] <- m
}

// sendSome indexes the table only when q is not the sender itself.
//
//sync:send
func (p *RProc) sendSome(q int, m PromiseMsg) {
	if q != p.id {
		p.peers[q] <- m
	}
}

// The leader of the joined ballot (a signed remainder) gets the promise:
// the table is indexed with it, so it is not negative, and the test of
// leadership holds again for a larger ballot with the same leader. A
// violation.
func (p *RProc) LeaderIndexed() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `condition 1: p.ballot may be set lower than it was at send \(line 64\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		leader := leaderOf(p.ballot, p.n)
		p.send(leader, PromiseMsg{Ballot: p.ballot})
		if leader == p.id {
			p.phase = Prepare + 2
		}
	}
}

// The same with the leadership tested before the send: the remainder is
// not known positive yet there, and the engine does not look ahead.
func (p *RProc) LeaderTestedFirst() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		leader := leaderOf(p.ballot, p.n)
		if leader == p.id {
			continue
		}
		p.send(leader, PromiseMsg{Ballot: p.ballot})
	}
}

// A recover may let the send return with the leader negative: it cannot
// tell.
func (p *RProc) LeaderRecovered() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		leader := leaderOf(p.ballot, p.n)
		p.sendLogged(leader, PromiseMsg{Ballot: p.ballot})
		if leader == p.id {
			p.phase = Prepare + 2
		}
	}
}

// The table is indexed on one branch only: it cannot tell.
func (p *RProc) LeaderSometimes() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		leader := leaderOf(p.ballot, p.n)
		p.sendSome(leader, PromiseMsg{Ballot: p.ballot})
		if leader == p.id {
			p.phase = Prepare + 2
		}
	}
}
