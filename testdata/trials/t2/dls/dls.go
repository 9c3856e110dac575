package dls

import (
	"slices"
	"time"
)

// Round is the round part of the tag (phase, round).
type Round int

// The rounds of a phase, in order.
const (
	Acceptable Round = iota
	Lock
	Ack
	Release
)

// Msg is the one message type.
//
//sync:msg Phase,Round
type Msg struct {
	Phase int
	Round Round
	From  int

	Proper     []int // Acceptable: the sender's proper values
	Acceptable []int // Acceptable: those it would lock
	Val        int   // Lock: the proposal; Release: the locked or decided value
	Locked     bool  // Release: the sender holds a lock on Val
	LockPhase  int   // Release: the phase of that lock
	Decided    bool  // Release: the coordinator decided Val
}

// Config configures a process.
type Config struct {
	ID, N, F int
	Input    int
	Start    time.Time     // common start of phase 0, on synchronized clocks
	RoundLen time.Duration // duration of a round
}

// Proc is one process.
type Proc struct {
	cfg Config
	//sync:peers
	peers []chan<- Msg
	//sync:inbox
	inbox <-chan Msg

	phase int
	round Round

	proper    []int
	locked    bool
	lockVal   int
	lockPhase int

	decided bool
	value   int
}

// NewProc returns a process with the given peers (its own inbox included).
func NewProc(cfg Config, peers []chan<- Msg, inbox <-chan Msg) *Proc {
	return &Proc{cfg: cfg, peers: peers, inbox: inbox, proper: []int{cfg.Input}}
}

func (p *Proc) send(to int, m Msg) {
	select {
	case p.peers[to] <- m:
	default:
	}
}

func (p *Proc) broadcast(m Msg) {
	for to := range p.peers {
		p.send(to, m)
	}
}

// deadline is the end of the current round on the common clock.
func (p *Proc) deadline() time.Time {
	k := p.phase*4 + int(p.round) + 1
	return p.cfg.Start.Add(time.Duration(k) * p.cfg.RoundLen)
}

// collect returns the messages of the current round received before it
// ends, one per sender.
func (p *Proc) collect() map[int]Msg {
	got := make(map[int]Msg)
	timer := time.NewTimer(time.Until(p.deadline()))
	defer timer.Stop()
	for {
		select {
		case m := <-p.inbox:
			if m.Phase != p.phase || m.Round != p.round {
				continue // late, or from a process whose clock runs ahead
			}
			got[m.From] = m
		case <-timer.C:
			return got
		}
	}
}

// Run executes phases phases and returns the decision, if any.
func (p *Proc) Run(phases int) (int, bool) {
	n, f := p.cfg.N, p.cfg.F

	//sync:tag p.phase,p.round
	for p.phase < phases {
		coord := p.phase % n

		// Round Acceptable.
		p.broadcast(Msg{Phase: p.phase, Round: p.round, From: p.cfg.ID, Proper: p.proper, Acceptable: p.acceptable()})
		lists := p.collect()
		for _, m := range lists {
			for _, v := range m.Proper {
				if !slices.Contains(p.proper, v) {
					p.proper = append(p.proper, v)
				}
			}
		}

		// Round Lock: the coordinator proposes a value acceptable to n-f.
		p.round = Lock
		if coord == p.cfg.ID {
			if v, ok := p.choose(lists, n-f); ok {
				p.broadcast(Msg{Phase: p.phase, Round: p.round, From: p.cfg.ID, Val: v})
			}
		}
		proposals := p.collect()

		// Round Ack: lock the proposal and acknowledge it.
		p.round = Ack
		if m, ok := proposals[coord]; ok {
			p.locked, p.lockVal, p.lockPhase = true, m.Val, p.phase
			p.send(coord, Msg{Phase: p.phase, Round: p.round, From: p.cfg.ID, Val: m.Val})
		}
		acks := p.collect()
		if coord == p.cfg.ID && len(acks) >= f+1 && !p.decided {
			p.decided, p.value = true, p.lockVal
		}

		// Round Release: exchange locks, release the outdated ones.
		p.round = Release
		out := Msg{Phase: p.phase, Round: p.round, From: p.cfg.ID, Val: p.lockVal, Locked: p.locked, LockPhase: p.lockPhase}
		if coord == p.cfg.ID && p.decided {
			out.Val, out.Decided = p.value, true
		}
		p.broadcast(out)
		locks := p.collect()
		for _, m := range locks {
			if m.Decided && m.From == coord && !p.decided {
				p.decided, p.value = true, m.Val
			}
			if p.locked && m.Locked && m.Val != p.lockVal && m.LockPhase > p.lockPhase {
				p.locked = false
			}
		}

		p.phase++
		p.round = Acceptable
	}
	return p.value, p.decided
}

// acceptable returns the proper values the process may lock.
func (p *Proc) acceptable() []int {
	if p.locked {
		return []int{p.lockVal}
	}
	return slices.Clone(p.proper)
}

// choose returns the smallest value that at least need processes find
// acceptable.
func (p *Proc) choose(lists map[int]Msg, need int) (int, bool) {
	count := make(map[int]int)
	for _, m := range lists {
		for _, v := range m.Acceptable {
			count[v]++
		}
	}
	best, ok := 0, false
	for v, c := range count {
		if c >= need && (!ok || v < best) {
			best, ok = v, true
		}
	}
	return best, ok
}
