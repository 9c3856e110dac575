// Package threepc implements the three-phase commit protocol (Skeen,
// "Nonblocking commit protocols", SIGMOD 1981; as presented in Bernstein,
// Hadzilacos and Goodman, "Concurrency Control and Recovery in Database
// Systems", Sec. 7.5) for a sequence of transactions. Site 0 coordinates;
// every site, the coordinator included, is a participant.
//
// For each transaction: the coordinator sends CanCommit; each participant
// votes; if all voted yes the coordinator sends PreCommit, otherwise an
// abort; participants acknowledge the PreCommit; the coordinator then sends
// DoCommit. Time-outs follow the protocol's rules: a participant that times
// out before it is pre-committed aborts, one that times out after it commits.
//
// # Style
//
// The tag is two fields of the receiver of Process.Run, //sync:tag
// p.txn,p.step, the transaction number as the phase and the protocol step as
// the round; each iteration handles one transaction and starts with p.txn++
// and p.step = CanCommit. One message struct serves every step and carries
// the step in a field (//sync:msg Txn,Step). Sends go through the helpers
// p.broadcast(m) and p.send(to, m), receptions through
// p.collect(need, accept), which loops over the //sync:recv method of a
// concrete *Network and is handed the message filter as a function literal.
// Participants learn the transaction from the coordinator: they accept a
// CanCommit of their transaction or of a later one and jump to it.
//
// # Mutants (mutants.txt)
//
//   - retry-same-txn: on an abort the coordinator decrements p.txn so that
//     the next iteration retries the same transaction number.
//   - vote-before-step: the vote (stamped Step: Vote) is sent before p.step
//     moves to Vote.
//   - votes-of-any-txn: the coordinator's vote filter forgets the transaction
//     number, so votes of earlier transactions count.
//   - cancommit-no-jump: a participant accepts a CanCommit of a later
//     transaction but does not move to it before voting.
package threepc
