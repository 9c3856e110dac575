// Package benor is Ben-Or's randomized binary consensus (crash faults,
// n > 2f), written asynchronously over transport.Net.
//
// Every process runs the same loop (Proc.Run). One iteration is one Ben-Or
// round r, the phase of the synchronization tag, made of two steps:
//
//	Report    broadcast (R, r, x); with n−f reports of round r, propose the
//	          value reported by more than n/2 of all processes, if any, and
//	          "?" otherwise
//	Proposal  broadcast (P, r, v or ?); with n−f proposals of round r,
//	          decide v if at least f+1 of them propose v, adopt v if one
//	          does, and flip a coin otherwise
//
// Ben-Or needs n−f messages of the same round in every step (the network
// assumption of the sequentialization paper): a process that does not get
// them before its timeout gives up and Run returns an error, rather than
// moving on with a stale estimate, which could break agreement.
//
// The code is communication-closed: a step only ever stores messages of
// exactly its own round and step, and messages of other rounds or steps are
// dropped, which the round-based view treats as message loss.
package benor

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"transport"
)

// Step is the round part of the synchronization tag: the step of a process
// inside its current Ben-Or round, in execution order.
type Step int

// The two steps of a Ben-Or round.
const (
	// StepReport: every process reports its estimate.
	StepReport Step = iota
	// StepProposal: every process proposes the value a majority reported,
	// or Unknown.
	StepProposal
)

// Unknown is the "?" of Ben-Or: no value is proposed.
const Unknown = -1

// Report is the (R, r, x) message of the first step.
//
//sync:msg Round,StepReport
type Report struct {
	Round int
	Value int // the sender's estimate, 0 or 1
}

// Proposal is the (P, r, v) message of the second step.
//
//sync:msg Round,StepProposal
type Proposal struct {
	Round int
	Value int // 0, 1 or Unknown
}

// ErrStalled is returned by Run when fewer than n−f processes answered in a
// step before the timeout.
var ErrStalled = errors.New("benor: no quorum")

// Proc is one Ben-Or process.
type Proc struct {
	id      int
	n       int
	f       int // tolerated crashes: the largest f with n > 2f
	net     transport.Net
	timeout time.Duration
	rng     *rand.Rand

	// Synchronization variables: the tag (round, step) of the loop in Run.
	round int
	step  Step

	// Algorithm variables.
	x         int // current estimate, 0 or 1
	decided   bool
	decision  int
	decidedIn int // the round of the decision
}

// New returns process id with initial value x (0 or 1), in round 0.
func New(id int, net transport.Net, x int, timeout time.Duration, seed uint64) *Proc {
	n := net.N()
	return &Proc{
		id:      id,
		n:       n,
		f:       (n - 1) / 2,
		net:     net,
		timeout: timeout,
		rng:     rand.New(rand.NewPCG(seed, uint64(id))),
		x:       x,
	}
}

// flip is the local coin of Ben-Or.
func (p *Proc) flip() int { return p.rng.IntN(2) }

// Decision returns the decided value, if any, and the round of the decision.
func (p *Proc) Decision() (v, round int, ok bool) {
	return p.decision, p.decidedIn, p.decided
}

// Run executes rounds until maxRounds, or until ctx is done. A process that
// decided keeps taking part, so that the others can decide too.
func (p *Proc) Run(ctx context.Context, maxRounds int) error {
	quorum := p.n - p.f

	//sync:tag p.round,p.step
	for p.round < maxRounds && ctx.Err() == nil {
		p.round++
		p.step = StepReport

		// Step Report: broadcast our estimate, collect n−f reports of
		// this round.
		p.net.Broadcast(Report{Round: p.round, Value: p.x})
		reports := make(map[int]int) // sender -> reported value
		deadline := time.Now().Add(p.timeout)
		for len(reports) < quorum {
			m, from, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			switch m := m.(type) {
			case Report:
				if m.Round != p.round {
					continue // a report of another round: drop it
				}
				reports[from] = m.Value
			case Proposal:
				// A process already in the proposal step; we need
				// reports now, so this is lost for us.
			}
		}
		if len(reports) < quorum {
			return fmt.Errorf("round %d, report step: %d of %d reports: %w", p.round, len(reports), quorum, ErrStalled)
		}

		// Step Proposal: propose the value a majority of all processes
		// reported, if any.
		p.step = StepProposal
		p.net.Broadcast(Proposal{Round: p.round, Value: majorityValue(reports, p.n)})
		proposals := make(map[int]int) // sender -> proposed value
		deadline = time.Now().Add(p.timeout)
		for len(proposals) < quorum {
			m, from, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			if prop, isProp := m.(Proposal); isProp && prop.Round == p.round {
				proposals[from] = prop.Value
			}
		}
		if len(proposals) < quorum {
			return fmt.Errorf("round %d, proposal step: %d of %d proposals: %w", p.round, len(proposals), quorum, ErrStalled)
		}

		// Update: decide on f+1 proposals of v, adopt v on one, flip
		// otherwise. At most one value other than Unknown is proposed in a
		// round, since proposing it takes more than n/2 reports.
		v, support := proposed(proposals)
		switch {
		case support >= p.f+1:
			p.x = v
			if !p.decided {
				p.decided, p.decision, p.decidedIn = true, v, p.round
			}
		case support >= 1:
			p.x = v
		default:
			p.x = p.flip()
		}
	}
	return ctx.Err()
}

// majorityValue returns the value reported by more than n/2 processes, or
// Unknown.
func majorityValue(reports map[int]int, n int) int {
	var count [2]int
	for _, v := range reports {
		if v == 0 || v == 1 {
			count[v]++
		}
	}
	for v, c := range count {
		if 2*c > n {
			return v
		}
	}
	return Unknown
}

// proposed returns the value other than Unknown in a proposal mailbox and
// the number of processes that proposed it; support is 0 if all proposed
// Unknown.
func proposed(proposals map[int]int) (v, support int) {
	v = Unknown
	for _, w := range proposals {
		if w != Unknown {
			v = w
			support++
		}
	}
	return v, support
}
