// Package twophase is two-phase commit with a fixed coordinator, over typed
// Go channels.
//
// One iteration of Proc.Run commits (or aborts) one transaction, numbered by
// the iteration: the transaction number is the phase of the
// synchronization tag and the rounds are Prepare, Vote (the first phase of
// the protocol) and Decide, Ack (the second). The coordinator aborts a
// transaction that misses a vote (presumed abort); a participant that voted
// yes and misses the decision records the transaction as in doubt, for the
// recovery protocol, which is not part of this package.
package twophase

import (
	"context"
	"time"
)

// Config configures a Proc.
type Config struct {
	ID          int
	Coordinator int
	Inboxes     []*Inbox // the inboxes of all processes, by id

	// Workload returns the writes of transaction txn (coordinator only).
	Workload func(txn int) []Op
	// Validate reports whether the participant can commit ops: locks
	// available, constraints satisfied (participants only).
	Validate func(ops []Op) bool

	// Timeout bounds how long a process waits for votes, a decision or
	// acknowledgements. Idle bounds how long a participant waits for the
	// next transaction; it should be long, since a participant that gives
	// up skips a transaction number and only catches up when the
	// coordinator's next Prepare arrives.
	Timeout, Idle time.Duration
}

// Proc is the coordinator or a participant.
type Proc struct {
	id           int
	coord        int
	participants []int
	in           *Inbox   //sync:inbox
	peers        []*Inbox //sync:peers // by process id
	workload     func(txn int) []Op
	validate     func(ops []Op) bool
	timeout      time.Duration
	idle         time.Duration

	// The synchronization tag (txn, step).
	txn  int
	step Step

	// Participant state.
	staged  []Op // the writes of the current transaction
	yes     bool // our vote on it
	store   map[string]string
	inDoubt []int // transactions we voted yes on and never heard the outcome of

	// Coordinator state.
	commit  bool  // the decision on the current transaction
	unacked []int // decided transactions not acknowledged by every participant

	outcomes map[int]bool // txn -> committed, for every transaction whose outcome we know
}

// New returns a process before its first transaction.
func New(cfg Config) *Proc {
	p := &Proc{
		id:       cfg.ID,
		coord:    cfg.Coordinator,
		in:       cfg.Inboxes[cfg.ID],
		peers:    cfg.Inboxes,
		workload: cfg.Workload,
		validate: cfg.Validate,
		timeout:  cfg.Timeout,
		idle:     cfg.Idle,
		store:    make(map[string]string),
		outcomes: make(map[int]bool),
	}
	for q := range cfg.Inboxes {
		if q != cfg.Coordinator {
			p.participants = append(p.participants, q)
		}
	}
	return p
}

func (p *Proc) coordinating() bool { return p.id == p.coord }

// Run commits transactions until ctx is done.
func (p *Proc) Run(ctx context.Context) {
	//sync:tag p.txn,p.step
	for ctx.Err() == nil {
		p.txn++
		p.step = Prepare

		// Phase one: rounds Prepare and Vote.
		if p.coordinating() {
			prep := PrepareMsg{Txn: p.txn, Ops: p.workload(p.txn)}
			for _, q := range p.participants {
				select {
				case p.peers[q].Prepares <- prep:
				default: // q's inbox is full: q will not vote, and we abort
				}
			}

			p.step = Vote
			votes := make(map[int]Reply)
			deadline := time.After(p.timeout)
		waitVotes:
			for len(votes) < len(p.participants) {
				select {
				case r := <-p.in.Replies:
					if r.Txn != p.txn || r.Step != p.step {
						continue // a late reply of an earlier transaction or round
					}
					votes[r.From] = r
				case <-deadline:
					break waitVotes
				}
			}
			// Presumed abort: a missing vote counts as a no.
			p.commit = len(votes) == len(p.participants) && unanimous(votes)
			p.outcomes[p.txn] = p.commit
		} else {
			var prepares []PrepareMsg
			idle := time.After(p.idle)
		waitPrepare:
			for len(prepares) == 0 {
				select {
				case m := <-p.in.Prepares:
					if m.Txn < p.txn {
						continue // a transaction we gave up waiting for
					}
					prepares = append(prepares, m)
				case <-idle:
					break waitPrepare
				case <-ctx.Done():
					break waitPrepare
				}
			}
			if len(prepares) == 0 {
				continue // no transaction under this number
			}
			// The coordinator may be ahead of us: catch up.
			p.txn = max(p.txn, prepares[0].Txn)
			p.staged = prepares[0].Ops
			p.yes = p.validate(p.staged)

			p.step = Vote
			vote := Reply{Txn: p.txn, Step: p.step, From: p.id, Yes: p.yes}
			select {
			case p.peers[p.coord].Replies <- vote:
			default: // the coordinator's inbox is full: it counts us as a no
			}
		}

		// Phase two: rounds Decide and Ack.
		p.step = Decide
		if p.coordinating() {
			d := Decision{Txn: p.txn, Commit: p.commit}
			for _, q := range p.participants {
				select {
				case p.peers[q].Decisions <- d:
				default:
				}
			}

			p.step = Ack
			acks := make(map[int]Reply)
			deadline := time.After(p.timeout)
		waitAcks:
			for len(acks) < len(p.participants) {
				select {
				case r := <-p.in.Replies:
					if !p.current(r) {
						continue
					}
					acks[r.From] = r
				case <-deadline:
					break waitAcks
				}
			}
			if len(acks) < len(p.participants) {
				// Some participant may not know the outcome: recovery
				// must resend the decision.
				p.unacked = append(p.unacked, p.txn)
			}
		} else {
			var decisions []Decision
			deadline := time.After(p.timeout)
		waitDecision:
			for len(decisions) == 0 {
				select {
				case d := <-p.in.Decisions:
					if d.Txn != p.txn {
						continue
					}
					decisions = append(decisions, d)
				case <-deadline:
					break waitDecision
				}
			}
			if len(decisions) == 0 {
				if p.yes {
					// We promised to commit and may not abort alone.
					p.inDoubt = append(p.inDoubt, p.txn)
				}
				continue
			}
			if decisions[0].Commit {
				p.apply(p.staged)
			}
			p.outcomes[p.txn] = decisions[0].Commit

			p.step = Ack
			ack := Reply{Txn: p.txn, Step: p.step, From: p.id}
			select {
			case p.peers[p.coord].Replies <- ack:
			default:
			}
		}
	}
}

// current reports whether r belongs to the current transaction and round.
func (p *Proc) current(r Reply) bool {
	return r.Txn == p.txn && r.Step == p.step
}

// unanimous reports whether every vote of a mailbox is a yes.
func unanimous(votes map[int]Reply) bool {
	for _, v := range votes {
		if !v.Yes {
			return false
		}
	}
	return true
}

// apply performs the writes of a committed transaction.
func (p *Proc) apply(ops []Op) {
	for _, op := range ops {
		p.store[op.Key] = op.Value
	}
}

// Outcome reports whether transaction txn committed, if this process knows.
func (p *Proc) Outcome(txn int) (committed, known bool) {
	committed, known = p.outcomes[txn]
	return committed, known
}

// InDoubt returns the transactions this participant voted yes on and never
// learnt the outcome of.
func (p *Proc) InDoubt() []int { return append([]int(nil), p.inDoubt...) }
