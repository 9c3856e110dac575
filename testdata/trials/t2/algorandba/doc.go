// Package algorandba is the binary Byzantine agreement BA* of Algorand
// (Micali, "Byzantine Agreement, Made Trivial", 2017; Gilad, Hemo, Micali,
// Vlachos, Zeldovich, "Algorand", SOSP 2017, BinaryBA*), with every process
// in the committee and a shared pseudo-random coin.
//
// Processes agree on a bit (0: the proposed block, 1: the empty block). Each
// period has three steps; in each step a process gossips its bit and counts
// the votes of the step, waiting for n-f of them. Step 1 is "coin fixed to
// 0" (2f+1 zeros decide 0), step 2 is "coin fixed to 1" (2f+1 ones decide
// 1), step 3 is "coin genuinely flipped". A process that decided keeps
// voting its decision for one more period, so that the others decide, then
// stops.
//
// Style: the tag is two fields of a state struct built by a composite
// literal, st := &baState{period: 1, step: 1}, annotated
// //sync:tag st.period,st.step; the step is a plain int counter that
// advances through the period and is reset to 1 at the end of the
// iteration, when the period advances. One message type carries the tag in
// two fields (//sync:msg Period,Step). The transport is a concrete Bus type
// whose Gossip method is //sync:send and Next method //sync:recv. Votes are
// gossiped and counted through helpers (st.vote, st.count). The loop ends
// early with break once a decided process has helped for a period.
//
// Mutants (mutants.txt):
//   - period-only-on-coin (syncmono): the period advances only when the coin is used, but the step is reset to 1 every time.
//   - early-next-step-vote (syncsend): on deciding in step 1 the next step's vote is gossiped right away.
//   - votes-of-earlier-periods (syncrecv): only votes of later periods are dropped, so earlier periods' votes count.
//   - keep-early-votes (syncjump): votes of later steps are kept and counted without moving to their step.
package algorandba
