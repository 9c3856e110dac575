package phaseking

import "time"

// Default is the value adopted from a king that stayed silent.
const Default = 0

// Process is one process of the Phase King algorithm for binary Byzantine
// agreement with n > 4f. Rounds are closed either when every process was
// heard from or on a round time-out, as in a synchronous system built
// from timers.
//
//sync:tag phase,round
type Process struct {
	id, n, f int
	phase    int
	round    Round
	out      Outbox

	pref      int
	values    map[int]int // the Exchange mailbox: preference by sender
	maj, mult int

	// Decided is set after phase f, with Decision.
	Decided  bool
	Decision int
}

// NewProcess returns process id of n, tolerating f Byzantine processes,
// with initial preference v (0 or 1).
func NewProcess(id, n, f int, out Outbox, v int) *Process {
	return &Process{id: id, n: n, f: f, out: out, pref: v, values: map[int]int{}}
}

func (p *Process) king() int { return p.phase % p.n }

// Start opens the Exchange round of phase 0.
//
//sync:handler
func (p *Process) Start() {
	p.out.Broadcast(Msg{Phase: p.phase, Round: Exchange, From: p.id, Value: p.pref})
}

// OnMessage handles a message of the current round; messages of other
// rounds are dropped: a process that is late misses them, as it would in
// a synchronous round it overslept.
//
//sync:handler
func (p *Process) OnMessage(m Msg) {
	if p.Decided || m.Value < 0 || m.Value > 1 {
		return
	}
	switch m.Round {
	case Exchange:
		if m.Phase != p.phase || p.round != Exchange {
			return
		}
		if _, dup := p.values[m.From]; dup {
			return
		}
		p.values[m.From] = m.Value
		if len(p.values) == p.n {
			p.endExchange()
		}
	case King:
		if m.Phase != p.phase || p.round != King || m.From != p.king() {
			return
		}
		p.endKing(m.Value)
	}
}

// OnRoundTimeout closes the current round with what was received.
//
//sync:handler
func (p *Process) OnRoundTimeout() {
	if p.Decided {
		return
	}
	if p.round == Exchange {
		p.endExchange()
		return
	}
	p.endKing(Default)
}

// endExchange computes the majority preference and its multiplicity and
// moves to the King round, whose king announces its majority.
func (p *Process) endExchange() {
	count := [2]int{}
	for _, v := range p.values {
		count[v]++
	}
	p.maj, p.mult = 0, count[0]
	if count[1] > count[0] {
		p.maj, p.mult = 1, count[1]
	}
	p.round = King
	p.values = map[int]int{}
	if p.king() == p.id {
		p.out.Broadcast(Msg{Phase: p.phase, Round: King, From: p.id, Value: p.maj})
	}
}

// endKing keeps the majority if it was overwhelming and takes the king's
// value otherwise, then starts the next phase or decides after phase f.
func (p *Process) endKing(kingValue int) {
	if p.mult > p.n/2+p.f {
		p.pref = p.maj
	} else {
		p.pref = kingValue
	}
	p.phase++
	p.round = Exchange
	if p.phase > p.f {
		p.Decided, p.Decision = true, p.pref
		return
	}
	p.out.Broadcast(Msg{Phase: p.phase, Round: Exchange, From: p.id, Value: p.pref})
}

// Run drives the process from the messages of in and a round timer until
// it decides, and returns the decision.
func (p *Process) Run(in <-chan Msg, roundTimeout time.Duration) int {
	timer := time.NewTimer(roundTimeout)
	defer timer.Stop()
	p.Start()
	for !p.Decided {
		phase, round := p.phase, p.round
		select {
		case m := <-in:
			p.OnMessage(m)
		case <-timer.C:
			p.OnRoundTimeout()
		}
		if p.phase != phase || p.round != round {
			timer.Reset(roundTimeout)
		}
	}
	return p.Decision
}
