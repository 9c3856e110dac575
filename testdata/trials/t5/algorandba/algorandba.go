package algorandba

import (
	"errors"
	"fmt"
	"time"
)

// Step is the step of a period, in execution order.
type Step int

// The four steps of a period.
const (
	// Propose: the leader proposes a value.
	Propose Step = iota
	// Soft: every process soft-votes one value.
	Soft
	// Cert: a process that saw a soft quorum for v cert-votes v.
	Cert
	// Next: every process next-votes for the starting value of the next
	// period.
	Next
)

// Bottom is the value ⊥.
const Bottom = ""

// Vote is every message of BA*: a proposal (step Propose) or a vote.
//
//sync:msg Height,Period,Step
type Vote struct {
	Height uint64
	Period uint64
	Step   Step
	From   int
	Value  string
}

// Config configures a Process.
type Config struct {
	ID, N, F int
	Out      chan<- Vote // delivered to every process, the sender included
	Inbox    <-chan Vote
	Timeout  time.Duration
	// Input returns the value this process proposes at a height.
	Input func(height uint64) string
}

// Process is one participant.
type Process struct {
	id, n, f int
	//sync:peers
	out chan<- Vote
	//sync:inbox
	inbox   <-chan Vote
	timeout time.Duration
	input   func(height uint64) string
}

// ErrNoQuorum is returned by Run when a period ends without n-f next votes
// for one value: the process cannot safely move on.
var ErrNoQuorum = errors.New("algorandba: no quorum of next votes")

// maxNextRounds bounds how many times a process re-sends its next vote
// while it waits for a quorum.
const maxNextRounds = 3

// NewProcess returns a process configured by cfg.
func NewProcess(cfg Config) (*Process, error) {
	if cfg.N < 3*cfg.F+1 {
		return nil, fmt.Errorf("algorandba: n=%d < 3f+1 with f=%d", cfg.N, cfg.F)
	}
	return &Process{id: cfg.ID, n: cfg.N, f: cfg.F, out: cfg.Out, inbox: cfg.Inbox,
		timeout: cfg.Timeout, input: cfg.Input}, nil
}

func leaderOf(height, period uint64, n int) int { return int((height + period) % uint64(n)) }

// Run decides heights 0..heights-1 and returns the decided values.
func (p *Process) Run(heights uint64) ([]string, error) {
	quorum := p.n - p.f
	var decided []string
	var height, period uint64 = 0, 1
	step := Propose
	st := Bottom // starting value of the period

	//sync:tag height,period,step
	for height < heights {
		// Propose.
		step = Propose
		if leaderOf(height, period, p.n) == p.id {
			v := st
			if v == Bottom {
				v = p.input(height)
			}
			p.out <- Vote{Height: height, Period: period, Step: step, From: p.id, Value: v}
		}
		soft := st
		if soft == Bottom {
			props := p.collect(nil, height, period, step, 1)
			if m, ok := props[leaderOf(height, period, p.n)]; ok {
				soft = m.Value
			}
		}

		// Soft.
		step = Soft
		if soft != Bottom {
			p.out <- Vote{Height: height, Period: period, Step: step, From: p.id, Value: soft}
		}
		softs := p.collect(nil, height, period, step, quorum)
		certVal := Bottom
		if v, k := tally(softs); k >= quorum {
			certVal = v
		}

		// Cert.
		step = Cert
		if certVal != Bottom {
			p.out <- Vote{Height: height, Period: period, Step: step, From: p.id, Value: certVal}
		}
		certs := make(map[int]Vote) // cert votes of this period or a later one
		nexts := make(map[int]Vote) // next votes of this period: their senders left Cert
		timer := time.NewTimer(p.timeout)
	certWait:
		for !quorumIn(certs, quorum) && len(nexts) == 0 {
			select {
			case m := <-p.inbox:
				switch {
				case m.Height == height && m.Step == Cert && m.Period >= period:
					certs[m.From] = m
				case m.Height == height && m.Step == Next && m.Period == period:
					nexts[m.From] = m
				}
			case <-timer.C:
				break certWait
			}
		}
		timer.Stop()
		// Jump to the latest round the mailbox holds: a later period's
		// Cert step, or else this period's Next step.
		latest := period
		for _, m := range certs {
			latest = max(latest, m.Period)
		}
		if latest > period {
			period = latest
			certVal = Bottom // we did not cert-vote in that period
			clear(nexts)     // next votes of an older period
		} else if len(nexts) > 0 {
			step = Next
		}
		if v, k := tally(ofPeriod(certs, period)); step == Cert && k >= quorum {
			decided = append(decided, v)
			height++
			period, st = 1, Bottom
			continue
		}

		// Next: next-vote what we cert-voted, or ⊥, until a quorum agrees.
		step = Next
		for try := 0; ; try++ {
			if try == maxNextRounds {
				return decided, ErrNoQuorum
			}
			p.out <- Vote{Height: height, Period: period, Step: step, From: p.id, Value: certVal}
			nexts = p.collect(nexts, height, period, step, quorum)
			if _, k := tally(nexts); k >= quorum {
				break
			}
		}
		st, _ = tally(nexts)

		period++
	}
	return decided, nil
}

// collect receives the votes of (height, period, step), adding them to
// votes (a nil map starts empty), until need of them carry the same value or
// the step times out, and returns them by sender.
func (p *Process) collect(votes map[int]Vote, height, period uint64, step Step, need int) map[int]Vote {
	if votes == nil {
		votes = make(map[int]Vote)
	}
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	for {
		if _, k := tally(votes); k >= need {
			return votes
		}
		select {
		case m := <-p.inbox:
			if m.Height != height || m.Period != period || m.Step != step {
				continue // another step: drop it
			}
			votes[m.From] = m
		case <-timer.C:
			return votes
		}
	}
}

// tally returns the value carried by most votes (⊥ counts as a value) and
// how many carry it; ties go to the smaller value.
func tally(votes map[int]Vote) (string, int) {
	count := make(map[string]int)
	best, bestK := Bottom, 0
	for _, m := range votes {
		count[m.Value]++
	}
	for v, k := range count {
		if k > bestK || k == bestK && v < best {
			best, bestK = v, k
		}
	}
	return best, bestK
}

// ofPeriod returns the votes of one period.
func ofPeriod(votes map[int]Vote, period uint64) map[int]Vote {
	out := make(map[int]Vote)
	for q, m := range votes {
		if m.Period == period {
			out[q] = m
		}
	}
	return out
}

// quorumIn reports whether quorum votes of one period carry one value.
func quorumIn(votes map[int]Vote, quorum int) bool {
	periods := make(map[uint64]bool)
	for _, m := range votes {
		periods[m.Period] = true
	}
	for per := range periods {
		if v, k := tally(ofPeriod(votes, per)); v != Bottom && k >= quorum {
			return true
		}
	}
	return false
}
