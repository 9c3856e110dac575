// Package otr is OneThirdRule (Charron-Bost and Schiper, "The Heard-Of
// model: computing in distributed systems with benign faults", 2009; also
// Algorithm 1 of Tsuchiya and Schiper, "Model checking of consensus
// algorithms"), written for ccvet's trial corpus.
//
// In every round each process sends its value x to all; with more than
// 2n/3 values received it sets x to the smallest most frequent one, and
// decides it if more than 2n/3 of the values received are equal to it.
// Rounds end when every process was heard of or the timer fires;
// estimates of other rounds are dropped (no jumps, as in the HO model).
// The safety properties tested are agreement and integrity.
//
// # Style
//
// The tag is a single receiver field, //sync:tag p.round: the round
// counter is the phase, and each phase has one round, so there is no
// round variable and Est maps one component (//sync:msg Round). The
// estimate sent is one struct reused across rounds (out.Round, out.X =
// p.round, p.x). The transport is a generic interface Transport[M] with a
// //sync:send Broadcast and a //sync:recv Recv returning the sender; the
// mailbox is a generic Mailbox[T] made by NewMailbox[Est]() each round and
// filled with Put.
//
// # Mutants (mutants.txt)
//
//   - restart-rounds-after-decision (syncmono): the round is reset to 0
//     when the process decides.
//   - reused-message-keeps-round (syncsend): the reused estimate keeps the
//     zero round it was declared with.
//   - stale-estimates (syncrecv): estimates of earlier rounds are counted.
//   - later-estimates-no-jump (syncjump): estimates of later rounds are
//     counted without jumping to them.
package otr
