// Package syncjump defines an Analyzer for condition IV of a
// synchronization tag: a process that stores a future message jumps to its round.
//
// # Analyzer syncjump
//
// syncjump: check that a process that stored a message from a future round jumps to it first (condition IV)
//
// Condition IV of Definition 4 of "Reducing asynchrony to synchronized
// rounds" (Drăgoi and Widder). Together the four conditions make a
// //sync:tag loop communication-closed: no message crosses a round
// boundary, so every asynchronous execution is indistinguishable from a
// lock-step round-based one.
//
// The analysis itself is the shared tag dataflow of package tagflow; this
// analyzer reports its findings for condition IV: violations, and
// "cannot prove" diagnostics where the dataflow could not decide.
package syncjump
