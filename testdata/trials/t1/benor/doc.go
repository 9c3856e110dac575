// Package benor implements Ben-Or's randomized binary consensus for crash
// faults (M. Ben-Or, "Another advantage of free choice: completely
// asynchronous agreement protocols", PODC 1983), with n > 2f processes.
//
// Every phase has two rounds. In round Report each process broadcasts its
// estimate and waits for n-f reports; a value reported by more than n/2
// processes is proposed, otherwise the process proposes "no value". In round
// Proposal each process broadcasts its proposal and waits for n-f of them: f+1
// proposals of v decide v, one proposal of v adopts v, none flips a coin. The
// coin is a seeded math/rand/v2 generator, so runs can be replayed.
//
// # Style
//
// The synchronization tag lives in two locals of Run, declared before the
// loop as phase, rnd := 1, Report and annotated //sync:tag phase,rnd. The
// round is reset at the start of an iteration and the phase incremented at
// its end; a process that hears from fewer than n-f processes leaves the
// loop (it behaves as crashed), so no path goes round the loop without the
// increment. There is one message type per round with the round given as a
// constant in //sync:msg. The network is a Transport interface whose
// Broadcast is //sync:send and whose Recv, with a time-out, is //sync:recv;
// messages travel as values of type any and are recovered with a type
// assertion.
//
// # Mutants (mutants.txt)
//
//   - retry-without-new-phase: a Proposal round that times out continues the
//     loop instead of leaving it, going back to round Report in the same phase.
//   - propose-before-round-change: the proposal is broadcast before rnd is set
//     to Proposal, so it leaves while the process is still in round Report.
//   - proposals-any-older-phase: the Proposal filter drops only proposals of
//     later phases, so proposals of earlier phases are counted.
//   - reports-of-later-phases: the Report filter drops only older reports and
//     keeps reports of later phases without jumping to them.
package benor
