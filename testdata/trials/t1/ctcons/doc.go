// Package ctcons is the rotating-coordinator consensus of Chandra and Toueg
// for the failure detector ◇S ("Unreliable failure detectors for reliable
// distributed systems", J. ACM 43(2), 1996, Fig. 6), written for ccvet's
// trial corpus. A timeout plays the failure detector's suspicion.
//
// The coordinator of phase r is process (r-1) mod n. A phase has four
// rounds:
//
//	Estimate  everybody sends its estimate and its timestamp (the phase it
//	          was adopted in) to the coordinator
//	Propose   the coordinator, with a majority of estimates, proposes the
//	          one with the highest timestamp
//	Ack       a process that got the proposal adopts it (ts = r) and acks;
//	          one that timed out (suspects the coordinator) nacks
//	Decide    a coordinator with a majority of acks sends the decision
//
// The paper's reliable broadcast of the decision is replaced by the
// Decide round; a process that misses it goes on to later phases, whose
// proposals carry the same value. A process that receives the proposal of
// a later phase's coordinator catches up to that phase. The safety
// properties tested are agreement and validity.
//
// # Style
//
// The tag is two locals declared before the loop (var phase int; var
// round Round; //sync:tag phase,round). The phase is the loop's own
// counter (for phase = 1; phase <= maxPhases; phase++), so it increases
// at the end of every iteration, continue or not, and the round is reset
// at the start of the iteration (round = Estimate). One message type, Msg,
// carries the round in a field (//sync:msg Phase,Round). The transport is
// a Net with //sync:send methods and a //sync:recv method that takes a
// context and returns an error on timeout. The catch-up jump is taken from
// the one proposal of the mailbox.
//
// # Mutants (mutants.txt)
//
//   - phase-from-loop-counter (syncmono): the phase is reset from a loop
//     counter and goes back after a catch-up.
//   - nack-stamped-with-ts (syncsend): a nack carries the estimate's
//     timestamp as its phase.
//   - stale-estimates (syncrecv): the coordinator keeps estimates of
//     earlier phases.
//   - stale-acks (syncrecv): the coordinator counts acks of earlier phases.
//   - catch-up-without-jump (syncjump): a later phase's proposal is adopted
//     and acked without moving to that phase.
package ctcons
