// Package caspaxos is CASPaxos (Rystsov, "CASPaxos: Replicated state
// machines without logs", arXiv:1802.07000, 2018): a replicated register
// changed by functions, where every change is one round of single-decree
// Paxos.
//
// Every process is an acceptor, and the process ballot mod n is the
// proposer of ballot b. The proposer sends Prepare; acceptors answer with
// the value they accepted last and its ballot; with a majority the proposer
// takes the value of the highest ballot (or the empty register), applies its
// next change function, and sends Accept; acceptors store the new value and
// confirm; a majority of confirmations commits the change. An acceptor that
// missed the Prepare of a ballot may still accept its value when the Accept
// arrives, joining the ballot then.
//
// # Style
//
// The tag (ballot, step) is made of receiver fields of Node. Messages are one
// type per step with the step as a constant in the annotation. Quorums are
// gathered by a generic collector, quorum[M], used for promises and
// confirmations; the reception loops type-assert the message and write only
// the collector. The transport is a Network struct whose Send and Broadcast
// methods are annotated //sync:send and whose Recv, with a deadline, is
// annotated //sync:recv.
//
// # Mutants
//
//   - stale-promises (syncrecv): the proposer counts promises of any ballot,
//     so it can apply the change to a value a later ballot already replaced.
//   - accept-no-join (syncjump): an acceptor stores the value of a later
//     ballot's Accept without joining that ballot.
//   - confirm-before-join (syncsend): the confirmation is built before the
//     acceptor joins the Accept's ballot, so it carries the old ballot.
package caspaxos
