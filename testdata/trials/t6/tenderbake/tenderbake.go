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

// Clock arms round timers; tests may inject their own.
type Clock interface {
	AfterFunc(d time.Duration, f func())
}

// RealClock is the wall clock.
type RealClock struct{}

// AfterFunc implements Clock with time.AfterFunc.
func (RealClock) AfterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }

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

	// What was received in the current (level, round): emptied by enter.
	pre map[int]string // preattestations: baker -> payload
	att map[int]string // attestations: baker -> payload

	locked        bool
	lockedRound   int
	lockedPayload string

	decided []Cert // decided[i] decides level i+1
}

// timeout is the expiry of the timer armed for a round.
type timeout struct{ level, round int }

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

// enter moves to the Propose step of (level, round) and empties the
// mailboxes of the round left behind.
func (b *Baker) enter(level, round int) {
	b.level, b.round, b.step = level, round, StepPropose
	b.pre = map[int]string{}
	b.att = map[int]string{}
}

// count returns how many of votes are for payload.
func count(votes map[int]string, payload string) int {
	c := 0
	for _, p := range votes {
		if p == payload {
			c++
		}
	}
	return c
}

// Run bakes until levels levels are decided, or a level goes beyond
// MaxRound rounds. It is an event loop: each iteration handles one message
// or one round timer.
func (b *Baker) Run(inbox <-chan Msg, levels int) {
	net := b.cfg.Net
	timeouts := make(chan timeout, 64)
	arm := func() {
		t := timeout{b.level, b.round}
		b.cfg.Clock.AfterFunc(b.roundDuration(t.round), func() {
			select {
			case timeouts <- t:
			default: // the loop has returned
			}
		})
	}
	b.enter(b.level, 0)
	entered := true // the current round was just entered

	//sync:tag b.level,b.round,b.step
	for b.level <= levels && b.round <= b.cfg.MaxRound {
		if entered {
			// A new round: arm its timer, and propose if it is ours.
			entered = false
			arm()
			if b.proposer(b.level, b.round) == b.id() {
				net.Publish(b.proposal())
			}
		}
		select {
		case t := <-timeouts:
			if t.level != b.level || t.round != b.round {
				continue // the timer of a round we left
			}
			b.enter(b.level, b.round+1)
			entered = true

		case m := <-inbox:
			switch m.Kind {
			case KindProposal:
				if !b.validProposal(m) || m.Level > b.level+1 {
					continue
				}
				if m.Level < b.level || m.Level == b.level && (m.Round < b.round || m.Round == b.round && b.step > StepPropose) {
					continue // a round or step we left
				}
				newLevel := m.Level > b.level
				if newLevel || m.Round > b.round {
					// A later level or round: the others are there. Jump.
					b.enter(m.Level, m.Round)
					arm() // no proposal to make: the round's proposer is the sender
				}
				if newLevel {
					b.decide(*m.Prev) // the previous level, decided without us
				}
				b.step = StepPreattest
				if !b.locked || m.Payload == b.lockedPayload || m.PQCRound > b.lockedRound {
					net.Publish(Msg{Kind: KindPreattestation, Level: b.level, Round: b.round, From: b.id(), Payload: m.Payload})
				}

			case KindPreattestation:
				if m.Level != b.level || m.Round != b.round || b.step > StepPreattest {
					continue
				}
				b.step = StepPreattest // we may not have seen the proposal yet
				b.pre[m.From] = m.Payload
				if count(b.pre, m.Payload) < b.quorum() {
					continue
				}
				// A PQC: lock on the payload and attest it.
				b.locked, b.lockedRound, b.lockedPayload = true, b.round, m.Payload
				b.step = StepAttest
				net.Publish(Msg{Kind: KindAttestation, Level: b.level, Round: b.round, From: b.id(), Payload: m.Payload})

			case KindAttestation:
				if m.Level != b.level || m.Round != b.round {
					continue
				}
				b.step = StepAttest
				b.att[m.From] = m.Payload
				if count(b.att, m.Payload) < b.quorum() {
					continue
				}
				cert := Cert{Level: b.level, Payload: m.Payload}
				for a, p := range b.att {
					if p == m.Payload {
						cert.Attesters = append(cert.Attesters, a)
					}
				}
				b.decide(cert)
				b.enter(b.level+1, 0)
				entered = true
			}
		}
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
