package caspaxos

import "slices"

// Change computes the register's new value from its current one (nil when
// nothing was ever committed). It must not modify its argument.
type Change func(current []string) []string

// Proposer runs one change at a time against the acceptors.
//
//sync:tag ballot,step
type Proposer struct {
	id      int
	stride  uint64 // the number of proposers: ballots of id are id+1 mod stride
	quorum  int
	net     Network
	counter uint64

	ballot uint64
	step   Round

	change   Change
	value    []string         // the value proposed in round Accept
	promises map[int]*Promise // mailbox of round Promise
	accepts  map[int]struct{} // mailbox of round Accepted

	committed [][]string // the values this proposer committed, in order
}

// NewProposer returns proposer id of proposers, for acceptors acceptors.
func NewProposer(id, proposers, acceptors int, net Network) *Proposer {
	return &Proposer{id: id, stride: uint64(proposers), quorum: acceptors/2 + 1, net: net,
		step: RoundDone, promises: make(map[int]*Promise), accepts: make(map[int]struct{})}
}

// Propose starts applying change. A change still in progress is
// abandoned.
//
//sync:handler
func (p *Proposer) Propose(change Change) {
	p.change = change
	p.start()
}

// Busy reports whether a change is in progress.
func (p *Proposer) Busy() bool { return p.step != RoundDone }

// Committed returns the values this proposer committed, in order.
func (p *Proposer) Committed() [][]string {
	out := make([][]string, len(p.committed))
	for i, v := range p.committed {
		out[i] = slices.Clone(v)
	}
	return out
}

// OnTimeout retries the change in progress, if any, with a new ballot.
//
//sync:handler
func (p *Proposer) OnTimeout() {
	if p.step == RoundDone {
		return
	}
	p.start()
}

// start moves to the next ballot of this proposer and sends its Prepare.
func (p *Proposer) start() {
	p.counter++
	p.ballot = p.counter*p.stride + uint64(p.id) + 1
	p.step = RoundPrepare
	clear(p.promises)
	clear(p.accepts)
	p.net.ToAcceptors(&Prepare{Bal: p.ballot, From: p.id})
	p.step = RoundPromise
}

// OnPromise counts a Promise; with a quorum it applies the change to the
// value accepted with the highest ballot and asks the acceptors to accept
// the result.
//
//sync:handler
func (p *Proposer) OnPromise(m *Promise) {
	if m.Bal != p.ballot || p.step != RoundPromise {
		return // another ballot, or the quorum is already there
	}
	p.promises[m.From] = m
	if len(p.promises) < p.quorum {
		return
	}
	var current []string
	var highest uint64
	for _, pr := range p.promises {
		if pr.AcceptedBal > highest {
			highest, current = pr.AcceptedBal, pr.Value
		}
	}
	p.value = p.change(slices.Clone(current))
	p.step = RoundAccept
	clear(p.promises)
	p.net.ToAcceptors(&Accept{Bal: p.ballot, From: p.id, Value: slices.Clone(p.value)})
	p.step = RoundAccepted
}

// OnAccepted counts an Accepted; with a quorum the change is committed.
//
//sync:handler
func (p *Proposer) OnAccepted(m *Accepted) {
	if m.Bal != p.ballot || p.step != RoundAccepted {
		return
	}
	p.accepts[m.From] = struct{}{}
	if len(p.accepts) < p.quorum {
		return
	}
	p.step = RoundDone
	clear(p.accepts)
	p.committed = append(p.committed, slices.Clone(p.value))
}
