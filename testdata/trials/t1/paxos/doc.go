// Package paxos is single-decree Paxos (Lamport, "Paxos Made Simple",
// 2001) with proposer, acceptor and learner folded into one loop per
// replica, written for ccvet's trial corpus.
//
// One iteration of Replica.Run is one ballot; the leader of ballot b is
// replica b mod n. A ballot has four rounds, the phases 1a/1b/2a/2b of the
// paper:
//
//	Prepare   the leader asks everybody to join its ballot (1a)
//	Promise   replicas that joined report their last accepted vote (1b)
//	Accept    the leader proposes the value of the highest vote it heard
//	          of, or its own, to everybody (2a)
//	Accepted  replicas that accepted broadcast their vote; a value voted
//	          by a majority in one ballot is decided (2b)
//
// A replica that waits in vain moves on to the next ballot, so the tag
// (ballot, step) only grows. A replica that hears a Prepare of a later
// ballot jumps to it: this is how the acceptor's "promise not to accept
// lower ballots" is kept, by the tag itself.
//
// # Style
//
// The tag lives in receiver fields (//sync:tag p.ballot,p.step in
// Replica.Run). There is one message struct, Msg, whose Step field
// carries the round (//sync:msg Ballot,Step). The transport is a Network
// type with //sync:send methods Send and Broadcast and a //sync:recv
// method Recv with a deadline and an ok result. Every round resets its
// step at the point it enters the round; the ballot is increased at the
// start of the iteration.
//
// # Mutants (mutants.txt)
//
//   - retry-same-ballot (syncmono): a retry forgets to move to a new
//     ballot and goes back to Prepare in the ballot it gave up on.
//   - promise-built-before-join (syncsend): the Promise is built before
//     the replica adopts the leader's ballot, so it carries the old one.
//   - accepted-step-copy-paste (syncsend): the 2b broadcast is stamped
//     with step Accept, the round it copied the code from.
//   - accepted-any-ballot (syncrecv): 2b votes of earlier ballots are
//     counted, so votes of different ballots add up to a "majority".
//   - promise-filter-inverted (syncrecv): the leader drops promises of
//     later ballots instead of earlier ones.
//   - promise-without-join (syncjump): an acceptor takes a Prepare of a
//     later ballot but promises under its own ballot.
package paxos
