package paxoscommit

import "maps"

// Step is the round part of the tag (txn, ballot, step), in execution
// order.
type Step int32

// The rounds of a ballot.
const (
	// Prepare: the ballot's leader starts it (Paxos Commit's Prepare from
	// the transaction manager in ballot 0, a phase 1a message after it).
	Prepare Step = iota
	// Promise: acceptors report what they accepted (phase 1b); not in
	// ballot 0.
	Promise
	// Accept: phase 2a. In ballot 0 every resource manager proposes its own
	// vote in its own instance; in later ballots the leader proposes all.
	Accept
	// Accepted: acceptors tell everybody what they accepted (phase 2b).
	Accepted
)

// Value is what a Paxos instance decides: the vote of a resource manager.
type Value int32

// The two values of an instance.
const (
	// Aborted: the resource manager aborted, or is presumed to have.
	Aborted Value = iota
	// Prepared: the resource manager is prepared to commit.
	Prepared
)

// Vote is a value accepted, or proposed, in a ballot.
type Vote struct {
	Ballot int64
	Value  Value
}

// GetBallot returns the ballot of v, 0 if v is nil.
func (v *Vote) GetBallot() int64 {
	if v == nil {
		return 0
	}
	return v.Ballot
}

// GetValue returns the value of v, Aborted if v is nil.
func (v *Vote) GetValue() Value {
	if v == nil {
		return Aborted
	}
	return v.Value
}

// Msg is the one message of the protocol, shaped like a generated protobuf
// message: fields with nil-safe getters. Votes maps an instance (the id of
// the resource manager it decides for) to a vote.
//
//sync:msg Txn,Ballot,Step
type Msg struct {
	Txn    int64
	Ballot int64
	Step   Step
	From   int32
	Votes  map[int32]*Vote
}

// GetTxn returns the transaction of m.
func (m *Msg) GetTxn() int64 {
	if m == nil {
		return 0
	}
	return m.Txn
}

// GetBallot returns the ballot of m.
func (m *Msg) GetBallot() int64 {
	if m == nil {
		return 0
	}
	return m.Ballot
}

// GetStep returns the round of m.
func (m *Msg) GetStep() Step {
	if m == nil {
		return Prepare
	}
	return m.Step
}

// GetFrom returns the sender of m.
func (m *Msg) GetFrom() int32 {
	if m == nil {
		return 0
	}
	return m.From
}

// GetVotes returns the votes m carries.
func (m *Msg) GetVotes() map[int32]*Vote {
	if m == nil {
		return nil
	}
	return m.Votes
}

// cloneVotes returns a deep copy of votes, so that a message never shares
// state with its sender.
func cloneVotes(votes map[int32]*Vote) map[int32]*Vote {
	out := maps.Clone(votes)
	for i, v := range out {
		c := *v
		out[i] = &c
	}
	return out
}
