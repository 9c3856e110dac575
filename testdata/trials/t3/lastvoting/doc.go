// Package lastvoting is LastVoting, the Heard-Of rendering of the
// rotating-coordinator consensus of Chandra and Toueg (Charron-Bost and
// Schiper, "The Heard-Of model", Distributed Computing 2009, Algorithm 4;
// model-checked by Tsuchiya and Schiper), written as event handlers. Each
// phase has four rounds: everybody sends its estimate and timestamp to the
// phase's coordinator, which picks the estimate of the latest timestamp
// from a majority (max-timestamp adoption) and sends it as its vote; those
// who adopt it acknowledge; on a majority of acks the coordinator
// announces the decision. Processes that decided keep going so that the
// others can decide too.
//
// Style: handler form. The tag is on the process type, //sync:tag
// phase,step. There is one message type per round, each with its round as
// a constant (//sync:msg Phase,StepCollect, ...) and its own handler
// (OnEstimate, OnVote, OnAck, OnDecide); they share a sealed Message
// interface that the Transport's //sync:send methods take. The mailbox is
// kept in generic Tally[M] values. What a round starts with (the estimate,
// the ack) is sent by enter, the one function that moves the tag forward
// and empties the mailbox. Every handler drops earlier rounds (earlier),
// catches up with later ones (later) before acting; OnTimeout(phase, step)
// ends a round without what it waited for.
//
// Mutants (mutants.txt):
//   - lastvoting-timeout-phase-only (syncmono): a late timer of an earlier
//     step moves the process back.
//   - lastvoting-decide-after-next-phase (syncsend): the Decide is sent
//     after the coordinator moved to the next phase.
//   - lastvoting-estimates-never-reset (syncrecv): the estimates of an
//     earlier phase are counted.
//   - lastvoting-late-acks (syncrecv): acks are counted after the Ack step.
//   - lastvoting-vote-same-phase-no-jump (syncjump): the vote of the
//     current phase is adopted before moving to its round.
//   - lastvoting-decide-no-jump (syncjump): a Decide of a later phase is
//     recorded without moving to it.
package lastvoting
