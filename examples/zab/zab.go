package zab

import (
	"maps"
	"slices"
	"time"
)

// Oracle is a leader oracle (Fig. 4, line 3): it suggests the leader of the
// attempt that a process starts in the given epoch. Different processes may
// be given different oracles and thus disagree on the leader; the protocol
// guarantees that at most one leader gets established per epoch anyway.
type Oracle func(epoch int) int

// Config configures one Process.
type Config struct {
	ID      int      // id of the process, in 0..Net.Size()-1
	Net     *Network // network shared by all the processes
	Oracle  Oracle   // leader oracle of this process
	History []string // initial history (log) of the process

	// Timeout is how long a process waits in a round for the message(s) it
	// needs before it gives up and retries in a new epoch. A leader waits
	// twice as long for the CurrE messages of its followers (see Run).
	Timeout time.Duration
}

// Acceptance records that a process adopted the history of a leader in
// round NewL of an epoch.
type Acceptance struct {
	Epoch   int
	Leader  int
	History []string
}

// Process is one replica running the discovery loop.
//
// Its fields are accessed by Run only; the accessors must not be called while
// Run is executing.
type Process struct {
	id      int
	n       int
	net     *Network
	oracle  Oracle
	timeout time.Duration

	// Synchronization variables: the tag (epoch, round) of the loop in Run.
	epoch int   // phase: Fig. 4's p
	round Round // round: Fig. 4's lab

	// Algorithm variables.
	leader   int      // the leader suggested by the oracle for this attempt
	accepted int      // epoch of the last NEWLEADER accepted: dates history (Fig. 4's a)
	history  []string // the log of the replica (Fig. 4's h)

	// Observable outputs, for users and tests.
	established []int        // epochs in which this process became an established leader
	acceptances []Acceptance // NEWLEADER messages this process adopted
}

// NewProcess returns a process in epoch 0 configured by cfg.
func NewProcess(cfg Config) *Process {
	return &Process{
		id:      cfg.ID,
		n:       cfg.Net.Size(),
		net:     cfg.Net,
		oracle:  cfg.Oracle,
		timeout: cfg.Timeout,
		history: slices.Clone(cfg.History),
	}
}

