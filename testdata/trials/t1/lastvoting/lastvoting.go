package lastvoting

import (
	"sync"
	"time"
)

// Round is the round inside a phase.
type Round int

// The four rounds of a phase (Algorithm 2, rounds 4φ-3 .. 4φ).
const (
	Collect Round = iota
	Vote
	Ack
	Decide
)

// CollectMsg carries a process's value and timestamp to its coordinator.
//
//sync:msg Phase,Collect
type CollectMsg struct {
	Phase int
	From  int
	X     int
	TS    int
}

// VoteMsg is the coordinator's vote.
//
//sync:msg Phase,Vote
type VoteMsg struct {
	Phase int
	From  int
	V     int
}

// AckMsg acknowledges the vote of the phase.
//
//sync:msg Phase,Ack
type AckMsg struct {
	Phase int
	From  int
}

// DecideMsg tells everybody to decide V.
//
//sync:msg Phase,Decide
type DecideMsg struct {
	Phase int
	From  int
	V     int
}

// Switch connects the processes' inboxes.
type Switch struct {
	mu    sync.Mutex
	boxes []chan any
	drop  func(to int, m any) bool
}

// NewSwitch returns a switch for n processes; drop, if not nil, loses the
// copies it returns true for.
func NewSwitch(n int, drop func(to int, m any) bool) *Switch {
	s := &Switch{boxes: make([]chan any, n), drop: drop}
	for i := range s.boxes {
		s.boxes[i] = make(chan any, 256)
	}
	return s
}

// Post sends m to process to; a copy that does not fit is lost.
//
//sync:send
func (s *Switch) Post(to int, m any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drop != nil && s.drop(to, m) {
		return
	}
	select {
	case s.boxes[to] <- m:
	default:
	}
}

// Proc is one LastVoting process.
type Proc struct {
	id      int
	n       int
	coord   func(phase int) int // Coord(p, φ), chosen outside the algorithm
	in      <-chan any          //sync:inbox
	sw      *Switch
	timeout time.Duration

	phase int
	round Round

	x        int
	ts       int
	vote     int
	commit   bool
	ready    bool
	decided  bool
	decision int
}

// NewProc returns process id with initial value v.
func NewProc(id, n, v int, sw *Switch, coord func(int) int, timeout time.Duration) *Proc {
	return &Proc{id: id, n: n, coord: coord, in: sw.boxes[id], sw: sw, timeout: timeout, x: v}
}

// Decision returns the decided value, if any.
func (p *Proc) Decision() (int, bool) { return p.decision, p.decided }

func (p *Proc) broadcast(m any) {
	for q := range p.n {
		p.sw.Post(q, m)
	}
}

// Run executes phases 1..maxPhases. Like every HO algorithm, each process
// goes through every round of every phase; a round's reception ends when
// the expected messages are in or its timer fires.
func (p *Proc) Run(maxPhases int) {
	acks := make(map[int]bool) // reused by every phase this process coordinates
	p.phase, p.round = 1, Collect
	//sync:tag p.phase,p.round
	for p.phase <= maxPhases {
		c := p.coord(p.phase)

		// Round 4φ-3: send <x, ts> to the coordinator.
		p.sw.Post(c, CollectMsg{Phase: p.phase, From: p.id, X: p.x, TS: p.ts})
		if p.id == c {
			got := make(map[int]CollectMsg)
			timer := time.NewTimer(p.timeout)
		collect:
			for len(got) < p.n {
				select {
				case raw := <-p.in:
					if m, ok := raw.(CollectMsg); ok && m.Phase == p.phase {
						got[m.From] = m
					}
				case <-timer.C:
					break collect
				}
			}
			timer.Stop()
			if len(got) > p.n/2 {
				p.vote, p.commit = lastVoted(got), true
			}
		}

		// Round 4φ-2: the coordinator sends its vote.
		p.round = Vote
		if p.id == c && p.commit {
			p.broadcast(VoteMsg{Phase: p.phase, From: p.id, V: p.vote})
		}
		// Wait long enough to span the coordinator's own wait in the
		// previous round: with a lost estimate it waits its full timer.
		var votes []VoteMsg
		timer := time.NewTimer(2 * p.timeout)
	vote:
		for len(votes) == 0 {
			select {
			case raw := <-p.in:
				if m, ok := raw.(VoteMsg); ok && m.Phase == p.phase && m.From == c {
					votes = append(votes, m)
				}
			case <-timer.C:
				break vote
			}
		}
		timer.Stop()
		if len(votes) > 0 {
			p.x, p.ts = votes[0].V, p.phase
		}

		// Round 4φ-1: acknowledge a vote of this phase.
		p.round = Ack
		if p.ts == p.phase {
			p.sw.Post(c, AckMsg{Phase: p.phase, From: p.id})
		}
		if p.id == c {
			clear(acks)
			timer := time.NewTimer(p.timeout)
		ack:
			for len(acks) < p.n {
				select {
				case raw := <-p.in:
					if m, ok := raw.(AckMsg); ok && m.Phase == p.phase {
						acks[m.From] = true
					}
				case <-timer.C:
					break ack
				}
			}
			timer.Stop()
			if len(acks) > p.n/2 {
				p.ready = true
			}
		}

		// Round 4φ: the coordinator announces the decision.
		p.round = Decide
		if p.id == c && p.ready {
			p.broadcast(DecideMsg{Phase: p.phase, From: p.id, V: p.vote})
		}
		var decs []DecideMsg
		timer = time.NewTimer(2 * p.timeout) // spans the coordinator's wait for acks
	decide:
		for len(decs) == 0 {
			select {
			case raw := <-p.in:
				if m, ok := raw.(DecideMsg); ok && m.Phase == p.phase && m.From == c {
					decs = append(decs, m)
				}
			case <-timer.C:
				break decide
			}
		}
		timer.Stop()
		if len(decs) > 0 && !p.decided {
			p.decided, p.decision = true, decs[0].V
		}
		if p.id == c {
			p.ready, p.commit = false, false
		}

		p.phase++
		p.round = Collect
	}
}

// lastVoted returns the value of the received pair with the largest
// timestamp, of the lowest sender among those (Algorithm 2, lines 12-13).
func lastVoted(got map[int]CollectMsg) int {
	best := -1
	for q, m := range got {
		if best < 0 || m.TS > got[best].TS || m.TS == got[best].TS && q < best {
			best = q
		}
	}
	return got[best].X
}
