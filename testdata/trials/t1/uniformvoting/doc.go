// Package uniformvoting implements the UniformVoting consensus algorithm of
// the Heard-Of model (Charron-Bost and Schiper, "The Heard-Of model:
// computing in distributed systems with benign faults", Distributed
// Computing 2009, Algorithm 3), made asynchronous: each round waits for the
// messages of a majority of the processes (or a time-out), which gives the
// no-split predicate its safety needs.
//
// A phase has two rounds. Estimate: send x, set x to the smallest value
// received and vote for it if every value received was the same. Vote: send
// (x, vote); adopt a vote if one was received, otherwise the smallest x;
// decide v if every message received carries the vote v.
//
// # Style
//
// The tag is two fields of the receiver of Node.Run, //sync:tag
// u.phase,u.step; u.step is reset at the start of an iteration and u.phase
// incremented at its end (and on the early exit of a phase that heard from
// too few processes). The message is written as protoc-gen-go would
// generate it: a pointer type *Estimate with int32 fields and nil-safe
// getters; //sync:msg names the fields Phase,Step, and the code reads them
// only through GetPhase() and GetStep(). The network is channels of
// *Estimate: a table of peer inboxes and an inbox read in a helper,
// u.gather(), with a select over a timer.
//
// # Mutants (mutants.txt)
//
//   - skip-phase-without-increment: a phase whose Estimate round heard from
//     too few processes is abandoned without u.phase++, so the next iteration
//     resets the step inside the same phase.
//   - vote-sent-in-estimate-round: the Vote message is broadcast before the
//     step moves to Vote.
//   - gather-keeps-earlier-phases: the filter drops only later phases, so a
//     late message of an earlier phase is counted in the current round.
//   - gather-keeps-later-phases: the filter drops only older phases and keeps
//     messages of later phases without the node jumping to them.
package uniformvoting
