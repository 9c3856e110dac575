// Package phasequeen implements the Phase Queen algorithm of Berman, Garay
// and Perry ("Towards optimal distributed consensus", FOCS 1989) for
// synchronous Byzantine agreement among n > 4f processes, on arbitrary
// string values.
//
// The algorithm runs f+1 phases of two rounds. In round Exchange every
// process broadcasts its value and computes the most frequent value maj it
// received and its multiplicity mult. In round Crown the queen of the phase
// (process k-1 in phase k) broadcasts its maj; a process keeps its maj if
// mult > n/2 + f and takes the queen's value otherwise. One of the f+1
// queens is honest, and after its phase every honest process holds the same
// value, which no later phase changes.
//
// # Style
//
// The transport is a generic interface, Transport[M], whose methods are
// annotated //sync:send and //sync:recv; the protocol uses
// Transport[Msg], where Msg is an interface implemented by the two message
// types, one per round with a constant round in the annotation
// (//sync:msg Phase,Exchange and //sync:msg Phase,Crown). The Exchange
// reception picks the message type with a type switch, the Crown reception
// with a type assertion. The tag (p.phase, p.round) is a pair of receiver
// fields of Process.Run; the loop is a while loop: the round is reset at
// the start of the body and the phase incremented at its end. Every round
// drops the messages of other phases: the protocol is synchronous and
// nobody jumps.
//
// # Mutants (mutants.txt)
//
//   - rerun-phase-without-queen (syncmono): an early continue re-runs the
//     phase and skips the phase increment at the end of the body.
//   - queen-sends-value-message (syncsend): the queen broadcasts its
//     majority as a Value message, stamped with round Exchange.
//   - value-of-any-phase (syncrecv): the Exchange reception forgets the phase
//     check.
//   - keep-later-values (syncjump): the Exchange reception keeps Values of
//     later phases without moving to their phase.
package phasequeen
