// Package syncmono defines an Analyzer for condition I of a
// synchronization tag: the synchronization tag never decreases.
//
// # Analyzer syncmono
//
// syncmono: check that the synchronization tag never decreases (condition I)
//
// Condition I of Definition 4 of "Reducing asynchrony to synchronized
// rounds" (Drăgoi and Widder). Together the four conditions make a
// //sync:tag loop communication-closed: no message crosses a round
// boundary, so every asynchronous execution is indistinguishable from a
// lock-step round-based one.
//
// The analysis itself is the shared tag dataflow of package tagflow; this
// analyzer reports its findings for condition I: violations, and
// "cannot prove" diagnostics where the dataflow could not decide.
package syncmono
