// Package ibft is Istanbul BFT consensus (Moniz, "The Istanbul BFT Consensus
// Algorithm", 2020, and the IBFT 2.0 variant of Hyperledger Besu), written
// as one replica loop over an abstract Transport.
//
// Every height decides one block. A height is tried in rounds; each round
// goes through the steps RoundChange (rounds above 0 only: every replica
// tells the round's proposer what it prepared, and the proposer re-proposes
// the value prepared in the highest round of a quorum), PrePrepare (the
// proposer's block), Prepare and Commit (quorums of 2f+1 matching digests).
// A step that times out moves the replica to the next round.
//
// Style: the tag is three receiver fields, //sync:tag n.height,n.round,n.step
// (height, round, step); all messages are one type whose tag lives in a
// nested header, //sync:msg Hdr.Height,Hdr.Round,Hdr.Step. Messages are sent
// and collected through helpers (n.broadcast, n.collect) over a Transport
// interface whose methods carry //sync:send and //sync:recv. A round starts
// by setting the step and ends by advancing the round (failure) or the
// height with the round reset to 0 (decision); a replica that sees the
// PrePrepare of a later round of its height jumps to that round.
//
// Mutants (mutants.txt):
//   - commit-timeout-same-round (syncmono): a missing commit quorum restarts the round without increasing it.
//   - commit-reuses-prepare (syncsend): the Prepare message is broadcast again as the Commit vote.
//   - prepare-earlier-rounds (syncrecv): the collector drops votes of later rounds only, keeping earlier rounds' votes.
//   - preprepare-no-jump (syncjump): a PrePrepare of a later round is accepted without moving to that round.
//   - step-before-jump (syncjump): the replica moves to step Prepare before adopting the later PrePrepare's round.
package ibft
