// Package paxoshandlers is single-decree Paxos (Lamport, "Paxos Made
// Simple", 2001) written as message handlers: an Acceptor with OnPrepare
// and OnAccept, and a Proposer with OnPromise, OnAccepted and OnTimeout. A
// driver owns the network and calls the handler that matches each message
// it delivers; the proposer's retries come from OnTimeout.
//
// # Style
//
//   - Two process types, each with its own tag on the type:
//     //sync:tag ballot,step on Acceptor and on Proposer. The ballot is the
//     phase; the step (Prepare, Promise, Accept, Accepted) is the round.
//     The acceptor's ballot is the highest ballot it promised, its step how
//     far it went in that ballot.
//   - One message type per round, with the round as a constant:
//     //sync:msg Ballot,StepPrepare on Prepare, and so on.
//   - The transport is an interface, Transport, whose methods are
//     //sync:send; the messages it carries are values of the Message
//     interface.
//   - The proposer's mailboxes are maps (promises, accepts) emptied at every
//     new ballot and when phase 1 ends; phase 2 adopts the value of the
//     highest accepted ballot among a majority of promises.
//   - An acceptor joins a higher ballot it sees in an Accept whose Prepare
//     it missed (it jumps before accepting); the proposer drops every
//     message that is not of its current ballot and step.
//
// # Mutants (mutants.txt)
//
//   - late-promise-counted (syncrecv): the proposer counts promises of an
//     earlier ballot of its own.
//   - accept-checks-accepted-ballot (syncrecv): the acceptor compares an
//     Accept with its last accepted ballot instead of its promise.
//   - accept-without-joining (syncjump): an Accept of a higher ballot is
//     accepted without raising the promise to that ballot.
//   - promise-ballots-swapped (syncsend): the promise carries the accepted
//     ballot where the promised one belongs.
//   - accept-with-value-ballot (syncsend): phase 2 is sent with the ballot
//     of the adopted value instead of the proposer's own ballot.
//   - retry-same-ballot (syncmono): a retry forgets to advance the attempt
//     counter and restarts phase 1 in the same ballot.
package paxoshandlers
