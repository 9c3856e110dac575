// Package tendermintev is Tendermint consensus (Buchman, Kwon, Milosevic,
// "The latest gossip on BFT consensus", 2018, Algorithm 1), simplified to a
// lock without valid-round unlocking, and written as an event loop.
//
// Each height decides one value in rounds of three steps: Propose (the
// round's proposer broadcasts a value, its locked value if it has one),
// Prevote (validators prevote the proposal if they are not locked on another
// value, nil otherwise) and Precommit (2f+1 prevotes for v lock v and
// precommit it; 2f+1 precommits for v decide v). Every step has a time-out
// that moves on with a nil vote; a Precommit time-out starts the next round.
//
// Style: one loop, Node.Run, reacts to whichever event comes first in a
// single select per iteration: a message, the step timer or the context.
// The tag is three receiver fields, //sync:tag c.height,c.round,c.step, and
// it is only written by the helpers the loop calls (startRound, jump,
// enterPrevote, enterPrecommit, handle, onTimeout). One message type, passed
// by pointer, carries the tag in three fields (//sync:msg Height,Round,Step).
// A message of an older height, round or step is dropped; a message of a
// later round or step makes the node jump there first (with a nil vote for a
// step it skipped) and then handle it. The f+1 rule for skipping rounds is
// kept in the receiving gossip layer, which releases messages of a later
// round only once f+1 validators sent some, and holds back later heights.
// Broadcast on Network is //sync:send; messages arrive on the gossip
// layer's channel.
//
// Mutants (mutants.txt):
//   - retry-round-on-precommit-timeout (syncmono): a Precommit time-out restarts the same round.
//   - repropose-in-pol-round (syncsend): a re-proposal of the locked value is stamped with the round it was locked in.
//   - late-votes-same-round (syncrecv): votes of an earlier step of the current round are handled.
//   - no-catch-up (syncjump): messages of later rounds or steps are handled without moving there.
package tendermintev
