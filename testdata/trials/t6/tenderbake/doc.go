// Package tenderbake is a blind trial protocol for ccvet: the consensus
// rounds of Tenderbake, the Tezos consensus algorithm of Aştefănoaei,
// Chambart, Del Pozzo, Rieutord, Sirbu and Tucci-Piergiovanni, "Tenderbake -
// A Solution to Dynamic Repeated Consensus for Blockchains" (FAB 2021), for
// n = 3f+1 bakers with equal stake.
//
// At each level the bakers run rounds of increasing duration. In round r the
// proposer of (level, r) proposes a payload; bakers preattest it; a quorum
// (2f+1) of preattestations, a PQC, locks the bakers on the payload, and
// they attest it; a quorum of attestations decides the level, and the next
// level starts at round 0. A locked baker preattests only its locked
// payload, or a proposal re-proposing a payload with a PQC of a later round;
// a locked proposer re-proposes its locked payload. The proposal of a level
// carries the attestation quorum of the previous level, so a baker that fell
// behind catches up by adopting that decision and jumping to the level. A
// proposal of a later round of the current level also makes a baker jump to
// that round. Simplifications: finality is taken at the attestation quorum
// (Tenderbake finalises two levels later), stake is uniform and messages are
// not signed.
//
// # Style
//
// Loop style, as an event loop: Baker.Run is one loop tagged
// //sync:tag b.level,b.round,b.step on receiver fields, a three-variable
// tag, whose body is one select per iteration on the inbox and on the
// expired round timers. Each message kind is handled in a case of a switch:
// a message of an earlier round is dropped, a proposal of a later round or
// of the next level (with its certificate) makes the baker jump there, and
// a preattestation or attestation of the current round moves the baker
// forward to its step before it is counted. enter resets the round (and the
// step) and empties the per-round mailboxes whenever the tag changes; a
// decided level enters round 0 of the next one. The iteration after a round
// is entered on a time-out or a decision arms its timer and, for its
// proposer, sends the proposal; a jump arms the timer at once. Timers come
// from an injectable Clock and carry the (level, round) they were armed
// for. There is one message type with its kind in a field of its own enum
// (Kind, with wire values), distinct from the baker's Step enum: the
// message's round is Step(), a method mapping kinds to steps
// (//sync:msg Level,Round,Step()). Sends go through a Gossip interface whose
// Publish is //sync:send; the inbox is a channel parameter of Run.
//
// # Mutants (mutants.txt)
//
//   - stale-timer-round (syncmono): a late timer of an old round moves the
//     baker back to the round after it.
//   - preattest-before-jump (syncsend): the preattestation is built before
//     the baker jumps to the proposal's round.
//   - attestations-earlier-rounds (syncrecv): attestations of earlier rounds
//     of the level are counted.
//   - adopt-round-no-jump (syncjump): a proposal of a later round is handled
//     without moving to its round.
//   - next-level-no-jump (syncjump): a proposal of the next level is handled
//     without moving to that level.
package tenderbake
