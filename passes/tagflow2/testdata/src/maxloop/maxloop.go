// Package maxloop is the catch-up jump to the highest round heard of: a
// max loop over the mailbox leaves the maximum at least every element,
// by induction over the range loop, and the jump to it leaves no message
// of a later round in the mailbox. Written with the max builtin over a
// map and with a test over a slice; SkipsSome's loop skips some
// messages, so their rounds may still be later after the jump. The last
// two take one request out of the mailbox: only that one owes the jump.
package maxloop

//sync:msg Term,Ask
type Req struct {
	Term  int
	From  int
	Stand bool
}

type Step int

const (
	Ask Step = iota
	Answer
)

//sync:msg Term,Answer
type Grant struct {
	Term int
}

type Net interface {
	//sync:send
	Send(to int, m Req)
	//sync:send
	Answer(to int, m Grant)
	//sync:recv
	Recv() (Req, bool)
}

type node struct {
	term int
	step Step
}

// MaxOverMap steps up to the highest term a request asked for.
func (n *node) MaxOverMap(net Net, size int) {
	//sync:tag n.term,n.step
	for n.term < 100 {
		n.term++
		n.step = Ask
		net.Send(0, Req{Term: n.term})
		reqs := make(map[int]Req)
		for len(reqs) < size {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.Term < n.term {
				continue
			}
			reqs[m.From] = m
		}
		hi := n.term
		for _, m := range reqs {
			hi = max(hi, m.Term)
		}
		if hi > n.term {
			n.term = hi
		}
		n.step = Answer
		for _, m := range reqs {
			net.Answer(m.From, Grant{Term: n.term})
		}
	}
}

// TestOverSlice does the same with a test and a slice.
func (n *node) TestOverSlice(net Net, size int) {
	//sync:tag n.term,n.step
	for n.term < 100 {
		n.term++
		n.step = Ask
		net.Send(0, Req{Term: n.term})
		var reqs []Req
		for len(reqs) < size {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.Term < n.term {
				continue
			}
			reqs = append(reqs, m)
		}
		hi := n.term
		for _, m := range reqs {
			if m.Term > hi {
				hi = m.Term
			}
		}
		n.term = hi
		n.step = Answer
		for _, m := range reqs {
			net.Answer(m.From, Grant{Term: n.term})
		}
	}
}

// SkipsSome takes the maximum over the candidates only: a request that
// does not stand may be of a later term still. "Cannot prove", not a
// violation: that such a request is above the maximum of the others is a
// relation between two received terms, which the domain does not keep;
// the mailbox reaches the next iteration's first send too, when no
// request came.
func (n *node) SkipsSome(net Net, size int) {
	//sync:tag n.term,n.step
	for n.term < 100 {
		n.term++
		n.step = Ask
		net.Send(0, Req{Term: n.term}) // want `cannot prove 4: the process sends while a Req that may be of a later round is kept, without a jump to its round first`
		var reqs []Req
		for len(reqs) < size {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.Term < n.term {
				continue
			}
			reqs = append(reqs, m)
		}
		hi := n.term
		for _, m := range reqs {
			if m.Stand && m.Term > hi {
				hi = m.Term
			}
		}
		n.term = hi
		n.step = Answer
		for _, m := range reqs {
			net.Answer(m.From, Grant{Term: n.term}) // want `cannot prove 4: the process sends while a Req that may be of a later round is kept, without a jump to its round first`
		}
	}
}

// JumpToFirst waits for one request and jumps to its term: the other
// requests the mailbox may hold are never read, so only the one taken
// owes the jump, and the jump settles it.
func (n *node) JumpToFirst(net Net, log *[]int) {
	//sync:tag n.term,n.step
	for n.term < 100 {
		n.term++
		n.step = Ask
		var reqs []Req
		for len(reqs) == 0 {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.Term < n.term {
				continue
			}
			reqs = append(reqs, m)
		}
		if len(reqs) == 0 {
			continue
		}
		r := reqs[0]
		if r.Term > n.term {
			n.term = r.Term
		}
		*log = append(*log, r.From)
		n.step = Answer
		net.Answer(r.From, Grant{Term: n.term})
	}
}

// FirstWithoutJump takes the first request without a jump: it may be of
// a later term when the process answers.
func (n *node) FirstWithoutJump(net Net, log *[]int) {
	//sync:tag n.term,n.step
	for n.term < 100 {
		n.term++
		n.step = Ask
		var reqs []Req
		for len(reqs) == 0 {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.Term < n.term {
				continue
			}
			reqs = append(reqs, m)
		}
		if len(reqs) == 0 {
			continue
		}
		r := reqs[0]
		*log = append(*log, r.From)
		n.step = Answer
		net.Answer(r.From, Grant{Term: n.term}) // want `condition 4: the process sends while a Req of a later round can be kept, without a jump to its round first`
	}
}
