// Package syncrecv defines an Analyzer for condition III of a
// synchronization tag: only messages of the current or a later round are stored.
//
// # Analyzer syncrecv
//
// syncrecv: check that a received message is stored only if it is from the current or a later round (condition III)
//
// Condition III of Definition 4 of "Reducing asynchrony to synchronized
// rounds" (Drăgoi and Widder). Together the four conditions make a
// //sync:tag loop communication-closed: no message crosses a round
// boundary, so every asynchronous execution is indistinguishable from a
// lock-step round-based one.
//
// The analysis itself is the shared tag dataflow of package tagflow; this
// analyzer reports its findings for condition III: violations, and
// "cannot prove" diagnostics where the dataflow could not decide.
package syncrecv
