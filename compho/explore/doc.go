// Package explore explores the lock-step executions of round-based
// (CompHO) machines, such as the ones make-HO generates: Explore searches
// the reachable global states breadth first under a network assumption
// (AnyLoss, Deliver, Kernel, RoundKernel, Isolations, UniformRound, or
// one of the user's), checks invariants on each, and returns the
// shortest counterexample as a lock-step trace and a compho.Scripted
// script; Sample runs random executions (compho.LossySync,
// compho.RandomLoss) in parallel, reports the failure rate with a 95%
// interval, and shrinks a failing run to a minimal set of lost messages.
//
// The machines must implement compho.Cloner and compho.Keyer (make-HO
// generates both). A step's successors are computed per receiver: each
// receiver's Update runs once per HO set the network allows it, on a copy
// of its state, and the distinct outcomes are combined. Process states are
// interned, a global state is the vector of their numbers, and the
// visited set holds those exact keys, so that counts are exact.
// Optionally, the phase counters are abstracted (Model.AbstractCounters)
// and interchangeable processes are reduced by symmetry
// (Model.Symmetric).
//
// See docs/explore.md for the user reference.
package explore
