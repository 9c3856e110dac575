package ctconsensus

// Process is one process of the Chandra-Toueg rotating-coordinator
// consensus algorithm for the eventually strong failure detector, with a
// majority of correct processes. The driver calls the handler of each
// delivered envelope's body type, and OnSuspect when the failure detector
// suspects the current coordinator (or the process waited too long).
//
//sync:tag round,phase
type Process struct {
	id, n int
	round int
	phase Phase
	net   Transport

	est Estimate

	// The coordinator's mailboxes for the current round, emptied by
	// enterRound.
	estimates []Envelope[Estimate]
	replies   map[int]bool

	// Decided is set once the process decided Decision.
	Decided  bool
	Decision string
}

// NewProcess returns process id of n with initial value v, in round 0.
func NewProcess(id, n int, net Transport, v string) *Process {
	p := &Process{id: id, n: n, net: net, round: -1, est: Estimate{Value: v, TS: -1}}
	p.enterRound(0)
	return p
}

func (p *Process) coord(r int) int { return r % p.n }

func (p *Process) majority() int { return p.n/2 + 1 }

// enterRound starts round r: the estimate goes to r's coordinator.
func (p *Process) enterRound(r int) {
	p.round, p.phase = r, PhaseEstimate
	p.estimates = nil
	p.replies = map[int]bool{}
	send(p.net, p.coord(r), Envelope[Estimate]{Round: p.round, Phase: PhaseEstimate, From: p.id, Body: p.est})
}

// OnEstimate collects estimates at the coordinator; from a majority it
// proposes the one adopted in the latest round.
//
//sync:handler
func (p *Process) OnEstimate(m Envelope[Estimate]) {
	if m.Round != p.round || p.phase != PhaseEstimate || p.coord(p.round) != p.id {
		return
	}
	p.estimates = append(p.estimates, m)
	if len(p.estimates) < p.majority() {
		return
	}
	best := p.estimates[0].Body
	for _, e := range p.estimates[1:] {
		if e.Body.TS > best.TS {
			best = e.Body
		}
	}
	p.phase = PhasePropose
	p.estimates = nil
	for to := 0; to < p.n; to++ {
		send(p.net, to, Envelope[Proposal]{Round: p.round, Phase: PhasePropose, From: p.id, Body: Proposal{Value: best.Value}})
	}
}

// OnPropose adopts the coordinator's proposal and acks it.
//
//sync:handler
func (p *Process) OnPropose(m Envelope[Proposal]) {
	if m.Round < p.round || (m.Round == p.round && p.phase > PhasePropose) || m.From != p.coord(m.Round) {
		return
	}
	if m.Round > p.round {
		p.enterRound(m.Round)
	}
	p.est = Estimate{Value: m.Body.Value, TS: p.round}
	p.phase = PhaseReply
	send(p.net, p.coord(p.round), Envelope[Reply]{Round: p.round, Phase: PhaseReply, From: p.id, Body: Reply{Ack: true}})
}

// OnReply counts replies at the coordinator: a majority of acks decides,
// a nack among a majority of replies gives the round up.
//
//sync:handler
func (p *Process) OnReply(m Envelope[Reply]) {
	if m.Round != p.round || p.phase != PhaseReply || p.coord(p.round) != p.id {
		return
	}
	p.replies[m.From] = m.Body.Ack
	if len(p.replies) < p.majority() {
		return
	}
	for _, ack := range p.replies {
		if !ack {
			p.enterRound(p.round + 1)
			return
		}
	}
	p.phase = PhaseDecide
	p.replies = map[int]bool{}
	for to := 0; to < p.n; to++ {
		send(p.net, to, Envelope[Decide]{Round: p.round, Phase: PhaseDecide, From: p.id, Body: Decide{Value: p.est.Value}})
	}
}

// OnDecide decides the coordinator's value.
//
//sync:handler
func (p *Process) OnDecide(m Envelope[Decide]) {
	if m.Round < p.round || m.From != p.coord(m.Round) {
		return
	}
	if m.Round > p.round || p.phase < PhaseDecide {
		p.round, p.phase = m.Round, PhaseDecide
		p.estimates = nil
		p.replies = map[int]bool{}
	}
	p.est = Estimate{Value: m.Body.Value, TS: p.round}
	if !p.Decided {
		p.Decided, p.Decision = true, m.Body.Value
	}
}

// OnSuspect is called when the process gives up on the coordinator of its
// round: before replying it nacks, and in any case it moves to the next
// round.
//
//sync:handler
func (p *Process) OnSuspect() {
	if p.phase < PhaseReply {
		p.phase = PhaseReply
		send(p.net, p.coord(p.round), Envelope[Reply]{Round: p.round, Phase: PhaseReply, From: p.id, Body: Reply{Ack: false}})
	}
	p.enterRound(p.round + 1)
}
