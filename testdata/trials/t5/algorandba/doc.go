// Package algorandba implements the BA* agreement of Algorand, in the
// period/step form of Chen, Gilad and Micali, "Algorand Agreement: super
// fast and partition resilient Byzantine agreement" (ePrint 2018/377), for
// n >= 3f+1 processes of which at most f may crash (the cryptographic
// sortition and signatures of the paper are left out: every process votes
// in every step and the leader of a period is fixed).
//
// For every height (block) the processes run periods until they decide. A
// period goes through four steps:
//
//	Propose  the period's leader proposes the starting value of the period,
//	         or its own input if the period starts from ⊥;
//	Soft     every process soft-votes the starting value, or else the
//	         leader's proposal;
//	Cert     a process that saw n-f soft votes for v cert-votes v; n-f cert
//	         votes for v of one period decide v;
//	Next     a process next-votes the value it cert-voted, or ⊥; n-f next
//	         votes for a value make it the starting value of the next
//	         period (⊥ lets the next leader propose anew).
//
// Two quorums of n-f intersect in a correct process, which votes once per
// step: so at most one value is cert-voted per period, and once v is
// decided no quorum of next votes for another value or for ⊥ can form.
//
// # Style
//
// Loop style over channels: Process.Run is one loop, one iteration per
// period, with a three-variable tag held in locals,
// //sync:tag height,period,step; the step is reset at the start of the
// iteration and the period increased at its end (or reset when a height is
// decided). One message type, Vote,
// carries the whole tag in fields (//sync:msg Height,Period,Step). Messages
// go out on one channel to a sequencer that delivers them to everybody
// (//sync:peers) and come in on an inbox channel (//sync:inbox). Most
// receptions go through a helper, p.collect; the Cert step receives inline
// in a select with a timer, keeps cert votes of later periods and next votes
// of its own period (their senders gave up on Cert), and jumps to the latest
// round it stored before counting.
//
// # Mutants (mutants.txt)
//
//   - retry-same-period: a period without a soft quorum is abandoned with
//     continue, which skips the period increment at the end of the loop: the
//     step goes back to Propose in the same period (syncmono).
//   - cert-as-soft: the cert vote is built by copying the soft vote and
//     still says step Soft (syncsend).
//   - collect-any-period: the collect helper drops votes of other heights
//     and steps but not of earlier periods, which then count towards this
//     period's soft and next quorums (syncrecv).
//   - cert-no-jump: a quorum of cert votes of the latest stored period
//     decides, but the process never moves to that period (syncjump).
package algorandba
