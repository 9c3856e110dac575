package unbounded

// Envelope carries a message and data about it that no tag maps.
type Envelope struct {
	From   int
	Ballot int
	Msg    any
}

// EProc receives its messages in envelopes.
type EProc struct {
	ballot int
	phase  Phase
	id, n  int
	last   int
	in     chan Envelope
	out    chan PromiseMsg
}

// The Prepare must come from the leader of its ballot (signed: the
// remainder bounds the ballot unless the sender moves along). The sender
// is received data read nowhere else: the witness's Prepare, with a larger
// ballot, comes from that ballot's leader.
func (p *EProc) Sender() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `condition 1: p.ballot may be set lower than it was at send \(line 40\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			e := <-p.in
			m, ok := e.Msg.(PrepareMsg)
			if !ok || m.Ballot < p.ballot || e.From != leaderOf(m.Ballot, p.n) {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The same in a select, the envelope in a variable.
func (p *EProc) SenderSelect(done chan bool) {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `condition 1: p.ballot may be set lower than it was at send \(line 65\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(PrepareMsg)
				if !ok || m.Ballot < p.ballot || e.From != leaderOf(m.Ballot, p.n) {
					continue
				}
				prepares = append(prepares, m)
			case <-done:
				return
			}
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The envelope's ballot must be the message's: the witness's envelope
// carries the larger one too.
func (p *EProc) Header() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `condition 1: p.ballot may be set lower than it was at send \(line 87\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			e := <-p.in
			m, ok := e.Msg.(PrepareMsg)
			if !ok || m.Ballot < p.ballot || e.Ballot != m.Ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The sender is also tested against the replica's own id: two tests of
// it, which one choice may not meet. It cannot tell.
func (p *EProc) SenderTwice() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			e := <-p.in
			m, ok := e.Msg.(PrepareMsg)
			if !ok || m.Ballot < p.ballot || e.From != leaderOf(m.Ballot, p.n) || e.From == p.id {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The sender is kept: it cannot tell.
func (p *EProc) SenderKept() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		from := -1
		for len(prepares) == 0 {
			e := <-p.in
			m, ok := e.Msg.(PrepareMsg)
			if !ok || m.Ballot < p.ballot || e.From != leaderOf(m.Ballot, p.n) {
				continue
			}
			prepares = append(prepares, m)
			from = e.From
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.last = from
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The envelope is handed to a function whole: it cannot tell.
func (p *EProc) SenderHanded() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			e := <-p.in
			m, ok := e.Msg.(PrepareMsg)
			if !ok || m.Ballot < p.ballot || e.From != leaderOf(m.Ballot, p.n) {
				continue
			}
			prepares = append(prepares, m)
			trace(e)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

func trace(e Envelope) { _ = e }

// The sender is tested twice, against two different leaders: no one
// sender meets both (the path is infeasible, and must not serve as a
// witness). It cannot tell.
func (p *EProc) SenderLoop() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			e := <-p.in
			m, ok := e.Msg.(PrepareMsg)
			if !ok || m.Ballot < p.ballot {
				continue
			}
			hits := 0
			for q := 0; q < 2; q++ {
				if e.From == q*p.n+leaderOf(m.Ballot, p.n) {
					hits++
				}
			}
			if hits == 2 {
				prepares = append(prepares, m)
			}
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}
