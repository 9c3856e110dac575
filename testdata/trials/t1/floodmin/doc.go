// Package floodmin implements FloodMin, the FloodSet consensus algorithm of
// Lynch's "Distributed Algorithms" (Sec. 6.2) deciding the minimum, for a
// synchronous system with at most f crash failures: every process floods the
// set of values it knows for f+1 rounds and then decides the smallest one.
//
// Rounds are synchronous: each round lasts a fixed period measured by a
// timer, and a message of round r is used only in round r (a message that
// misses its round is as good as lost, which FloodSet tolerates only for
// the messages of crashed processes).
//
// # Style
//
// The round is the only synchronization variable: //sync:tag p.round, a field
// of the receiver of Process.Run, incremented at the end of each iteration.
// The single message type Flood carries its round in a field
// (//sync:msg Round). The network is plain Go channels: a table of the
// peers' inboxes, and a reception written as a labeled for/select over the
// inbox and the round's timer.
//
// # Mutants (mutants.txt)
//
//   - round-numbered-from-one: the flood message is stamped p.round+1.
//   - keeps-late-floods: the filter drops only messages of later rounds, so a
//     late message of an earlier round is merged.
//   - merges-early-floods: the filter drops only messages of earlier rounds,
//     so values from a process already in a later round are merged into W
//     without the receiver moving to that round.
package floodmin
