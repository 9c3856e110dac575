// Package tendermint implements the Tendermint consensus algorithm
// (Buchman, Kwon and Milosevic, "The latest gossip on BFT consensus", 2018,
// Algorithm 1) for a sequence of heights, with n = 3f+1 validators: in each
// round the proposer proposes (its valid value if it has one), validators
// prevote the proposal if it is compatible with their lock, lock and
// precommit a value with 2f+1 prevotes, and decide a value with 2f+1
// precommits; time-outs turn a missing proposal or quorum into nil votes
// and a failed round into the next one. Proposals are trusted to report
// their valid round truthfully (there are no signatures: crash faults).
//
// # Style
//
// The loop is an event loop: one select per iteration over the round timer
// and the inbox, and handlers (onTimeout, onProposal, onVote) that move the
// state forward. The tag has three variables, //sync:tag
// t.height,t.round,t.step, fields of the receiver. Proposal has the step as
// a constant in its //sync:msg, Vote carries it in its Type field. The
// mailboxes are fields of the node (proposal, prevotes, precommits) that
// startRound empties whenever the round changes.
//
// A message of a later round of the height, or of a later step of the
// round, makes the node skip there at once (advance), casting the nil vote
// of the step it lands in; Tendermint skips rounds on f+1 such messages, but
// a node that stored a message of a later round without moving to it
// would break condition IV of communication closure, so the node skips on
// the first one (liveness against Byzantine senders is not a goal here).
// Messages of other heights are dropped.
//
// # Mutants (mutants.txt)
//
//   - round-zero-before-height: on a decision, round 0 is started (and
//     proposed in) before the height is incremented.
//   - prevote-before-step: the prevote (Type: Prevote) is broadcast before
//     the step moves to Prevote.
//   - late-prevotes-count: the vote filter compares rounds only, so prevotes
//     of the round are stored in the Precommit step.
//   - skip-rounds-only: the node skips to later rounds but not to a later
//     step of its round, and stores such votes without moving.
package tendermint
