// Package cometbft is Tendermint consensus (Buchman, Kwon, Milosevic, "The
// latest gossip on BFT consensus", 2018) written the way CometBFT's
// consensus/state.go writes it: a State embedding a RoundState (Height,
// Round, Step of type RoundStepType), handleMsg and handleTimeout, and the
// step functions enterNewRound, enterPropose, enterPrevote, enterPrecommit
// and enterCommit, each guarded against being entered late. Votes carry
// their own SignedMsgType (PrevoteType, PrecommitType); time-outs are local
// timeoutInfo events the driver fires. Block parts, signatures, the
// proposer-priority algorithm (here round robin), block sync and the
// commit time-out are left out.
//
// Two deviations make each round communication-closed. A proposal that
// re-proposes a locked (valid) block carries the prevotes of its POLRound
// (a proof of lock) instead of relying on the prevotes of earlier rounds
// every validator kept; and the vote sets hold the current round only, so
// a prevote arriving after the validator precommitted is dropped. The
// PrevoteWait and PrecommitWait steps are the flags
// TriggeredTimeoutPrevote/TriggeredTimeoutPrecommit rather than values of
// Step, since a validator in them still collects votes of the step before.
//
// # Style
//
// Handler style: //sync:tag Height,Round,Step sits on the State type (the
// fields are promoted from the embedded RoundState); Start, handleMsg and
// handleTimeout are the //sync:handler entry points. Messages travel as a
// Message interface (*ProposalMessage, *VoteMessage) in a msgInfo envelope;
// Vote maps its Type enum onto the step
// (//sync:msg Height,Round,Type{PrevoteType:RoundStepPrevote,...}), and the
// wrappers name the nested fields (Vote.Height, ...). A vote or a proposal
// of a later round of the height makes the validator enter that round
// first (enterNewRound, then enterPrevote/enterPrecommit up to the vote's
// step), then count it. The mailboxes (Proposal, Prevotes, Precommits) are
// emptied by enterNewRound.
//
// state_test.go is the driver: 4 to 7 validators over an in-memory network
// that reorders and delays messages and fires time-outs when the network
// is quiet; it checks that no two validators decide different blocks at a
// height, and that heights get decided.
//
// # Mutants (mutants.txt)
//
//   - update-to-committed-height (syncmono): after a commit the state is
//     reset for the committed height, not the next one.
//   - repropose-round-typo (syncsend): a re-proposal writes ValidRound into
//     Round instead of POLRound.
//   - precommit-signed-as-prevote (syncsend): enterPrecommit signs a
//     PrevoteType vote.
//   - proposal-any-round (syncrecv): setProposal does not check the round,
//     so an old round's proposal is prevoted.
//   - precommits-not-reset (syncrecv): a new round keeps the previous
//     round's precommits.
//   - proposal-without-round-skip (syncjump): a later round's proposal is
//     prevoted without entering its round.
package cometbft
