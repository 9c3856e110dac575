// Package tmvote is the Tendermint consensus algorithm (Buchman, Kwon and
// Milosevic, "The latest gossip on BFT consensus", arXiv:1807.04938,
// Algorithm 1), written as the handlers of a consensus state the way
// Tendermint's consensus/state.go is: HandleProposal, HandleVote,
// HandleCommit and the three timeouts OnTimeoutPropose, OnTimeoutPrevote
// and OnTimeoutPrecommit, each called with the height and round it was
// scheduled for. A validator prevotes the proposal unless it is locked on
// another value (and the proposer shows no later proof-of-lock round),
// locks and precommits on a quorum of prevotes, and decides on a quorum of
// precommits; a Commit lets validators still at that height catch up.
// Signatures and proof-of-lock contents are left out.
//
// Style: handler form with a three-variable tag on the process type,
// //sync:tag height,round,step. Votes carry their step as their own wire
// enum, mapped onto the step enum: //sync:msg
// Height,Round,Type{PrevoteType:RoundStepPrevote,PrecommitType:RoundStepPrecommit};
// a Proposal carries its step as a constant (RoundStepPropose), a Commit
// only its height (Height,_,_). Messages go out on channels the reactor
// drains. Every handler drops what is before (height, round, step) with
// stale, skips ahead to the round and step of a later message (voting nil
// in the step it skipped to), and enter empties the vote maps (the
// mailbox) at every tag change.
//
// Mutants (mutants.txt):
//   - tmvote-precommit-timeout-any-round (syncmono): a late precommit
//     timeout of an earlier round moves the validator back.
//   - tmvote-propose-timeout-any-step (syncmono): a propose timeout in the
//     Precommit step goes back to Prevote.
//   - tmvote-precommit-typed-prevote (syncsend): the precommit is sent
//     with Type PrevoteType.
//   - tmvote-late-prevotes (syncrecv): prevotes of the current round are
//     counted after the validator moved to Precommit.
//   - tmvote-votes-kept-across-rounds (syncrecv): the vote maps are
//     emptied only when the height changes.
//   - tmvote-vote-step-no-jump (syncjump): a vote of a later step of the
//     round is counted without moving to that step.
//   - tmvote-commit-of-later-height (syncjump): a Commit of a later height
//     is adopted as the current height's decision.
package tmvote
