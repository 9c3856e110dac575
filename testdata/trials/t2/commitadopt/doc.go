// Package commitadopt is consensus for crash faults (n > 2f) built from
// repeated commit-adopt phases (Gafni, "Round-by-round fault detectors",
// PODC 1998; Aspnes, "A modular approach to shared-memory consensus",
// 2012, with a conciliator that uses a common coin).
//
// A phase has two rounds. In Propose every process broadcasts its value and
// waits for n-f proposals; it is a commit candidate if all of them carry its
// value. In Check it broadcasts its value and that flag, and waits for n-f
// checks: if all are unanimous for v it commits v; if one is, it adopts v;
// otherwise the conciliator picks one of the values seen by the phase's
// coin. Two processes never commit different values, and once one commits
// v every process that finishes the phase adopts v. A process that
// committed sends the next phase's proposal and check for its value (every
// proposal of that phase is its value) and stops.
//
// Style: the tag is two locals, phase, step := 0, ProposeStep, annotated
// //sync:tag phase,step; the phase is increased and the step reset at the
// start of each iteration. There is one message type per round with a
// constant step (//sync:msg Phase,ProposeStep and Phase,CheckStep) and one
// channel per message type and process (two //sync:peers and two
// //sync:inbox fields). The mailbox is a generic quorum collector,
// quorum[M], and sending goes through a generic helper, broadcast[M]. The
// receptions are selects on the inbox and the context; the loop ends with
// break after the helping phase.
//
// Mutants (mutants.txt):
//   - propose-then-advance (syncsend): the next proposal is sent, stamped phase+1, before the phase is increased.
//   - stale-checks (syncrecv): checks of earlier phases are kept.
//   - early-proposals (syncjump): proposals of later phases are kept and counted without moving to their phase.
//
// No syncmono mutant: the tag is only written at the top of the loop and
// before the Check broadcasts, and no natural mistake moves it back.
package commitadopt
