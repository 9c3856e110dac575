// Package paxoscommit implements Paxos Commit (Gray and Lamport, "Consensus
// on Transaction Commit", ACM TODS 2006) for a sequence of transactions.
//
// Each of the n processes is a resource manager (RM) and an acceptor. For
// every transaction there is one Paxos instance per RM, deciding whether
// that RM Prepared or Aborted; the transaction commits if and only if every
// instance decides Prepared. In ballot 0, led by the transaction manager
// (process 0), each RM proposes its own vote in its own instance (phase 2a
// without phase 1). If some instance is not chosen in time, the leader of
// the next ballot runs phase 1 for all instances and proposes, in each, the
// value accepted in the highest ballot, or Aborted where nothing was
// accepted. Acceptors send their phase 2b messages to everybody, so every
// process learns the outcome without a separate commit message.
//
// # Style
//
// The tag has three variables, (p.txn, p.ballot, p.step): the transaction
// id and the ballot form the phase, the step is the round. They are fields
// of the receiver of Process.Run; the ballot is reset to 0 at the end of
// the iteration that decides a transaction (p.txn++, then p.ballot = 0) and
// the step at the start of every iteration. The transport is the Transport
// interface (//sync:send on Send and Broadcast, //sync:recv on Recv, which
// takes a context whose deadline ends the round). The single message type,
// Msg, is shaped like a generated protobuf message and the protocol reads
// it only through nil-safe getters (m.GetTxn(), m.GetBallot()); it is
// annotated //sync:msg Txn,Ballot,Step. Rounds that wait for several
// messages share the helper collect, which drops every message not of the
// current (txn, ballot, step); the Prepare round is written inline because
// it keeps a Prepare of a later ballot and then jumps to that ballot.
//
// # Mutants (mutants.txt)
//
//   - retry-in-ballot-zero (syncmono): a transaction aborted by recovery is
//     retried in ballot 0 of the same transaction.
//   - accepted-stamped-accept (syncsend): the phase 2b broadcast is stamped
//     with the Accept round (a copy-paste slip).
//   - acks-of-any-ballot (syncrecv): collect forgets the ballot, so phase 2b
//     messages of another ballot count towards this one's majority.
//   - promise-without-joining (syncjump): a Prepare of a later ballot is
//     taken without moving to that ballot.
package paxoscommit
