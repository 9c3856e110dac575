// Package phaseking is the Phase King protocol (Berman, Garay and Perry,
// "Towards optimal distributed consensus", FOCS 1989), in its three-round
// version for n > 3f Byzantine processes and binary values, written for
// ccvet's trial corpus.
//
// Phase k = 1..f+1 has king k-1 and three rounds:
//
//	Exchange  everybody sends its value; a value received at least n-f
//	          times is proposed
//	Propose   proposals are exchanged (a process without one says so); a
//	          value proposed more than f times is adopted, and is kept if
//	          proposed at least n-f times
//	Crown     the king sends its value; a process that did not see n-f
//	          proposals takes it
//
// After f+1 phases the value is the decision. A round ends when the
// expected senders were heard of or its timer fires. Phase King assumes
// synchronous rounds: a message lost because its receiver's timer fired
// can break agreement. So every process sends in rounds Exchange and
// Propose, and the group shares a lock under which a broadcast enqueues
// all its copies, so that a message reacting to another is never
// delivered before it; in runs without loss no timer then fires. Byzantine processes
// are simulated in tests by a lie function that picks the value sent to
// each recipient. The properties tested are agreement and validity among
// honest processes.
//
// # Style
//
// The tag is two receiver fields, //sync:tag p.phase,p.step, with the
// phase increased and the round reset at the start of each iteration.
// Each round has its own message type with the round as a constant
// (//sync:msg Phase,Propose). Messages travel in envelopes on channels:
// the inbox and peer table are annotated //sync:inbox From,Msg and
// //sync:peers From,Msg. One reception helper, collect(need), serves the
// three rounds: it switches on the type of the envelope's message and
// keeps a message only if its type's round is the current step and its
// phase the current phase. Sends go through broadcast(mk), which is handed
// a function literal building the message for each recipient, and
// broadcastProposal(x, some).
//
// # Mutants (mutants.txt)
//
//   - rounds-declared-out-of-order (syncmono): the round enum lists Crown
//     before Propose.
//   - king-sends-value (syncsend): the king sends a Value instead of a
//     KingValue.
//   - stale-values (syncrecv): values of earlier phases are counted.
//   - later-proposals-no-jump (syncjump): proposals of later phases are
//     counted without jumping.
package phaseking
