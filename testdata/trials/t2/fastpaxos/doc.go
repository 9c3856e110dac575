// Package fastpaxos is single-decree Fast Paxos (Lamport, "Fast Paxos",
// Distributed Computing 19(2), 2006), with fast and classic ballots.
//
// Every process is proposer, acceptor and learner; the process ballot mod n
// coordinates ballot b, and odd ballots are fast. A ballot has four steps.
// In Prepare (phase 1a) the coordinator opens the ballot; in Promise (1b)
// acceptors report their last vote and the coordinator, with a classic
// quorum of promises, picks a value by Lamport's rule O4: the value of the
// highest vote if that ballot was classic, a value that may have been chosen
// by a fast quorum if it was fast, and otherwise a free choice. In Accept
// (2a) it proposes that value, or, in a fast ballot with a free choice, the
// special "any" message that lets each acceptor vote for its own proposal.
// In Accepted (2b) acceptors broadcast their votes; a fast quorum of equal
// votes in a fast ballot, or a classic quorum in a classic one, decides. A
// collision in a fast ballot is resolved by the next, classic, ballot.
//
// # Style
//
// The tag (ballot, step) is made of fields of an unexported proc struct that
// Run builds with a composite literal. One message type serves all steps,
// with the step in a field (Ballot,Step). The transport is a Transport
// interface whose Send and Broadcast are annotated //sync:send and whose Recv,
// which times out, is annotated //sync:recv. Acceptors join later ballots.
//
// # Mutants
//
//   - vote-before-step (syncsend): the 2b vote is broadcast before the step
//     moves to Accepted.
//   - learn-old-ballots (syncrecv): the learner tallies votes of earlier
//     ballots with the current ballot's.
//   - promise-no-join (syncjump): an acceptor promises a later ballot's
//     coordinator without joining that ballot.
//   - next-leader-bumps (syncmono): only the coordinator of the next ballot
//     advances the ballot; the others restart round Prepare in theirs.
package fastpaxos
