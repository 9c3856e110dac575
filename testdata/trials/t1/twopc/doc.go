// Package twopc is two-phase commit (Gray, "Notes on data base operating
// systems", 1978; Bernstein, Hadzilacos and Goodman, "Concurrency Control
// and Recovery in Database Systems", 1987, Ch. 7), with a coordinator and
// participants, written for ccvet's trial corpus.
//
// Transactions are numbered 1, 2, ... and the number is the phase. For
// each one the coordinator sends Prepare; each participant votes yes or no
// (Voting); the coordinator commits if all voted yes and aborts on a no or
// when its timer fires with a vote missing, and sends the Decision
// (Deciding). A participant that missed a Prepare or a Decision moves to
// the transaction of the next one it gets. The properties tested are that
// a transaction commits only if every participant voted yes and that all
// nodes learn the same outcome.
//
// # Style
//
// One event loop, Node.Run, serves the coordinator and the participants:
// each iteration is one select over the context, the coordinator's ticker
// (which starts the next transaction and aborts one that waited too long)
// and the inbox, whose messages go through a type switch. The loop is its
// own reception: a message is handled, and acted on, in the iteration that
// receives it. The tag is two receiver fields, //sync:tag n.txn,n.step;
// a participant jumps to the transaction of the message it handles. Each
// message type has its round as a constant (//sync:msg Txn,Voting). The
// coordinator's votes are a local map made before the loop and replaced
// when a transaction starts. Sends go through a method of the node
// annotated //sync:send (post), over plain channels (the node's own marked
// //sync:inbox), and a helper toParticipants; the coordinator's decision is a helper, decide.
//
// # Mutants (mutants.txt)
//
//   - retry-aborted-txn-number (syncmono): an aborted transaction is
//     retried under the same number.
//   - decision-sent-before-deciding (syncsend): the Decision is sent while
//     still in round Voting.
//   - vote-before-adopting-txn (syncsend): the vote is sent before the
//     participant moves to the Prepare's transaction.
//   - votes-of-any-txn (syncrecv): the coordinator counts votes of other
//     transactions.
//   - decision-recorded-without-jump (syncjump): a later transaction's
//     outcome is recorded without moving to it.
package twopc
