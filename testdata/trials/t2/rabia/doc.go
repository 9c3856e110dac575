// Package rabia is the weak multi-valued consensus of Rabia (Pan, Tuglu,
// Zhou, Chen, Wu, Dai, Zhang, "Rabia: Simplifying State-Machine Replication
// Through Randomization", SOSP 2021, Algorithm 1), for crash faults with
// n = 2f+1 and a common coin.
//
// For each log slot, replicas first exchange their proposals (round
// Propose, first phase only): a replica that sees one proposal from a
// majority starts with state 1, otherwise 0. Then a randomized binary
// consensus runs in phases of two rounds. In State a replica broadcasts its
// state and votes v if a majority of the n-f states it gets are v, "?"
// otherwise. In Vote it broadcasts its vote; f+1 votes for v decide v, one
// vote for v sets the state to v, and otherwise the state is the phase's
// common coin. Deciding 1 commits the majority proposal to the slot,
// deciding 0 leaves the slot empty. A replica that decided takes part in
// one more phase, voting its decision, and stops.
//
// Style: the tag is three locals of Decide, //sync:tag slot,phase,round,
// the slot being a parameter that stays fixed; the phase is increased and
// the round reset at the start of each iteration. One message type carries
// the round in a field (//sync:msg Slot,Phase,Round); the message literals
// name their round as a constant. The Transport interface's Send is
// //sync:send and messages arrive on the channel that Inbox returns, read
// in a select with a timer and the context; a helper broadcasts, another
// collects. The loop ends with break once the decision has been helped
// along.
//
// Mutants (mutants.txt):
//   - state-before-propose (syncmono): the round is reset to State, then set back to Propose for the first phase.
//   - vote-as-state (syncsend): the vote is sent with round State, copied from the state broadcast.
//   - stale-phases (syncrecv): the collector drops later phases only, so states and votes of earlier phases are counted.
//   - early-votes (syncjump): states and votes of later phases are kept and counted without moving to that phase.
package rabia
