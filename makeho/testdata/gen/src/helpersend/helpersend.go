// Package helpersend sends through methods of the process: broadcast
// locks the process's mutex and calls send for every entry of the peers
// table, which sends the envelope in a select that loses it when the
// inbox is full; announce sends the vote to every other process, a
// message per receiver. make-HO follows the calls: the three become
// methods of the machine whose sends go through the round's context.
package helpersend

import (
	"context"
	"sync"
	"time"
)

type Step int

const (
	Estimate Step = iota
	Vote
)

//sync:msg Phase,Step
type Msg struct {
	Phase int
	Step  Step
	X     int
	Vote  bool
}

// Envelope is what the channels carry.
type Envelope struct {
	From int
	Msg  Msg
}

type Proc struct {
	id, n   int
	inbox   <-chan Envelope
	peers   []chan<- Envelope
	timeout time.Duration
	mu      sync.Mutex // orders the sends of broadcast with other goroutines

	phase int
	step  Step

	x        int
	voted    bool
	decided  bool
	decision int
}

// Run runs phases of a two-round consensus: the processes exchange their
// values and keep the smallest, vote for it when all they heard agree, and
// decide when a majority voted for the same value.
func (p *Proc) Run(ctx context.Context, phases int) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	//sync:tag p.phase,p.step
	for p.phase < phases {
		p.phase++
		p.step = Estimate
		p.broadcast(Msg{Phase: p.phase, Step: p.step, X: p.x})
		xs := make(map[int]int)
		timer.Reset(p.timeout)
	estimates:
		for len(xs) < p.n {
			select {
			case e := <-p.inbox:
				if e.Msg.Phase != p.phase || e.Msg.Step != p.step {
					continue
				}
				xs[e.From] = e.Msg.X
			case <-timer.C:
				break estimates
			case <-ctx.Done():
				return
			}
		}
		if len(xs) == 0 {
			continue
		}
		p.voted = true
		for _, x := range xs {
			if x != p.x {
				p.voted = false
			}
			p.x = min(p.x, x)
		}

		p.step = Vote
		p.announce(p.voted)
		votes := 0
		timer.Reset(p.timeout)
	vote:
		for votes <= p.n/2 {
			select {
			case e := <-p.inbox:
				if e.Msg.Phase != p.phase || e.Msg.Step != p.step {
					continue
				}
				if e.Msg.Vote && e.Msg.X == p.x {
					votes++
				}
			case <-timer.C:
				break vote
			case <-ctx.Done():
				return
			}
		}
		if votes > p.n/2 && !p.decided {
			p.decided, p.decision = true, p.x
		}
	}
}

// send sends m to process to; a full inbox loses it.
func (p *Proc) send(to int, m Msg) {
	select {
	case p.peers[to] <- Envelope{From: p.id, Msg: m}:
	default:
	}
}

// broadcast sends m to every process.
func (p *Proc) broadcast(m Msg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for to := range p.peers {
		p.send(to, m)
	}
}

// announce sends the process's vote of the phase to the others; the
// process itself gets its value without the vote (a message per
// receiver, from a range over the peers table with its key).
func (q *Proc) announce(vote bool) {
	for to, ch := range q.peers {
		m := Msg{Phase: q.phase, Step: q.step, X: q.x}
		if vote && to != q.id {
			m.Vote = true
		}
		select {
		case ch <- Envelope{From: q.id, Msg: m}:
		default:
		}
	}
}
