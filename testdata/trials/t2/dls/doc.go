// Package dls is the consensus algorithm for crash failures under partial
// synchrony of Dwork, Lynch and Stockmeyer ("Consensus in the presence of
// partial synchrony", JACM 35(2), 1988, Sec. 3 and 4), for n >= 2f+1, with
// the rounds simulated by synchronized clocks.
//
// Phase k has coordinator k mod n and four rounds. In Acceptable every
// process broadcasts its proper values (values it knows to be somebody's
// input) and tells the coordinator which of them it finds acceptable (it
// holds no lock on another value). In Lock the coordinator proposes a value
// that at least n-f processes find acceptable. In Ack the processes that
// received the proposal lock it, dated by the phase, and acknowledge it; a
// coordinator with f+1 acknowledgements decides. In Release every process
// broadcasts its lock, and releases its own if somebody holds a lock on
// another value from a later phase; a coordinator that decided announces
// it in the same message, and whoever receives the announcement decides.
// Messages that arrive after their round ended are ignored.
//
// # Style
//
// The tag (phase, round) is made of receiver fields of Proc; round is a Go
// enum. The phase advances and the round is reset at the END of the
// iteration, and the loop has no continue. Rounds end on a clock: every
// reception is a select between the inbox channel and a timer for the end of
// the round, in a helper, collect, that keeps the messages of the current
// round. One message type carries the tag in fields (Phase,Round), and also
// the phase of a lock in another field, LockPhase.
//
// # Mutants
//
//   - skip-without-advance (syncmono): a process that holds no lock skips
//     round Release with continue, jumping over the phase increment and the
//     round reset at the bottom of the loop.
//   - lock-phase-as-tag (syncsend): the Release message is stamped with the
//     phase of the sender's lock instead of the current phase.
//   - late-rounds-kept (syncrecv): collect also keeps late messages of
//     earlier rounds of the phase, so the coordinator counts other rounds'
//     messages as acknowledgements.
package dls
