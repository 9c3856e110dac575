// Package gradecast implements a sequence of gradecast instances, the
// graded broadcast primitive of Feldman and Micali ("An optimal
// probabilistic protocol for synchronous Byzantine agreement", SIAM J.
// Comput. 1997), for n > 3f processes of which f may be Byzantine.
//
// In instance k the dealer (process (k-1) mod n) gradecasts a value in
// three rounds:
//
//	Propose  the dealer sends its value to everybody
//	Echo     every process sends the value it got from the dealer to everybody
//	Vote     a process that got n-f echoes of a value v sends v to everybody
//
// and outputs (v, 2) on n-f votes for v, (v, 1) on f+1 votes for v and
// (⊥, 0) otherwise. Graded agreement: if an honest process outputs (v, 2),
// every honest process outputs v with grade at least 1.
//
// # Style
//
// Channels: every process owns a buffered inbox (a chan Msg, annotated
// //sync:inbox) and sends on the peers' channels (//sync:peers) under a
// network-wide lock, so a broadcast is atomic and delivery is causal.
// The tag is (p.inst, p.step), fields of the receiver of Process.Run,
// reset at the start of each iteration (p.inst++, p.step = Propose).
// There is one message type per round, each with a constant round in its
// annotation (//sync:msg Inst,Echo). The rounds are written one after the
// other in the loop body, each reception calls a comma-ok helper
// (m, ok := p.await(timer)) and picks its message type with a type
// assertion, or a type switch in round Echo, which also ends when a vote of
// the instance arrives (its sender's echo round is over) and hands that
// vote to the Vote round. The Propose round keeps a proposal of a later instance too:
// a process that fell behind catches up by jumping to that instance.
// Echoes and votes are counted by one generic function, tally.
//
// # Mutants (mutants.txt)
//
//   - loop-counter-instance (syncmono): the instance is set from the loop
//     counter, which undoes a jump to a later instance.
//   - pipelined-proposal (syncsend): the next dealer sends its next proposal
//     while still voting in the current instance.
//   - vote-any-instance (syncrecv): the vote reception forgets the instance
//     check, so votes of an earlier instance are counted.
//   - echo-without-catch-up (syncjump): a proposal of a later instance is
//     echoed without jumping to that instance.
package gradecast
