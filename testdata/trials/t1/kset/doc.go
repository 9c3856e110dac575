// Package kset implements approximate agreement for crash faults (Dolev,
// Lynch, Pinter, Stark and Weihl, "Reaching approximate agreement in the
// presence of faults", JACM 1986; the crash-tolerant variant with n > 2f):
// in every round each process broadcasts its real value, waits for n-f
// values of the round and moves to the midpoint of the values it received.
// Any two processes hear from a common process, so the range of the correct
// values at least halves every round, and values never leave the range of
// the inputs.
//
// # Style
//
// The tag is a field of a struct made by a composite literal in Run,
// p := &proc{round: 0, ...}, annotated //sync:tag p.round; the round is
// incremented at the start of each iteration. Messages go through a
// Transport interface whose Recv reports a time-out as an error; received
// messages are kept in a generic mailbox, Mailbox[M], one message per
// sender. A process that fell behind (messages of later rounds in its
// mailbox) jumps to the latest round it heard of, computed as a maximum over
// the mailbox, and updates its value only if it heard n-f values of that
// round.
//
// # Mutants (mutants.txt)
//
//   - max-from-zero: the latest round is computed from 0 instead of from the
//     current round, so an empty mailbox sends the process back to round 0.
//   - round-from-history: messages are stamped with the number of values
//     computed so far plus one, which is not the round after a skipped round.
//   - one-round-of-lag: the filter keeps values of the previous round too.
//   - no-catch-up: the jump is left out; values of later rounds stay in the
//     mailbox while the process updates its value in its own round.
package kset
