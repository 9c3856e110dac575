// Package simplex implements the iteration structure of Simplex consensus
// (Chan and Pass, "Simplex Consensus: A Simple and Fast Consensus
// Protocol", TCC 2023) for n > 3f processes, with crash faults only (no
// signatures are checked).
//
// Iteration h has a leader, h mod n. The leader proposes a block extending
// the last notarized block it knows; every process votes for the leader's
// block, or for the dummy block ⊥h if its timer (3Δ) fires first. A block
// with votes from a quorum of 2n/3 processes is notarized and the process
// moves on; if it voted for a real block it sends a finalize message, and a
// quorum of finalize messages for h finalizes the chain ending in h's
// block. A process that sees votes of a later iteration (it fell behind)
// jumps to that iteration and counts its votes.
//
// # Style
//
// Channels and select with timers: each process owns a buffered inbox
// (//sync:inbox) and sends on its peers' channels (//sync:peers); every
// reception is a select between the inbox and a timer. The tag
// (p.iter, p.step) lives in a struct that Run creates with a composite
// literal (p := &proc{iter: 0, step: Propose, ...}); each iteration starts
// with p.iter++ and p.step = Propose. There is one message type, Msg,
// whose tag is in a nested header (//sync:msg Hdr.Iter,Hdr.Step). The
// Propose reception ends with the leader's block or with a vote of this or
// a later iteration (the others stopped waiting), after which the process
// moves to that vote's round; the vote reception keeps votes of later
// iterations, and after it the process jumps to the latest iteration of its
// mailbox.
//
// # Mutants (mutants.txt)
//
//   - iteration-from-tip (syncmono): the next iteration is computed as the
//     tip's iteration plus one, which goes back after a dummy iteration.
//   - relay-after-moving-on (syncsend): the notarization is relayed after the
//     process moved to round Finalize.
//   - vote-filter-forgets-iteration (syncrecv): the vote reception keeps
//     votes of earlier iterations.
//   - notarize-without-jump (syncjump): a quorum of votes of a later
//     iteration is used without moving to that iteration.
package simplex