// Run executes at most maxPhases iterations of the discovery loop and
// returns. Every round that waits for messages waits for a bounded time, so
// Run always terminates.
func (p *Process) Run(maxPhases int) {
	majority := p.n/2 + 1
	var deadline time.Time

	//sync:tag p.epoch,p.round
	for phase := 0; phase < maxPhases; phase++ {
		// Every iteration is a new attempt and starts in a fresh epoch, in
		// its first round. Incrementing the epoch here is what keeps the tag
		// (epoch, round) increasing when a round gives up with continue and
		// the next iteration goes back to round CurrE.
		p.epoch++
		p.round = CurrE

		// Round CurrE (Fig. 4, lines 3-12): tell our leader our epoch.
		p.leader = p.oracle(p.epoch)
		p.net.Send(p.leader, CurrentEpoch{From: p.id, Epoch: p.epoch})

		if p.leader == p.id {
			// The leader waits for CurrE messages from a majority. It keeps
			// those of its own epoch and those of later epochs (processes
			// that got ahead of it) and drops older ones. The reception
			// loop writes nothing but its mailbox.
			//
			// The leader waits twice as long as a follower waits for
			// NewE: if it got ahead of its followers, they time out, move
			// to later epochs faster, and eventually reach its epoch.
			mbox := make(map[int]CurrentEpoch)
			deadline = time.Now().Add(2 * p.timeout)
			for len(mbox) < majority {
				m, ok := p.net.Recv(p.id, deadline)
				if !ok {
					break // time-out: Fig. 4's retry
				}
				ce, isCE := m.(CurrentEpoch)
				if !isCE || ce.Epoch < p.epoch {
					continue // not a CurrE message of this epoch or a later one: drop
				}
				mbox[ce.From] = ce
			}
			// Line 12 is p := max{m.1 | m ∈ mbox} + 1. First jump to the
			// largest epoch in the mailbox, as required when messages from
			// later rounds were stored: a leader that hears of a later
			// epoch moves there even if it has no majority yet.
			for _, ce := range mbox {
				if ce.Epoch > p.epoch {
					p.epoch = ce.Epoch
				}
			}
			if len(mbox) < majority {
				continue // retry (line 10)
			}
			// Then move to the next epoch, the one this leader tries to
			// establish. Two leaders may pick the same epoch, but every
			// process acknowledges an epoch at most once (its tag
			// increases), so at most one of them gets the majority of AckE
			// messages it needs to go on.
			p.epoch++
			p.round = NewE
			// Line 14. Fig. 4 sends NEWEPOCH to the quorum only; like
			// Zab-HO (Fig. 1, line 11) we send it to everybody, so that a
			// process that fell behind can catch up by jumping forward.
			p.net.Broadcast(NewEpoch{From: p.id, Epoch: p.epoch})
		}

		// Round NewE (lines 16-19): wait for the new epoch of our leader,
		// ours or a later one. The leader receives its own NEWEPOCH here.
		p.round = NewE
		var newEpochs []NewEpoch
		deadline = time.Now().Add(p.timeout)
		for len(newEpochs) == 0 {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			ne, isNE := m.(NewEpoch)
			if !isNE || ne.From != p.leader || ne.Epoch < p.epoch {
				continue // not from our leader, or older than our tag: drop
			}
			newEpochs = append(newEpochs, ne)
		}
		if len(newEpochs) == 0 {
			continue // no leader: retry (line 18)
		}
		// Line 19: adopt the leader's epoch. Since the message may come from
		// a later epoch, this is a jump to the tag of the message; the round
		// is NewE already.
		p.epoch = newEpochs[0].Epoch

		// Round AckE (lines 20-30): send our history to the leader.
		p.round = AckE
		p.net.Send(p.leader, AckEpoch{
			From:     p.id,
			Epoch:    p.epoch,
			Accepted: p.accepted,
			History:  slices.Clone(p.history),
		})

		if p.leader == p.id {
			// The leader waits for the AckE messages of a majority, of
			// exactly its current round.
			mbox := make(map[int]AckEpoch)
			deadline = time.Now().Add(p.timeout)
			for len(mbox) < majority {
				m, ok := p.net.Recv(p.id, deadline)
				if !ok {
					break
				}
				ae, isAE := m.(AckEpoch)
				if !isAE || ae.Epoch != p.epoch {
					continue
				}
				mbox[ae.From] = ae
			}
			if len(mbox) < majority {
				continue // retry (line 26)
			}
			p.history = freshestHistory(mbox) // line 27
			quorum := senders(mbox)           // line 28
			p.round = NewL                    // line 29
			p.net.Multicast(quorum, NewLeader{
				From:    p.id,
				Epoch:   p.epoch,
				History: slices.Clone(p.history),
			}) // line 30
		}

		// Round NewL (Fig. 1, lines 22-27): adopt the history of our leader.
		p.round = NewL
		var newLeaders []NewLeader
		deadline = time.Now().Add(p.timeout)
		for len(newLeaders) == 0 {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			nl, isNL := m.(NewLeader)
			if !isNL || nl.From != p.leader || nl.Epoch != p.epoch {
				continue
			}
			newLeaders = append(newLeaders, nl)
		}
		if len(newLeaders) == 0 {
			continue // not in the leader's quorum, or the leader gave up: retry
		}
		p.history = slices.Clone(newLeaders[0].History)
		p.accepted = p.epoch
		p.acceptances = append(p.acceptances, Acceptance{
			Epoch:   p.epoch,
			Leader:  p.leader,
			History: slices.Clone(p.history),
		})

		// Round AckL (Fig. 1, lines 28-31): acknowledge the history.
		p.round = AckL
		p.net.Send(p.leader, AckLeader{From: p.id, Epoch: p.epoch})

		if p.leader == p.id {
			mbox := make(map[int]AckLeader)
			deadline = time.Now().Add(p.timeout)
			for len(mbox) < majority {
				m, ok := p.net.Recv(p.id, deadline)
				if !ok {
					break
				}
				al, isAL := m.(AckLeader)
				if !isAL || al.Epoch != p.epoch {
					continue
				}
				mbox[al.From] = al
			}
			if len(mbox) < majority {
				continue
			}
			// A majority adopted our history in this epoch: we are the
			// established leader of the epoch. The Broadcast machine would
			// start here.
			p.established = append(p.established, p.epoch)
		}
	}
}

// freshestHistory returns the most recent history in an AckE mailbox: the one
// adopted in the latest epoch, the longest one among those, and the one of the
// smallest process id among those (Fig. 4, line 27).
func freshestHistory(mbox map[int]AckEpoch) []string {
	best := -1
	for _, q := range senders(mbox) {
		if best < 0 {
			best = q
			continue
		}
		m, b := mbox[q], mbox[best]
		if m.Accepted > b.Accepted || m.Accepted == b.Accepted && len(m.History) > len(b.History) {
			best = q
		}
	}
	return slices.Clone(mbox[best].History)
}

// senders returns the senders of the messages in a mailbox, in increasing
// order (Fig. 4's mbox.senders).
func senders[M any](mbox map[int]M) []int {
	return slices.Sorted(maps.Keys(mbox))
}

// ID returns the id of the process.
func (p *Process) ID() int { return p.id }

// Epoch returns the current epoch of the process.
func (p *Process) Epoch() int { return p.epoch }

// History returns a copy of the current history of the process.
func (p *Process) History() []string { return slices.Clone(p.history) }

// Established returns the epochs in which the process became an established
// leader, in increasing order.
func (p *Process) Established() []int { return slices.Clone(p.established) }

// Acceptances returns the NEWLEADER messages the process adopted, in the
// order it adopted them.
func (p *Process) Acceptances() []Acceptance { return slices.Clone(p.acceptances) }
