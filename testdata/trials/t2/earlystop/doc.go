// Package earlystop is early-deciding FloodSet consensus for crash faults
// (Dolev, Reischuk, Strong, "Early Stopping in Byzantine Agreement", JACM
// 1990; Lynch, "Distributed Algorithms", Sec. 6.2 and Exercise 6.18):
// synchronous rounds, up to t crashes, at most t+1 rounds.
//
// In each round a process broadcasts the set of values it knows and merges
// the sets it receives. If it heard from as many processes as in the
// previous round, nobody crashed in between and it knows every value still
// around: it decides the minimum, sends its decision in the next round and
// stops. A process that receives a decision adopts it. After round t+1
// every process decides. A round ends when all n messages arrived, when its
// timer fires, or when a message of the next round arrives: then another
// process has ended the round already, and this one moves on too.
//
// Style: the tag is a parameter and a local, //sync:tag inst,round, the
// round a plain int advanced at the end of the iteration through a local
// next; the jump to the next round is written right after the reception,
// and messages of the next round that were stored are carried into the
// next round's mailbox. The loop ends early with break after the decision
// was sent. One message type (//sync:msg Inst,Round) travels over Go
// channels (//sync:peers, //sync:inbox); the reception is a select on the
// inbox, the round timer and the context.
//
// Mutants (mutants.txt):
//   - any-later-round (syncmono): messages of any later round are accepted; after jumping to the highest, the round is set back to the next one.
//   - announce-decision-early (syncsend): the decision is announced at once, stamped with the next round.
//   - old-rounds-counted (syncrecv): messages of earlier rounds are stored and counted as heard.
//   - no-jump (syncjump): a stored next-round message does not make the process move to that round.
package earlystop
