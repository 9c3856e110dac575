package pitfalls

import (
	"slices"
	"time"
)

// Process is one replica.
type Process struct {
	id      int
	n       int
	net     *Network
	timeout time.Duration

	// The tag (ballot, step) of every loop below.
	ballot int
	step   Step

	leader int
	log    []string
}

// NewProcess returns process id of the network nw, in ballot 0.
func NewProcess(id int, nw *Network, timeout time.Duration) *Process {
	return &Process{id: id, n: nw.Size(), net: nw, timeout: timeout}
}

func leaderOf(ballot, n int) int { return ballot % n }

// Retry is a leader that asks for Acks and retries when too few come.
func (p *Process) Retry(maxTries int, cmd string) {
	majority := p.n/2 + 1
	p.ballot = p.id
	//sync:tag p.ballot,p.step
	for try := 0; try < maxTries; try++ {
		// MISTAKE (condition I, syncmono): a retry goes back to round
		// Prepare in the ballot it has already used, so the tag goes from
		// (b, Ack) down to (b, Prepare), and the Acks a process sent for
		// the failed attempt are still on their way: the next attempt counts
		// them as answers to this one. Fix: start every attempt in a new
		// ballot, p.ballot++, before resetting the round.
		p.step = Prepare
		p.net.Broadcast(Message{Step: p.step, Ballot: p.ballot, From: p.id})
		p.step = Ack
		acks := make(map[int]Message)
		deadline := time.Now().Add(p.timeout)
		for len(acks) < majority {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != p.step || m.Ballot != p.ballot {
				continue
			}
			acks[m.From] = m
		}
		if len(acks) < majority {
			continue
		}
		p.log = append(p.log, cmd)
		return
	}
}

// Join is a process that joins the ballot of the first Prepare it
// receives and answers its leader.
func (p *Process) Join(maxPhases int) {
	//sync:tag p.ballot,p.step
	for phase := 0; phase < maxPhases; phase++ {
		p.ballot++
		p.step = Prepare
		var prepares []Message
		deadline := time.Now().Add(p.timeout)
		for len(prepares) == 0 {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != p.step || m.Ballot < p.ballot {
				continue
			}
			prepares = append(prepares, m)
		}
		if len(prepares) == 0 {
			continue
		}
		// MISTAKE (condition II, syncsend): the answer is built before the
		// process jumps to the leader's ballot, so it carries the ballot
		// the process had before: the leader, which counts only Acks of
		// its own ballot, drops it. Fix: build the Ack after the jump,
		// p.net.Send(p.leader, Message{Step: p.step, Ballot: p.ballot, ...}).
		ack := Message{Step: Ack, Ballot: p.ballot, From: p.id, Log: slices.Clone(p.log)}
		p.ballot = prepares[0].Ballot
		p.leader = prepares[0].From
		p.step = Ack
		p.net.Send(p.leader, ack)
	}
}

// Lead is the leader of the ballots leaderOf gives it: it asks for Acks and proposes
// the longest log it heard of.
func (p *Process) Lead(maxPhases int) {
	majority := p.n/2 + 1
	//sync:tag p.ballot,p.step
	for phase := 0; phase < maxPhases; phase++ {
		p.ballot++
		if leaderOf(p.ballot, p.n) != p.id {
			continue
		}
		p.step = Prepare
		p.net.Broadcast(Message{Step: p.step, Ballot: p.ballot, From: p.id})
		p.step = Ack
		acks := make(map[int]Message)
		deadline := time.Now().Add(p.timeout)
		for len(acks) < majority {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			// MISTAKE (condition III, syncrecv): the filter drops only
			// Acks of later ballots, so an Ack that answered an older
			// ballot of this leader, delayed in the network, counts
			// towards this ballot's majority: the leader may propose
			// without a quorum of this ballot. Fix: keep the current
			// ballot only, m.Ballot != p.ballot.
			if m.Step != p.step || m.Ballot > p.ballot {
				continue
			}
			acks[m.From] = m
		}
		if len(acks) < majority {
			continue
		}
		p.step = Propose
		p.net.Broadcast(Message{Step: p.step, Ballot: p.ballot, From: p.id, Log: longest(acks)})
	}
}

// Follow is a process that adopts the log of the Propose of its ballot
// and tells the leader it accepted it.
func (p *Process) Follow(maxPhases int) {
	//sync:tag p.ballot,p.step
	for phase := 0; phase < maxPhases; phase++ {
		p.ballot++
		p.step = Propose
		var proposals []Message
		deadline := time.Now().Add(p.timeout)
		for len(proposals) == 0 {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != p.step || m.Ballot < p.ballot {
				continue
			}
			proposals = append(proposals, m)
		}
		if len(proposals) == 0 {
			continue
		}
		p.log = slices.Clone(proposals[0].Log)
		// MISTAKE (condition IV, syncjump): the filter lets a Propose of
		// a later ballot in, as it should (this process fell behind), but
		// the process accepts it without jumping to that ballot: its
		// answer carries its own, older ballot, and it goes on as if the
		// Propose were of that one. Fix: jump first,
		// p.ballot = proposals[0].Ballot.
		p.step = Accept
		p.net.Send(proposals[0].From, Message{Step: p.step, Ballot: p.ballot, From: p.id})
	}
}

// longest returns the longest log of the mailbox acks.
func longest(acks map[int]Message) []string {
	var best []string
	for _, m := range acks {
		if len(m.Log) > len(best) {
			best = m.Log
		}
	}
	return slices.Clone(best)
}
