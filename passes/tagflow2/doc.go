// Package tagflow2 is the second engine of ccvet's tag dataflow: the four
// conditions of a //sync:tag loop computed as a monotone framework over
// SSA, instead of the first engine's enumeration of paths.
//
// The function containing the loop is built in naive SSA form, so that a
// tag held in locals and one held in a struct's fields are both memory
// locations. One forward fixpoint over the function's control-flow graph
// (honnef.co/go/tools/analysis/dfa/dense) computes, at every block, an
// abstract state:
//
//   - the constants each tag component may hold (a round enum),
//   - the relation of the current tag to the tag at the last communication
//     point (condition I),
//   - terms: every message, collection of messages and tag integer the
//     code holds, each with the set of component-wise relation vectors
//     in {<,=,>}^k it may have with the current tag (package lexrel), and
//   - the mailboxes that may hold a message of a later round, which
//     condition IV wants the process to jump to.
//
// Loop-head invariants come from the fixpoint: at the head of
//
//	for p.r < 10 { ...; p.step = Propose; ...; p.r++; p.step = Estimate }
//
// step is Estimate on every path in, so a send of Step: Estimate there
// carries the current tag. A filter m.R == p.r && m.Step == Estimate
// restricts the received message's vectors, and a store then keeps only
// messages of the current round. Joins lose correlations between terms,
// never the disjunctions of one term's relation.
//
// Findings: a condition is violated where a vector that breaks it is
// realised: the term's relation is exact (each vector is realised on some
// path, given that a message of any round may arrive and that tests of
// data go either way) on the components that decide the vector, and for
// III and IV some send of the package puts such a tag on the wire. A
// component whose relation over-approximates (an assumed entry round, a
// kind the driver chooses, a tag change mapping a relation to several) is
// loose: vectors decided before it still count. Everything else the
// fixpoint cannot prove is "cannot prove", with its cause. This engine is
// selected with CCVET_TAGFLOW=v2 while it grows; its result has the first
// engine's type.
package tagflow2
