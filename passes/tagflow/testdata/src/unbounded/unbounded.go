// Package unbounded checks condition I where the tag held a received value
// that nothing bounds above, and is then set to a value that does not
// depend on it: a violation (a message with a larger ballot leads there),
// unless the path bounds the received value or loses track of it.
package unbounded

import "fmt"

type Phase int

const (
	Prepare Phase = iota
	Promise
)

//sync:msg Ballot,Prepare
type PrepareMsg struct{ Ballot, From int }

//sync:msg Ballot,Promise
type PromiseMsg struct{ Ballot int }

type Proc struct {
	ballot int
	phase  Phase
	id, n  int
	seen   int
	known  map[int]bool
	log    []int
	in     chan PrepareMsg
	out    chan PromiseMsg
}

func leaderOf(b, n int) int { return b % n }

// The ballot is numbered from the attempt counter, after the replica
// joined a later ballot in the previous attempt.
func (p *Proc) Counter() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `condition 1: p.ballot may be set lower than it was at send \(line 52\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
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
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The same, with the leader of a ballot checked (b % n): a remainder
// takes the sign of the ballot, and nothing says ballots are not negative
// (a path that needs m.Ballot%n == -1 bounds it above), so it cannot tell.
func (p *Proc) CounterLeader() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot || m.From != leaderOf(m.Ballot, p.n) {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		if leaderOf(p.ballot, p.n) != p.id {
			p.out <- PromiseMsg{Ballot: p.ballot}
		}
	}
}

// The next ballot follows the one joined.
func (p *Proc) Incr() {
	//sync:tag p.ballot,p.phase
	for {
		p.ballot++
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
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The filter bounds the ballots kept: the counter may be above them.
func (p *Proc) Bounded() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot || m.Ballot > p.ballot+p.n {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The ballot joined is kept in another field, and the next one computed
// from it: the engine does not follow the field, so it cannot tell.
func (p *Proc) Kept() {
	//sync:tag p.ballot,p.phase
	for {
		p.ballot = p.seen + 1 // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
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
		p.seen = p.ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The ballot joined is handed to code the engine does not follow.
func (p *Proc) Logged() {
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
		fmt.Println("joined", p.ballot)
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// The message kept must carry the ballot itself: nothing larger is
// ever joined.
func (p *Proc) Equal() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot != p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// Only ballots the replica knows of are joined: a map lookup bounds them.
func (p *Proc) Known() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if _, ok := p.known[m.Ballot]; !ok || m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// A switch on the ballot bounds it.
func (p *Proc) Switch() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			switch m.Ballot {
			case 7, 9:
			default:
				continue
			}
			if m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

// Indexing a slice with the ballot joined bounds it (or panics).
func (p *Proc) Indexed() {
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
		p.log[p.ballot]++
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

func (p *Proc) near(m PrepareMsg) bool { return m.Ballot <= p.ballot+p.n }

// A helper predicate bounds the ballots kept.
func (p *Proc) Near() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []PrepareMsg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot || !p.near(m) {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

func (p *Proc) numbered(b int) int { return b*p.n + p.id }

// The attempt's ballot is computed by a helper, from the counter alone.
func (p *Proc) Helper() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = p.numbered(b) // want `condition 1: p.ballot may be set lower than it was at send`
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
		p.out <- PromiseMsg{Ballot: p.ballot}
	}
}

//sync:msg Ballot,Prepare
type UPrepare struct{ Ballot, From uint64 }

//sync:msg Ballot,Promise
type UPromise struct{ Ballot uint64 }

type UProc struct {
	ballot uint64
	phase  Phase
	id, n  uint64
	in     chan UPrepare
	out    chan UPromise
}

func uleaderOf(b, n uint64) uint64 { return b % n }

// Unsigned ballots: the leader checks (b % n) hold again for a larger
// ballot with the same remainder.
func (p *UProc) CounterLeader() {
	//sync:tag p.ballot,p.phase
	for b := uint64(0); ; b++ {
		p.ballot = b*p.n + p.id // want `condition 1: p.ballot may be set lower than it was at`
		p.phase = Prepare
		var prepares []UPrepare
		for len(prepares) == 0 {
			m := <-p.in
			if m.Ballot < p.ballot || m.From != uleaderOf(m.Ballot, p.n) {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		if uleaderOf(p.ballot, p.n) != p.id {
			p.out <- UPromise{Ballot: p.ballot}
		}
	}
}

// Msg carries both components as fields (one type for every round).
//
//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Phase
}

// SProc exchanges Msg.
type SProc struct {
	ballot int
	phase  Phase
	id, n  int
	in     chan Msg
	out    chan Msg
}

// The attempt counter again, with the round of a message tested for
// equality: that bounds its Step, not its Ballot, so a message with a
// larger ballot still leads to the violation.
func (p *SProc) Counter() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `condition 1: p.ballot may be set lower than it was at send \(line 368\): it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it`
		p.phase = Prepare
		var prepares []Msg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Step != Prepare || m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- Msg{Ballot: p.ballot, Step: p.phase}
	}
}

// The same with the ballot tested for equality: it cannot tell.
func (p *SProc) CounterEqual() {
	//sync:tag p.ballot,p.phase
	for b := 0; ; b++ {
		p.ballot = b*p.n + p.id // want `cannot prove 1: cannot tell that p.ballot is not lower than at`
		p.phase = Prepare
		var prepares []Msg
		for len(prepares) == 0 {
			m := <-p.in
			if m.Step != Prepare || m.Ballot < p.ballot || m.Ballot != p.n {
				continue
			}
			prepares = append(prepares, m)
		}
		p.ballot = prepares[0].Ballot
		p.phase = Promise
		p.out <- Msg{Ballot: p.ballot, Step: p.phase}
	}
}
