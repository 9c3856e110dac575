// Package lastvoting is LastVoting, the Paxos of the Heard-Of model
// (Charron-Bost and Schiper, "The Heard-Of model: computing in distributed
// systems with benign faults", Distributed Computing 22(1), 2009; Algorithm
// 2 of Tsuchiya and Schiper, "Model checking of consensus algorithms"),
// written for ccvet's trial corpus.
//
// A phase φ has four rounds; Coord(p, φ) is chosen outside the algorithm,
// so processes may disagree on it:
//
//	Collect  everybody sends <x, ts> to its coordinator; a coordinator with
//	         more than n/2 of them votes for the x of the largest ts
//	Vote     the coordinator sends its vote; a process that gets it adopts
//	         it (x := v, ts := φ)
//	Ack      processes with ts = φ ack; a coordinator with more than n/2
//	         acks is ready
//	Decide   a ready coordinator sends its vote; receivers decide it
//
// As in every HO algorithm, every process goes through every round of
// every phase and never jumps: a round ends when its expected messages are
// in or its timer fires, and messages of other phases are dropped. The
// safety property tested is agreement.
//
// # Style
//
// The tag is two receiver fields, //sync:tag p.phase,p.round, set before
// the loop (p.phase, p.round = 1, Collect) and advanced at the end of the
// body (p.phase++; p.round = Collect): the body has no continue. One
// message type per round with the round as a constant
// (//sync:msg Phase,Vote). Sends go through a Switch whose Post method is
// //sync:send; each reception is written in place as a labelled loop
// around a select on the process's channel (//sync:inbox) and a timer of
// its own, with a type assertion in the case. The coordinator's ack set is a map made once
// before the loop and cleared with clear(acks) in each phase it
// coordinates.
//
// # Mutants (mutants.txt)
//
//   - retry-phase-without-advance (syncmono): a continue skips the phase
//     increase at the end of the body and resets the round.
//   - vote-before-round-change (syncsend): the coordinator votes while
//     still in round Collect.
//   - decide-sent-as-vote (syncsend): the decision is sent as a VoteMsg.
//   - acks-not-cleared (syncrecv): the ack set keeps acks of earlier phases.
//   - later-vote-adopted (syncjump): a later phase's vote is adopted
//     without jumping.
//   - later-estimates-collected (syncjump): the coordinator votes on later
//     phases' estimates without jumping.
package lastvoting
