// Package bosco is a blind trial protocol for ccvet: BOSCO, the one-step
// Byzantine asynchronous consensus of Song and van Renesse, "Bosco: One-Step
// Byzantine Asynchronous Consensus" (DISC 2008), for binary values, over the
// phase-king protocol of Berman, Garay and Perry (1989) as the underlying
// consensus.
//
// Every process broadcasts its vote and waits for n-f votes. If more than
// (n+3f)/2 of them carry v it decides v at once (one step; n > 5f makes this
// strongly one-step). If more than (n-f)/2 carry v it adopts v. Then it runs
// the underlying consensus from its value, which the fast deciders also take
// part in, so that the others terminate. The underlying consensus is
// phase king, f+1 phases of two rounds: everybody sends its value and waits
// for all n values or the round's time-out (phase king assumes synchronous
// rounds); then the king of the phase (process phase-1) sends its majority
// value, which a process adopts unless its own majority was larger than
// n/2+f.
//
// # Style
//
// Loop style: Run is one loop per process over phases, tagged
// //sync:tag phase,step where phase and step are local variables. Phase 0
// holds BOSCO's vote round only and ends with continue; phases 1..f+1 are
// the two rounds of phase king. The step is set at the start of each round.
// There is one message type, Msg, with the round in a field
// (//sync:msg Phase,Step). The network is plain channels: an inbox
// parameter and a peers table []chan<- Msg indexed by process id, used by
// the helpers broadcast and collect; collect waits with a select on the
// inbox and a timer channel obtained from an injectable After function.
//
// # Mutants (mutants.txt)
//
//   - silent-king-retry (syncmono): a phase whose king stayed silent is run
//     again (phase--), so the tag goes back to the Exchange round of that
//     phase.
//   - king-copy-paste (syncsend): the king's message is stamped with the
//     Exchange step instead of the current one.
//   - exchange-any-phase (syncrecv): collect drops later phases only, so
//     values of an earlier phase are counted in this one.
//   - stale-only-filter (syncjump): collect drops only messages of earlier
//     phases and counts those of later phases without jumping to them.
package bosco
