package earlystop

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Flood is the message of a round: the values the sender knows, and its
// decision if it made one.
//
//sync:msg Inst,Round
type Flood struct {
	Inst     int
	Round    int
	From     int
	Values   []int
	Decided  bool
	Decision int
}

// Crash makes a process crash in round Round after its message reached only
// the processes in Reach (fault injection for tests).
type Crash struct {
	Round int
	Reach []int
}

// Process is one participant; up to t processes may crash.
type Process struct {
	id, n, t int
	roundDur time.Duration
	crash    *Crash

	//sync:peers
	peers  []chan<- Flood
	sendMu *sync.Mutex // shared by the group: a broadcast is atomic
	//sync:inbox
	inbox <-chan Flood
}

// NewProcess returns process id tolerating t crashes. A nil crash means it
// does not crash. The processes of a group share sendMu, which makes each
// broadcast atomic: a message of round r+1 then reaches a process only after
// every round-r message its sender had received, which is what lets a
// process end round r when it sees a round r+1 message.
func NewProcess(id, t int, peers []chan<- Flood, sendMu *sync.Mutex, inbox <-chan Flood, roundDur time.Duration, crash *Crash) *Process {
	return &Process{id: id, n: len(peers), t: t, peers: peers, sendMu: sendMu, inbox: inbox, roundDur: roundDur, crash: crash}
}

// send broadcasts m, or crashes after reaching part of the processes; it
// reports whether the process is still alive.
func (p *Process) send(m Flood) bool {
	p.sendMu.Lock()
	defer p.sendMu.Unlock()
	if p.crash != nil && p.crash.Round == m.Round {
		for _, q := range p.crash.Reach {
			p.peers[q] <- m
		}
		return false
	}
	for _, ch := range p.peers {
		ch <- m
	}
	return true
}

// Consensus runs instance inst with input v. It returns the decision, or
// ok == false if the process crashed (fault injection) or ctx ended.
func (p *Process) Consensus(ctx context.Context, inst, v int) (decision int, ok bool) {
	known := map[int]bool{v: true}
	decided := false
	heardBefore := p.n // senders heard in the previous round
	var carry []Flood  // messages of the next round that ended the last one
	round := 1
	//sync:tag inst,round
	for round <= p.t+1 {
		if !p.send(Flood{Inst: inst, Round: round, From: p.id, Values: sorted(known), Decided: decided, Decision: decision}) {
			return 0, false
		}
		if decided {
			break // our decision went out in the round after we decided
		}

		// Reception: the messages of this round, until all n arrived, the
		// round timed out, or a message of the next round shows that
		// another process has moved on.
		mbox := make(map[int]Flood)
		for _, m := range carry {
			mbox[m.From] = m
		}
		timer := time.NewTimer(p.roundDur)
	receive:
		for len(mbox) < p.n {
			select {
			case m := <-p.inbox:
				if m.Inst != inst || m.Round < round || m.Round > round+1 {
					continue
				}
				mbox[m.From] = m
				if m.Round > round {
					break receive
				}
			case <-timer.C:
				break receive
			case <-ctx.Done():
				timer.Stop()
				return 0, false
			}
		}
		timer.Stop()
		next := round + 1
		if hi := maxRound(mbox); hi > round {
			round = hi // somebody is in the next round already: so are we
		}

		carry = carry[:0]
		heard := 0
		for _, m := range mbox {
			if m.Round == next {
				carry = append(carry, m)
				continue
			}
			heard++
			for _, w := range m.Values {
				known[w] = true
			}
			if m.Decided && !decided {
				decided, decision = true, m.Decision
			}
		}
		if !decided && (heard == heardBefore || next > p.t+1) {
			// Nobody crashed during this round (or t+1 rounds are over):
			// every value of a process still alive is known to us.
			decided, decision = true, slices.Min(sorted(known))
		}
		heardBefore = heard
		round = next
	}
	return decision, decided
}

func maxRound(mbox map[int]Flood) int {
	hi := 0
	for _, m := range mbox {
		hi = max(hi, m.Round)
	}
	return hi
}

func sorted(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}
