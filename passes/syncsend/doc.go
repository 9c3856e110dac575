// Package syncsend defines an Analyzer for condition II of a
// synchronization tag: every message sent carries the current tag.
//
// # Analyzer syncsend
//
// syncsend: check that every message sent carries the tag of the round it is sent in (condition II)
//
// Condition II of Definition 4 of "Reducing asynchrony to synchronized
// rounds" (Drăgoi and Widder). Together the four conditions make a
// //sync:tag loop communication-closed: no message crosses a round
// boundary, so every asynchronous execution is indistinguishable from a
// lock-step round-based one.
//
// The analysis itself is the shared tag dataflow of package tagflow; this
// analyzer reports its findings for condition II: violations, and
// "cannot prove" diagnostics where the dataflow could not decide.
package syncsend
