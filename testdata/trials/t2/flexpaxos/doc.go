// Package flexpaxos is single-decree Flexible Paxos (Howard, Malkhi and
// Spiegelman, "Flexible Paxos: Quorum intersection revisited", OPODIS 2016):
// Paxos where the phase-1 quorum Q1 and the phase-2 quorum Q2 may differ as
// long as Q1 + Q2 > n, so that a small Q2 makes the steady state cheap.
//
// Every replica is acceptor and learner; the replica ballot mod n leads
// ballot b. A ballot goes through Prepare (the leader asks to join), Promise
// (acceptors answer with their last vote; the leader needs Q1 of them and
// adopts the value voted in the highest ballot), Accept (the leader
// proposes) and Accepted (acceptors vote and tell everybody; Q2 votes of a
// ballot decide).
//
// # Style
//
// The tag (ballot, phase) is made of receiver fields of Replica, and Run is
// a method. The rounds use helpers: broadcast and send wrap an Envelope
// around the message, awaitPrepare and awaitAccept wait for the leader's
// message, collectPromises and collectAccepted gather a quorum. There is one
// message type per round, annotated with a constant round (Ballot,Promise);
// they travel in an Envelope over Go channels and the helpers recover them
// with type assertions. A replica joins the ballot of a later Prepare.
//
// # Mutants
//
//   - promise-vballot (syncsend): a typo sends the Promise with the ballot
//     of the replica's last vote instead of its current ballot.
//   - learner-old-ballots (syncrecv): the learner counts Accepted votes of
//     earlier ballots towards Q2.
//   - join-without-jump (syncjump): an acceptor answers a Prepare of a later
//     ballot without moving to that ballot.
//   - retry-own-ballot (syncmono): a leader that misses Q1 steps its ballot
//     back so that the loop's increment gives it the same ballot again.
package flexpaxos
