// Package singleton is about collections that hold at most one message
// (a reception loop that stops at the first one, for len(got) == 0), whose
// only element a jump to its tag settles; data of a received message kept
// as a map key or slice index; and a filter through a helper the analysis
// cannot relate to the message it tests.
package singleton

import "time"

type Step int

const (
	Prepare Step = iota
	Promise
)

//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
	From   int
}

type Network interface {
	//sync:send
	Send(to int, m Msg)
	//sync:recv
	Recv(deadline time.Time) (Msg, bool)
}

type Replica struct {
	id     int
	net    Network
	ballot int
	step   Step
}

// Join waits for the first Prepare of this ballot or a later one and
// joins its ballot: the mailbox holds that one message only.
func (p *Replica) Join(max int) {
	//sync:tag p.ballot,p.step
	for i := 0; i < max; i++ {
		p.ballot++
		p.step = Prepare
		var preps []Msg
		for len(preps) == 0 {
			m, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			if m.Step != Prepare || m.Ballot < p.ballot {
				continue
			}
			preps = append(preps, m)
		}
		if len(preps) == 0 {
			continue
		}
		p.ballot = preps[0].Ballot
		p.step = Promise
		p.net.Send(preps[0].From, Msg{Ballot: p.ballot, Step: p.step, From: p.id})
	}
}

// JoinFirstOfTwo waits for two Prepares and joins the ballot of the first:
// the second may be of a later ballot still.
func (p *Replica) JoinFirstOfTwo(max int) {
	//sync:tag p.ballot,p.step
	for i := 0; i < max; i++ {
		p.ballot++
		p.step = Prepare
		var preps []Msg
		for len(preps) < 2 {
			m, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			if m.Step != Prepare || m.Ballot < p.ballot {
				continue
			}
			preps = append(preps, m)
		}
		if len(preps) < 2 {
			continue
		}
		p.ballot = preps[0].Ballot
		p.step = Promise
		p.net.Send(preps[0].From, Msg{Ballot: p.ballot, Step: p.step, From: p.id}) // want `cannot prove 4: the process sends while a Msg that may be of a later round is kept, without a jump to its round first`
	}
}

// CountAnyEarlier counts the Promises of this ballot and, by mistake, of
// earlier ones: the sender of an earlier ballot's Promise is kept as a key.
func (p *Replica) CountAnyEarlier(max int) {
	//sync:tag p.ballot,p.step
	for i := 0; i < max; i++ {
		p.ballot++
		p.step = Promise
		p.net.Send(0, Msg{Ballot: p.ballot, Step: p.step, From: p.id})
		from := make(map[int]bool)
		for len(from) < 2 {
			m, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			if m.Step != Promise || m.Ballot > p.ballot {
				continue
			}
			from[m.From] = true // want `condition 3: Msg kept in the state without checking that its tag is >= \(p.ballot,p.step\)`
		}
	}
}

// CountCurrent is CountAnyEarlier with the filter right.
func (p *Replica) CountCurrent(max int) {
	//sync:tag p.ballot,p.step
	for i := 0; i < max; i++ {
		p.ballot++
		p.step = Promise
		p.net.Send(0, Msg{Ballot: p.ballot, Step: p.step, From: p.id})
		from := make(map[int]bool)
		for len(from) < 2 {
			m, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			if m.Step != Promise || m.Ballot != p.ballot {
				continue
			}
			from[m.From] = true
		}
	}
}

// Hdr is a copy of a message's tag.
type Hdr struct {
	Ballot int
	Step   Step
}

func (m Msg) Header() Hdr { return Hdr{m.Ballot, m.Step} }

func (p *Replica) current(h Hdr) bool { return h.Ballot == p.ballot && h.Step == p.step }

// CountThroughHeader filters through current(m.Header()): the helper tests
// a copy the analysis does not relate to m.
func (p *Replica) CountThroughHeader(max int) {
	//sync:tag p.ballot,p.step
	for i := 0; i < max; i++ {
		p.ballot++
		p.step = Promise
		p.net.Send(0, Msg{Ballot: p.ballot, Step: p.step, From: p.id}) // want `cannot prove 4: the process sends while a Msg that may be of a later round is kept, without a jump to its round first`
		from := make(map[int]bool)
		for len(from) < 2 {
			m, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			if p.current(m.Header()) {
				from[m.From] = true // want `cannot prove 3: Msg kept in the state without checking that its tag is >= \(p.ballot,p.step\)`
			}
		}
	}
}
