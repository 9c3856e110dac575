package ctcons

import (
	"context"
	"time"
)

// Round is the round inside a phase.
type Round int

// The four rounds of a phase.
const (
	Estimate Round = iota // everyone -> coordinator: (est, ts)
	Propose               // coordinator -> everyone: the estimate with the highest ts
	Ack                   // everyone -> coordinator: ack (adopted) or nack (suspected)
	Decide                // coordinator -> everyone: decide, if a majority acked
)

// Msg is the message of every round.
//
//sync:msg Phase,Round
type Msg struct {
	Phase int
	Round Round
	From  int
	Est   int  // Estimate, Propose, Decide
	TS    int  // Estimate: the phase est was adopted in
	OK    bool // Ack: true for an ack, false for a nack
}

// Process is one participant of the consensus.
type Process struct {
	id      int
	n       int
	net     *Net
	timeout time.Duration

	est      int
	ts       int
	decided  bool
	decision int
}

// NewProcess returns process id of n on net.
func NewProcess(id, n int, net *Net, timeout time.Duration) *Process {
	return &Process{id: id, n: n, net: net, timeout: timeout}
}

// Decision returns the decided value, if any.
func (p *Process) Decision() (int, bool) { return p.decision, p.decided }

func (p *Process) coordOf(phase int) int { return (phase - 1) % p.n }

func (p *Process) deadline() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), p.timeout)
}

// Propose runs consensus on v for at most maxPhases phases.
func (p *Process) Propose(v, maxPhases int) {
	p.est, p.ts = v, 0
	majority := p.n/2 + 1
	var phase int
	var round Round
	//sync:tag phase,round
	for phase = 1; phase <= maxPhases; phase++ {
		round = Estimate
		coord := p.coordOf(phase)
		p.net.Send(coord, Msg{Phase: phase, Round: round, From: p.id, Est: p.est, TS: p.ts})

		proposal, proposed := 0, false
		if coord == p.id {
			ests := make(map[int]Msg)
			ctx, cancel := p.deadline()
			for len(ests) < majority {
				m, err := p.net.Recv(ctx, p.id)
				if err != nil {
					break
				}
				if m.Round != Estimate || m.Phase != phase {
					continue
				}
				ests[m.From] = m
			}
			cancel()
			if len(ests) >= majority {
				proposal, proposed = freshest(ests), true
				round = Propose
				p.net.Broadcast(Msg{Phase: phase, Round: round, From: p.id, Est: proposal})
			}
		}

		// Wait for the proposal of this phase's coordinator, or of a
		// later phase's if we fell behind.
		round = Propose
		var props []Msg
		ctx, cancel := p.deadline()
		for len(props) == 0 {
			m, err := p.net.Recv(ctx, p.id)
			if err != nil {
				break
			}
			if m.Round != Propose || m.Phase < phase || m.From != p.coordOf(m.Phase) {
				continue
			}
			props = append(props, m)
		}
		cancel()
		if len(props) > 0 && props[0].Phase > phase {
			phase = props[0].Phase
			coord = p.coordOf(phase)
		}

		round = Ack
		if len(props) > 0 {
			p.est, p.ts = props[0].Est, phase
			p.net.Send(coord, Msg{Phase: phase, Round: round, From: p.id, OK: true})
		} else {
			p.net.Send(coord, Msg{Phase: phase, Round: round, From: p.id}) // suspect the coordinator
		}

		acked := false
		if coord == p.id && proposed {
			acks, replies := 0, make(map[int]bool)
			ctx, cancel := p.deadline()
			for len(replies) < majority {
				m, err := p.net.Recv(ctx, p.id)
				if err != nil {
					break
				}
				if m.Round != Ack || m.Phase != phase {
					continue
				}
				replies[m.From] = m.OK
			}
			cancel()
			for _, ok := range replies {
				if ok {
					acks++
				}
			}
			acked = acks >= majority
		}

		round = Decide
		if acked {
			p.net.Broadcast(Msg{Phase: phase, Round: round, From: p.id, Est: proposal})
		}
		var dec []Msg
		ctx, cancel = p.deadline()
		for len(dec) == 0 {
			m, err := p.net.Recv(ctx, p.id)
			if err != nil {
				break
			}
			if m.Round != Decide || m.Phase != phase || m.From != coord {
				continue
			}
			dec = append(dec, m)
		}
		cancel()
		if len(dec) > 0 && !p.decided {
			p.decided, p.decision = true, dec[0].Est
		}
	}
}

// freshest returns the estimate with the highest timestamp, of the lowest
// sender among those.
func freshest(ests map[int]Msg) int {
	best := -1
	for q, m := range ests {
		if best < 0 || m.TS > ests[best].TS || m.TS == ests[best].TS && q < best {
			best = q
		}
	}
	return ests[best].Est
}
