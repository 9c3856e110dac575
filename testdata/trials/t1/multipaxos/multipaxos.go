package multipaxos

import (
	"maps"
	"time"
)

// Step is the round inside a (ballot, slot) pair.
type Step int

// Phase 1 runs at slot 0 of a ballot, phase 2 at slots 1, 2, ...
const (
	Prepare Step = iota
	Promise
	Accept
	Accepted
)

// Entry is an accepted value and the ballot it was accepted in.
type Entry struct {
	VBal int
	Val  string
}

// Msg is the message of every round.
//
//sync:msg Ballot,Slot,Step
type Msg struct {
	Ballot int
	Slot   int
	Step   Step
	From   int
	Log    map[int]Entry // Promise: the sender's accepted entries
	Val    string        // Accept, Accepted
}

// Replica is one Multi-Paxos replica.
type Replica struct {
	id      int
	n       int
	net     Transport
	timeout time.Duration
	queue   []string // commands this replica proposes when it leads

	log    map[int]Entry  // accepted entries by slot (acceptor)
	chosen map[int]string // learned values by slot (learner)
}

// NewReplica returns replica id of n, proposing cmds when it leads.
func NewReplica(id, n int, net Transport, cmds []string, timeout time.Duration) *Replica {
	return &Replica{
		id: id, n: n, net: net, timeout: timeout,
		queue:  append([]string(nil), cmds...),
		log:    make(map[int]Entry),
		chosen: make(map[int]string),
	}
}

// Chosen returns a copy of the values learned so far, by slot.
func (r *Replica) Chosen() map[int]string { return maps.Clone(r.chosen) }

// Run runs maxBallots ballots of at most maxSlots slots each.
func (r *Replica) Run(maxBallots, maxSlots int) {
	quorum := r.n/2 + 1
	ballot, slot, step := 0, 0, Prepare
	//sync:tag ballot,slot,step
	for i := 0; i < maxBallots; i++ {
		ballot++
		slot, step = 0, Prepare
		leader := ballot % r.n
		if leader == r.id {
			r.net.Broadcast(Msg{Ballot: ballot, Slot: slot, Step: step, From: r.id})
		}

		// Phase 1a: follow the leader of this ballot or of a later one.
		var preps []Msg
		for len(preps) == 0 {
			m, ok := r.net.Recv(r.timeout)
			if !ok {
				break
			}
			if m.Step != Prepare || m.Ballot < ballot {
				continue
			}
			preps = append(preps, m)
		}
		if len(preps) == 0 {
			continue
		}
		ballot, leader = preps[0].Ballot, preps[0].From

		// Phase 1b: report our accepted entries.
		step = Promise
		r.net.Send(leader, Msg{Ballot: ballot, Slot: slot, Step: step, From: r.id, Log: maps.Clone(r.log)})
		var adopted map[int]Entry
		if leader == r.id {
			promises := make(map[int]Msg)
			for len(promises) < quorum {
				m, ok := r.net.Recv(r.timeout)
				if !ok {
					break
				}
				if m.Step != Promise || m.Ballot != ballot || m.Slot != slot {
					continue
				}
				promises[m.From] = m
			}
			if len(promises) < quorum {
				continue
			}
			adopted = highestVotes(promises)
		}

		// Phase 2, one slot after the other, while the leader lasts.
		for slot < maxSlots {
			slot++
			step = Accept
			if leader == r.id {
				val, ok := adopted[slot]
				if !ok && len(r.queue) > 0 {
					val, ok = Entry{Val: r.queue[0]}, true
					r.queue = r.queue[1:]
				}
				if ok {
					r.net.Broadcast(Msg{Ballot: ballot, Slot: slot, Step: step, From: r.id, Val: val.Val})
				}
			}
			var accepts []Msg
			for len(accepts) == 0 {
				m, ok := r.net.Recv(r.timeout)
				if !ok {
					break
				}
				if m.Step != Accept || m.Ballot != ballot || m.Slot < slot {
					continue
				}
				accepts = append(accepts, m)
			}
			if len(accepts) == 0 {
				break // the leader is gone or idle: next ballot
			}
			slot = accepts[0].Slot // catch up with the leader
			r.log[slot] = Entry{VBal: ballot, Val: accepts[0].Val}

			step = Accepted
			vote := accepts[0]
			vote.Step, vote.From = step, r.id
			r.net.Broadcast(vote)
			votes := make(map[int]string)
			for len(votes) < quorum {
				m, ok := r.net.Recv(r.timeout)
				if !ok {
					break
				}
				if m.Step != Accepted || m.Ballot != ballot || m.Slot != slot {
					continue
				}
				votes[m.From] = m.Val
			}
			if len(votes) >= quorum {
				r.chosen[slot] = r.log[slot].Val
			}
		}
	}
}

// highestVotes merges the logs of a quorum of promises: for each slot, the
// entry accepted in the highest ballot.
func highestVotes(promises map[int]Msg) map[int]Entry {
	best := make(map[int]Entry)
	for _, p := range promises {
		for s, e := range p.Log {
			if cur, ok := best[s]; !ok || e.VBal > cur.VBal {
				best[s] = e
			}
		}
	}
	return best
}
