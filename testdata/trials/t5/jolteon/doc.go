// Package jolteon implements the consensus core of Jolteon (Gelashvili,
// Kokoris-Kogias, Sonnino, Spiegelman, Xiang, "Jolteon and Ditto:
// network-adaptive efficient consensus with asynchronous fallback", FC
// 2022), the two-chain HotStuff variant that became DiemBFT v4, for n = 3f+1
// replicas.
//
// In round r the leader proposes a block that carries a quorum certificate
// (QC) for a block of round r-1, or a timeout certificate (TC) of round r-1.
// A replica votes for it, once per round, if the block extends the highest
// certified block allowed (the QC is of round r-1, or the TC is of round r-1
// and the QC is at least as high as every QC the TC reports), and sends the
// vote to the leader of round r+1. That leader forms a QC from 2f+1 votes,
// moves to round r+1 and proposes. A replica whose round does not end in
// time broadcasts a timeout carrying its highest QC; 2f+1 timeouts of a
// round form a TC that moves every replica that forms it to the next round.
// A block is committed when it and its child, of the next round, are both
// certified (the two-chain rule). Safety: committed chains of correct
// replicas are prefixes of one another.
//
// # Style
//
// Handler style: Replica is the process (//sync:tag round,step on the type)
// with the handlers OnProposal, OnVote, OnTimeout and OnLocalTimeout (the
// pacemaker's timer). Each message type belongs to one step; its round is
// read through a protobuf-style getter (//sync:msg GetRound(),StepVote).
// The replica sends through two helpers annotated //sync:send stamps, which
// stamp the message with the replica's round and id before handing it to
// the Network. Its mailboxes are the maps votes and timeouts, emptied when
// it enters a round. A proposal of a later round, or a vote or timeout of a
// later round, moves the replica to that round (Jolteon's round
// synchronization through certificates).
//
// # Mutants (mutants.txt)
//
//   - stale-timer: OnLocalTimeout times out the round its timer was armed
//     for, so a late timer of an earlier round takes the replica back to it
//     (syncmono).
//   - vote-before-step: the vote is sent before the replica moves to step
//     StepVote (syncsend).
//   - timeout-any-round: OnTimeout does not drop timeouts of earlier rounds,
//     which make the replica give up its round and count towards its TC
//     (syncrecv).
//   - keep-votes: entering a round does not empty the vote mailbox
//     (syncrecv).
//   - timeout-no-join: a timeout of a later round is stored without the
//     replica moving to that round (syncjump).
//   - vote-without-entering: the replica votes for a later round's block
//     without entering that round (syncjump).
package jolteon
