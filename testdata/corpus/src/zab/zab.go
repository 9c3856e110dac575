// Package zab is the discovery loop of ZooKeeper's atomic broadcast as given
// in Fig. 4 ("Asynchronous Zab") of Drăgoi and Widder, "Reducing asynchrony
// to synchronized rounds", ported to Go over transport.Net.
//
// One iteration of Proc.Run is one attempt to establish a leader, in a fresh
// epoch, through the rounds CurrE, NewE, AckE and NewL. A process that waits
// too long in a round retries in the next iteration (Fig. 4's retry). The
// broadcast loop that an established leader runs afterwards (the inner loop
// of Fig. 4) is not part of this package.
package zab

import (
	"context"
	"maps"
	"slices"
	"time"

	"transport"
)

// Config configures a Proc.
type Config struct {
	ID  int
	Net transport.Net

	// Oracle is the leader oracle of Fig. 4, line 3: the process this one
	// believes leads the attempt started in the given epoch. Oracles of
	// different processes may disagree.
	Oracle func(epoch int) int

	// History is the initial log of the replica.
	History []string

	// Timeout bounds how long a process waits in one round. A leader
	// waits twice as long for CURRENTEPOCH messages, so that followers
	// that are behind time out, advance, and catch up with it.
	Timeout time.Duration
}

// View records a leader's history adopted in round NewL.
type View struct {
	Epoch   int
	Leader  int
	History []string
}

// Proc is one replica running the discovery loop.
type Proc struct {
	id      int
	n       int
	net     transport.Net
	oracle  func(epoch int) int
	timeout time.Duration

	// The synchronization tag (epoch, lab).
	epoch int   // Fig. 4's p
	lab   Label // Fig. 4's lab

	// Algorithm variables.
	leader   int      // the leader of the current attempt
	accepted int      // epoch of the last NEWLEADER adopted (Fig. 4's a)
	history  []string // the replica's log (Fig. 4's h)

	views []View // the NEWLEADER histories adopted, in order
}

// New returns a process in epoch 0.
func New(cfg Config) *Proc {
	return &Proc{
		id:      cfg.ID,
		n:       cfg.Net.N(),
		net:     cfg.Net,
		oracle:  cfg.Oracle,
		timeout: cfg.Timeout,
		history: slices.Clone(cfg.History),
	}
}

// Run runs discovery attempts until ctx is done.
func (p *Proc) Run(ctx context.Context) {
	majority := p.n/2 + 1
	var deadline time.Time
	var quorum []int // Fig. 4's Q, on the leader

	//sync:tag p.epoch,p.lab
	for ctx.Err() == nil {
		// A new attempt starts in a new epoch: Fig. 4 does not say so, but
		// going back to Curr_E in the same epoch after a retry in a later
		// round would move the process back in the execution.
		p.epoch++
		// Lines 3-5: ask the oracle for the leader, enter round Curr_E
		// and send the leader our epoch.
		p.leader = p.oracle(p.epoch)
		p.lab = CurrE
		p.net.Send(p.leader, CurrentEpoch{Epoch: p.epoch})

		if p.leader == p.id {
			// Lines 6-9: collect the epochs of a majority. Followers that
			// already moved to a later epoch are counted too.
			mbox := make(map[int]CurrentEpoch)
			deadline = time.Now().Add(2 * p.timeout)
			for len(mbox) < majority {
				raw, from, ok := p.net.Recv(deadline)
				if !ok {
					break // retry
				}
				switch m := raw.(type) {
				case CurrentEpoch:
					if m.Epoch < p.epoch {
						continue // sent in an attempt we have left
					}
					mbox[from] = m
				default:
					// a late message of another round: drop it
				}
			}
			// Catch up with the latest epoch we heard of, quorum or not.
			for _, m := range mbox {
				if m.Epoch > p.epoch {
					p.epoch = m.Epoch
				}
			}
			if len(mbox) < majority {
				continue // line 10
			}
			quorum = senders(mbox) // line 11
			p.epoch++              // line 12: max{m.1 | m ∈ mbox} + 1
			p.lab = NewE           // line 13
			ne := NewEpoch{Epoch: p.epoch}
			for _, q := range quorum {
				p.net.Send(q, ne) // line 14
			}
		}

		// Round NewE (lines 16-19): the NEWEPOCH of our leader, for our
		// epoch or a later one. The leader gets its own.
		p.lab = NewE
		var newEpochs []NewEpoch
		deadline = time.Now().Add(p.timeout)
		for len(newEpochs) == 0 {
			raw, from, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			switch m := raw.(type) {
			case NewEpoch:
				if from == p.leader && m.Epoch >= p.epoch {
					newEpochs = append(newEpochs, m)
				}
			}
		}
		if len(newEpochs) == 0 {
			continue // line 18
		}
		p.epoch = newEpochs[0].Epoch // line 19: adopt the leader's epoch

		// Round AckE (lines 20-30).
		p.lab = AckE
		p.net.Send(p.leader, p.ackEpoch()) // line 21

		if p.leader == p.id {
			acks := make(map[int]AckEpoch)
			deadline = time.Now().Add(p.timeout)
			for len(acks) < majority {
				raw, from, ok := p.net.Recv(deadline)
				if !ok {
					break
				}
				switch m := raw.(type) {
				case AckEpoch:
					if m.Epoch != p.epoch || !slices.Contains(quorum, from) {
						continue
					}
					acks[from] = m // line 24
				}
			}
			if len(acks) < majority {
				continue // line 26
			}
			p.history = freshest(acks) // line 27
			quorum = senders(acks)     // line 28
			p.lab = NewL               // line 29
			nl := NewLeader{Epoch: p.epoch, History: slices.Clone(p.history)}
			for _, q := range quorum {
				p.net.Send(q, nl) // line 30
			}
		}

		// Round NewL: adopt the history of our leader.
		p.lab = NewL
		var newLeaders []NewLeader
		deadline = time.Now().Add(p.timeout)
		for len(newLeaders) == 0 {
			raw, from, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			switch m := raw.(type) {
			case NewLeader:
				if from != p.leader || m.Epoch != p.epoch {
					continue
				}
				newLeaders = append(newLeaders, m)
			}
		}
		if len(newLeaders) == 0 {
			continue // not in the leader's quorum, or the leader gave up
		}
		p.history = slices.Clone(newLeaders[0].History)
		p.accepted = p.epoch
		p.views = append(p.views, View{Epoch: p.epoch, Leader: p.leader, History: slices.Clone(p.history)})
	}
}

// ackEpoch returns the ACKEPOCH of the current round (Fig. 4, line 21).
func (p *Proc) ackEpoch() AckEpoch {
	return AckEpoch{Epoch: p.epoch, Accepted: p.accepted, History: slices.Clone(p.history)}
}

// freshest returns the most recent history of an AckE mailbox: adopted in
// the latest epoch, then the longest, then the one of the smallest sender.
func freshest(acks map[int]AckEpoch) []string {
	best := -1
	for _, q := range senders(acks) {
		if best < 0 {
			best = q
			continue
		}
		m, b := acks[q], acks[best]
		if m.Accepted > b.Accepted || m.Accepted == b.Accepted && len(m.History) > len(b.History) {
			best = q
		}
	}
	return slices.Clone(acks[best].History)
}

// senders returns the senders of a mailbox in increasing order.
func senders[M any](mbox map[int]M) []int {
	return slices.Sorted(maps.Keys(mbox))
}

// Views returns the leader histories the process adopted, in order.
func (p *Proc) Views() []View { return slices.Clone(p.views) }
