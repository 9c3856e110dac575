// Package qbft is a blind trial protocol for ccvet: the normal case and the
// round change of QBFT, the Istanbul BFT consensus of Moniz, "The Istanbul
// BFT Consensus Algorithm" (arXiv 2002.03613, 2020) as implemented in
// go-quorum and Besu (IBFT 2.0 / QBFT), for n = 3f+1 validators.
//
// For every height the validators run rounds. In round r of height h the
// leader (h+r) mod n sends a PRE-PREPARE with a value; validators answer
// with PREPARE; a validator that sees a quorum (2f+1) of PREPAREs for the
// value is prepared on it and sends COMMIT; a quorum of COMMITs decides the
// height, and the validator moves to round 0 of the next height. A timer
// that expires moves the validator to round r+1 and makes it send a
// ROUND-CHANGE carrying the value it prepared, if any. The leader of the new
// round proposes once it holds a quorum of ROUND-CHANGEs, and must propose
// the value prepared in the highest round among them; the ROUND-CHANGEs are
// the justification of its PRE-PREPARE, which every validator checks.
//
// One departure from the paper: a validator that receives a ROUND-CHANGE or a
// justified PRE-PREPARE of a later round moves to that round at once (and
// sends its own ROUND-CHANGE), instead of waiting for f+1 of them. Waiting
// would mean keeping messages of a later round without acting on them.
//
// # Style
//
// Handler style, in the process form of //sync:tag: Instance carries
// //sync:tag height,round on its type and a driver calls its entry points
// (Start, OnPrePrepare, OnPrepare, OnCommit, OnRoundChange, OnTimeout), each
// marked //sync:handler. The mailboxes are the per-round maps of Instance,
// emptied by enterRound whenever the tag changes. Messages share a nested
// header (m.Hdr.Height, m.Hdr.Round); the Message interface that the network
// carries exposes the same tag through methods. The message kind (Code,
// numbered as on the wire) is not part of the tag. The network is an
// interface whose Broadcast is //sync:send.
//
// # Mutants (mutants.txt)
//
//   - stale-timer-round (syncmono): OnTimeout trusts the round of the timer
//     that fired, so a late timer of an old round moves the validator back.
//   - next-height-keeps-round (syncsend): the first PRE-PREPARE of the next
//     height carries the round in which the previous height was decided.
//   - commit-any-round (syncrecv): COMMITs of older rounds are no longer
//     dropped, so they help decide this one.
//   - proposal-no-jump (syncjump): a justified PRE-PREPARE of a later round is
//     accepted without moving to its round.
//   - buffer-roundchanges (syncjump): the f+1 rule of the paper, keeping
//     ROUND-CHANGEs of later rounds until f+1 of them arrived.
package qbft
