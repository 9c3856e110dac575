// Package caspaxos implements CASPaxos (D. Rystsov, "CASPaxos: replicated
// state machines without logs", arXiv:1802.07000): a register replicated on
// 2f+1 acceptors, changed by proposers that apply a change function to its
// current value.
//
// A proposer picks a ballot from its counter (counter*stride + id, so that
// proposers never share a ballot) and runs two phases. Prepare: the
// acceptors that have not promised a higher ballot promise this one and
// return the value they accepted last, with its ballot; with a quorum of
// promises the proposer takes the value accepted with the highest ballot
// and applies the change to it. Accept: the acceptors that have not promised
// a higher ballot accept the new value; with a quorum of acceptances the
// change is committed. A proposer that times out retries with a new ballot.
// Safety: every two committed values are ordered, one being the result of
// applying changes to the other (with appending changes: one is a prefix of
// the other).
//
// # Style
//
// Handler style, in two process types. Acceptor (//sync:tag promised,step)
// has the handlers OnPrepare and OnAccept and keeps no mailbox: it updates
// its state from a message of its ballot or a later one, after moving to
// it. Proposer (//sync:tag ballot,step) has the handlers Propose, OnPromise,
// OnAccepted and OnTimeout; its mailboxes are the maps promises and accepts,
// emptied when its tag changes. Messages are an interface with method
// components (//sync:msg Ballot(),Round() on Msg), each concrete type
// returning its own constant round. The transport is a Network interface
// whose two methods are //sync:send.
//
// # Mutants (mutants.txt)
//
//   - retransmit-prepare: on a time-out the proposer re-sends its Prepare in
//     the same ballot, going back from round Accepted to round Prepare
//     (syncmono).
//   - reply-before-promise: the acceptor answers a Prepare before it records
//     the promise, so the Promise carries a ballot the acceptor is not in
//     yet (syncsend).
//   - promise-any-ballot: the proposer counts a delayed Promise of one of
//     its earlier ballots (syncrecv).
//   - keep-old-promises: a new ballot does not empty the promises of the
//     previous one, which count towards the new quorum (syncrecv).
//   - accept-without-promise: the acceptor accepts a value of a later ballot
//     without raising its promise to that ballot (syncjump).
package caspaxos
