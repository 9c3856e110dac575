package multipaxos

import (
	"context"
	"time"
)

// replicate is the inner loop, run in round Lead of a ballot by every
// replica that joined it: each iteration chooses one log slot. The leader
// proposes, for each slot from start on, the value recovered from the
// promises if there is one, and a new client command otherwise. It returns
// when the leader is silent (a follower) or a majority stops accepting (the
// leader); Run then moves to the next ballot.
//
// Its loop is tagged with the outer variables followed by its own: all of
// it runs inside round Lead of the ballot.
func (p *Proc) replicate(ctx context.Context, leader, start int, recovered map[int]Entry) {
	majority := p.n/2 + 1
	p.slot = start - 1

	//sync:tag p.ballot,p.phase,p.slot,p.sstep
	for ctx.Err() == nil {
		p.slot++
		p.sstep = Accept

		// Round Accept: the leader proposes a value for the slot.
		if leader == p.id {
			p.broadcast(p.newAccept(p.proposal(recovered)))
		}
		// Accept the leader's proposal for this slot or a later one: a
		// follower that missed the Accept of some slots catches up. The
		// ballot must be ours: an acceptor accepts nothing from a ballot
		// it left.
		var accepts []AcceptMsg
		timeout := time.After(p.timeout)
	acceptLoop:
		for len(accepts) == 0 {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(AcceptMsg)
				if !ok || e.From != leader || m.Ballot != p.ballot || m.Slot < p.slot {
					continue
				}
				accepts = append(accepts, m)
			case <-timeout:
				break acceptLoop
			}
		}
		if len(accepts) == 0 {
			return // the leader is gone: elect a new one
		}
		// The leader may be ahead of us: move to its slot.
		p.slot = accepts[0].Slot
		if !p.log[p.slot].Committed {
			p.log[p.slot] = Entry{Ballot: p.ballot, Value: accepts[0].Value}
		}

		// Round Accepted: tell the leader, which waits for a majority.
		p.sstep = Accepted
		p.send(leader, p.newAccepted())
		if leader == p.id {
			votes := make(map[int]AcceptedMsg)
			timeout = time.After(p.timeout)
		acceptedLoop:
			for len(votes) < majority {
				select {
				case e := <-p.in:
					m, ok := e.Msg.(AcceptedMsg)
					if !ok || m.Ballot != p.ballot || m.Slot != p.slot {
						continue
					}
					votes[e.From] = m
				case <-timeout:
					break acceptedLoop
				}
			}
			if len(votes) < majority {
				return // a majority moved to a later ballot, or is unreachable
			}
		}

		// Round Commit: the leader tells everybody the chosen value.
		p.sstep = Commit
		if leader == p.id {
			p.broadcast(CommitMsg{Ballot: p.ballot, Slot: p.slot, Value: p.log[p.slot].Value})
		}
		var commits []CommitMsg
		timeout = time.After(p.timeout)
	commitLoop:
		for len(commits) == 0 {
			select {
			case e := <-p.in:
				if m, ok := e.Msg.(CommitMsg); ok && e.From == leader && m.Ballot == p.ballot && m.Slot == p.slot {
					commits = append(commits, m)
				}
			case <-timeout:
				break commitLoop
			}
		}
		if len(commits) == 0 {
			continue // learnt later, from the Lead message of a ballot
		}
		p.log[p.slot] = Entry{Ballot: p.ballot, Value: commits[0].Value, Committed: true}
		p.execute()
	}
}

// proposal returns the value the leader proposes for the current slot.
func (p *Proc) proposal(recovered map[int]Entry) string {
	if e, ok := recovered[p.slot]; ok {
		return e.Value
	}
	return p.newCommand()
}

// newAccept returns the Accept of the current slot.
func (p *Proc) newAccept(value string) AcceptMsg {
	return AcceptMsg{Ballot: p.ballot, Slot: p.slot, Value: value}
}

// newAccepted returns the Accepted of the current slot.
func (p *Proc) newAccepted() AcceptedMsg {
	return AcceptedMsg{Ballot: p.ballot, Slot: p.slot}
}
