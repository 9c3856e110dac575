package commitadopt

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
)

// Step is the round part of the tag (phase, step).
type Step int

// The two rounds of a commit-adopt phase.
const (
	ProposeStep Step = iota
	CheckStep
)

// Proposal is a process's value at the start of a phase.
//
//sync:msg Phase,ProposeStep
type Proposal struct {
	Phase int
	From  int
	Value string
}

// Check reports the value a process saw and whether every proposal it got
// carried that value (a commit candidate).
//
//sync:msg Phase,CheckStep
type Check struct {
	Phase     int
	From      int
	Value     string
	Unanimous bool
}

// quorum is a mailbox holding at most one message per sender.
type quorum[M any] struct {
	need int
	from map[int]M
}

func newQuorum[M any](need int) *quorum[M] {
	return &quorum[M]{need: need, from: make(map[int]M)}
}

func (q *quorum[M]) add(sender int, m M) { q.from[sender] = m }

func (q *quorum[M]) full() bool { return len(q.from) >= q.need }

// all returns the messages, ordered by sender.
func (q *quorum[M]) all() []M {
	senders := make([]int, 0, len(q.from))
	for s := range q.from {
		senders = append(senders, s)
	}
	slices.Sort(senders)
	out := make([]M, 0, len(senders))
	for _, s := range senders {
		out = append(out, q.from[s])
	}
	return out
}

// broadcast sends m to every peer; a full inbox loses the copy.
func broadcast[M any](peers []chan<- M, m M) {
	for _, ch := range peers {
		select {
		case ch <- m:
		default:
		}
	}
}

// Process is one participant; n > 2f, up to f crash.
type Process struct {
	id, n, f int

	//sync:peers
	proposalPeers []chan<- Proposal
	//sync:peers
	checkPeers []chan<- Check
	//sync:inbox
	proposals <-chan Proposal
	//sync:inbox
	checks <-chan Check
}

// NewProcess returns process id of n, tolerating f crashes. It broadcasts
// on proposalPeers and checkPeers (one channel per process, itself
// included) and receives on proposals and checks.
func NewProcess(id, f int, proposalPeers []chan<- Proposal, checkPeers []chan<- Check, proposals <-chan Proposal, checks <-chan Check) *Process {
	return &Process{id: id, n: len(proposalPeers), f: f,
		proposalPeers: proposalPeers, checkPeers: checkPeers,
		proposals: proposals, checks: checks}
}

// Consensus runs phases of commit-adopt until the process commits, sends
// the messages of one more phase to carry the others along, and returns the
// committed value and the phase it committed in.
func (p *Process) Consensus(ctx context.Context, v string) (string, int, error) {
	committed, at := "", 0
	phase, step := 0, ProposeStep
	//sync:tag phase,step
	for {
		phase++
		step = ProposeStep
		broadcast(p.proposalPeers, Proposal{Phase: phase, From: p.id, Value: v})
		if committed != "" {
			// Everybody who finished the last phase adopted v, so every
			// proposal of this one is v: vouch for it without waiting,
			// which carries the others along, and stop.
			step = CheckStep
			broadcast(p.checkPeers, Check{Phase: phase, From: p.id, Value: v, Unanimous: true})
			break
		}

		props := newQuorum[Proposal](p.n - p.f)
		for !props.full() {
			select {
			case m := <-p.proposals:
				if m.Phase != phase {
					continue
				}
				props.add(m.From, m)
			case <-ctx.Done():
				return "", 0, fmt.Errorf("phase %d, step %d: %w", phase, step, ctx.Err())
			}
		}
		unanimous := true
		for _, m := range props.all() {
			unanimous = unanimous && m.Value == v
		}

		step = CheckStep
		broadcast(p.checkPeers, Check{Phase: phase, From: p.id, Value: v, Unanimous: unanimous})
		checks := newQuorum[Check](p.n - p.f)
		for !checks.full() {
			select {
			case m := <-p.checks:
				if m.Phase != phase {
					continue
				}
				checks.add(m.From, m)
			case <-ctx.Done():
				return "", 0, fmt.Errorf("phase %d, step %d: %w", phase, step, ctx.Err())
			}
		}
		grade, value := adopt(checks.all())
		switch grade {
		case commit:
			committed, at = value, phase
			v = value
		case adoptValue:
			v = value
		default:
			// Nobody saw a unanimous phase: the conciliator proposes the
			// phase's common coin between the values seen.
			v = conciliate(phase, checks.all())
		}
	}
	return committed, at, nil
}

type grade int

const (
	none grade = iota
	adoptValue
	commit
)

// adopt grades a quorum of checks: commit v if every check is a unanimous
// v, adopt v if one is, none otherwise.
func adopt(checks []Check) (grade, string) {
	g, v := commit, ""
	for _, c := range checks {
		if !c.Unanimous {
			g = min(g, adoptValue)
			continue
		}
		v = c.Value
	}
	if v == "" {
		return none, ""
	}
	return g, v
}

// conciliate picks one of the values of the checks by the phase's common
// coin.
func conciliate(phase int, checks []Check) string {
	values := make([]string, 0, len(checks))
	for _, c := range checks {
		values = append(values, c.Value)
	}
	slices.Sort(values)
	values = slices.Compact(values)
	sum := sha256.Sum256(fmt.Appendf(nil, "coin/%d", phase))
	return values[int(sum[0])%len(values)]
}
