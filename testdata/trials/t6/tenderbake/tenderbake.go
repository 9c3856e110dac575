package tenderbake

import (
	"fmt"
	"time"
)

// Step is the round's stage in a baker, in execution order.
type Step int

// The stages of a round.
const (
	StepPropose Step = iota
	StepPreattest
	StepAttest
)

// Kind is a message kind, as it appears on the wire.
type Kind uint8

// The kinds of consensus operations.
const (
	KindProposal       Kind = 10
	KindPreattestation Kind = 20
	KindAttestation    Kind = 21
)

// Cert is an attestation quorum deciding Payload at Level.
type Cert struct {
	Level     int
	Payload   string
	Attesters []int
}

// Msg is a consensus operation.
//
//sync:msg Level,Round,Step()
type Msg struct {
	Kind    Kind
	Level   int
	Round   int
	From    int
	Payload string
	// Proposal only: the round of the PQC the payload is re-proposed with
	// (-1 for a fresh payload), and the decision of the previous level.
	PQCRound int
	Prev     *Cert
}

// Step maps the message's kind onto the stage of the round it belongs to.
func (m Msg) Step() Step {
	switch m.Kind {
	case KindPreattestation:
		return StepPreattest
	case KindAttestation:
		return StepAttest
	}
	return StepPropose
}

// Gossip is the baker's outgoing network.
type Gossip interface {
	// Publish sends m to every baker, the sender included.
	//
	//sync:send
	Publish(m Msg)
}

// Clock gives round timers; tests may inject their own.
type Clock interface {
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// After implements Clock with time.After.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Config configures a baker.
type Config struct {
	ID, N         int
	Net           Gossip
	Clock         Clock
	MinRound      time.Duration // duration of round 0
	RoundIncrease time.Duration // added per round
	MaxRound      int           // Run gives up beyond this round of a level
}

// Baker is one participant.
type Baker struct {
	cfg Config

	level int
	round int
	step  Step

	locked        bool
	lockedRound   int
	lockedPayload string

	decided []Cert // decided[i] decides level i+1
}

// NewBaker returns a baker at round 0 of level 1.
func NewBaker(cfg Config) *Baker { return &Baker{cfg: cfg, level: 1} }

// Decided returns the decisions, one per level from level 1.
func (b *Baker) Decided() []Cert { return append([]Cert(nil), b.decided...) }

func (b *Baker) quorum() int { return 2*b.cfg.N/3 + 1 }

func (b *Baker) proposer(level, round int) int { return (level + round) % b.cfg.N }

func (b *Baker) roundDuration(round int) time.Duration {
	return b.cfg.MinRound + time.Duration(round)*b.cfg.RoundIncrease
}

// certified reports whether c is an attestation quorum for level.
func (b *Baker) certified(c *Cert, level int) bool {
	if c == nil || c.Level != level {
		return false
	}
	seen := map[int]bool{}
	for _, a := range c.Attesters {
		seen[a] = true
	}
	return len(seen) >= b.quorum()
}

// validProposal checks the author of a proposal and its previous level.
func (b *Baker) validProposal(m Msg) bool {
	return m.Kind == KindProposal && m.From == b.proposer(m.Level, m.Round) &&
		(m.Level == 1 || b.certified(m.Prev, m.Level-1))
}

func (b *Baker) decide(c Cert) {
	b.decided = append(b.decided, c)
	b.locked = false
}

// Run bakes until levels levels are decided, or a level goes beyond
// MaxRound rounds.
func (b *Baker) Run(inbox <-chan Msg, levels int) {
	net, clock := b.cfg.Net, b.cfg.Clock
	//sync:tag b.level,b.round,b.step
	for b.level <= levels && b.round <= b.cfg.MaxRound {
		b.step = StepPropose
		if b.proposer(b.level, b.round) == b.id() {
			net.Publish(b.proposal())
		}
		var props []Msg
		timeout := clock.After(b.roundDuration(b.round))
		for expired := false; len(props) == 0 && !expired; {
			select {
			case m := <-inbox:
				if !b.validProposal(m) || m.Level > b.level+1 {
					continue
				}
				if m.Level < b.level || m.Level == b.level && m.Round < b.round {
					continue // a proposal of a round we left
				}
				props = append(props, m)
			case <-timeout:
				expired = true
			}
		}
		if len(props) == 0 {
			b.round++
			continue
		}
		p := props[0]
		if p.Level > b.level {
			// The others decided our level: jump to theirs, then adopt
			// their decision of ours.
			b.level, b.round = p.Level, p.Round
			b.decide(*p.Prev)
		} else if p.Round > b.round {
			b.round = p.Round // the others moved to a later round
		}

		// Preattest.
		b.step = StepPreattest
		if !b.locked || p.Payload == b.lockedPayload || p.PQCRound > b.lockedRound {
			net.Publish(Msg{Kind: KindPreattestation, Level: b.level, Round: b.round, From: b.id(), Payload: p.Payload})
		}
		pre := map[int]bool{}
		timeout = clock.After(b.roundDuration(b.round))
		for expired := false; len(pre) < b.quorum() && !expired; {
			select {
			case m := <-inbox:
				if m.Kind != KindPreattestation || m.Level != b.level || m.Round != b.round || m.Payload != p.Payload {
					continue
				}
				pre[m.From] = true
			case <-timeout:
				expired = true
			}
		}
		if len(pre) < b.quorum() {
			b.round++
			continue
		}
		b.locked, b.lockedRound, b.lockedPayload = true, b.round, p.Payload

		// Attest.
		b.step = StepAttest
		net.Publish(Msg{Kind: KindAttestation, Level: b.level, Round: b.round, From: b.id(), Payload: p.Payload})
		att := map[int]bool{}
		timeout = clock.After(b.roundDuration(b.round))
		for expired := false; len(att) < b.quorum() && !expired; {
			select {
			case m := <-inbox:
				if m.Kind != KindAttestation || m.Level != b.level || m.Round != b.round || m.Payload != p.Payload {
					continue
				}
				att[m.From] = true
			case <-timeout:
				expired = true
			}
		}
		if len(att) < b.quorum() {
			b.round++
			continue
		}
		cert := Cert{Level: b.level, Payload: p.Payload}
		for a := range att {
			cert.Attesters = append(cert.Attesters, a)
		}
		b.decide(cert)
		b.level++
		b.round = 0
	}
}

func (b *Baker) id() int { return b.cfg.ID }

// proposal builds the proposal of the current (level, round).
func (b *Baker) proposal() Msg {
	m := Msg{Kind: KindProposal, Level: b.level, Round: b.round, From: b.id(),
		Payload: fmt.Sprintf("block(%d,%d)@%d", b.level, b.round, b.id()), PQCRound: -1}
	if b.locked {
		m.Payload, m.PQCRound = b.lockedPayload, b.lockedRound
	}
	if b.level > 1 {
		prev := b.decided[b.level-2]
		m.Prev = &prev
	}
	return m
}
