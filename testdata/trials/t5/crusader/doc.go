// Package crusader implements Dolev's crusader agreement followed by one
// round of graded voting, repeated for a sequence of instances, for n > 3t
// processes of which up to t are Byzantine.
//
// Source: D. Dolev, "The Byzantine generals strike again" (J. Algorithms,
// 1982) for crusader agreement; the grading round follows the graded
// consensus of Feldman and Micali ("An optimal probabilistic protocol for
// synchronous Byzantine agreement", SIAM J. Comput. 1997), as used as the
// first half of many Byzantine agreement protocols.
//
// Every instance runs three fixed rounds:
//
//	Input  every process broadcasts its input;
//	Echo   a process that saw one value from n-t processes echoes it, else ⊥;
//	Vote   a process that saw one value echoed by n-t processes outputs it
//	       as its crusader value (else ⊥) and broadcasts it as its vote;
//	       n-t votes for v give v with grade 2, t+1 give v with grade 1.
//
// Crusader agreement: no two correct processes output different non-⊥
// crusader values. Graded agreement: if a correct process outputs (v, 2),
// every correct process outputs (v, 1) or (v, 2).
//
// # Style
//
// Loop style: Node.Run is one loop, one iteration per instance, tagged
// //sync:tag c.instance,c.round with receiver fields; the round is reset
// at the start of the iteration. There is one message type per round, whose
// round is a constant in its annotation (//sync:msg Instance,Echo). The
// transport is an interface whose methods carry //sync:send and //sync:recv;
// receptions go through a generic helper, gather[M], that keeps the
// messages of type M (the round) of the current instance.
//
// # Mutants (mutants.txt)
//
//   - instance-reset: each call of Run restarts the instance numbering, so a
//     second call goes back to instance 1 (syncmono).
//   - vote-before-round: the vote is broadcast before the process moves to
//     round Vote, so a Vote leaves while the tag is still at Echo (syncsend).
//   - no-instance-filter: gather keeps messages of the right round of any
//     instance, so a delayed Echo of the previous instance counts (syncrecv).
//   - future-instance: gather keeps messages of later instances too, and the
//     process counts them without moving to their instance (syncjump).
package crusader
