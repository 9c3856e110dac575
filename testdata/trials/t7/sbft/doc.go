// Package sbft is the ordering protocol of SBFT (Gueta et al., "SBFT: a
// Scalable and Decentralized Trust Infrastructure", DSN 2019) on its linear
// PBFT path: for each slot the primary pre-prepares a block, replicas send a
// signature share to the collector, the collector combines 2f+1 shares into
// a prepare certificate and broadcasts it, and likewise for commit. A
// replica that waits too long moves to the next view: every replica sends
// its highest prepare certificate of the slot, and the new primary
// re-proposes the one of the highest view (PBFT's view change). Threshold
// signatures are modelled by the set of signers. The collector is the
// primary of the view (SBFT rotates collectors; that does not change the
// round structure). State transfer is left out (a replica that jumps over a
// slot leaves it empty), and so are the proofs of a new view: replicas
// trust the new primary's choice, which is safe for crash faults only.
//
// # Style
//
// Loop style: Replica.Run is one loop whose iteration orders one slot; the
// tag is three receiver fields r.view,r.seq,r.step, set before the loop; the
// slot advances at its end (commit) and every step sets r.step as it
// starts. The Replica struct holds the inbox (<-chan Msg, //sync:inbox) and
// the peers table ([]chan<- Msg indexed by id, //sync:peers). One message
// type with a nested header (//sync:msg Hdr.View,Hdr.Seq,Hdr.Step). Every
// reception is the await helper: a select between the inbox and a timer of
// an injected Clock, which drops older rounds and ends the wait on a later
// round a replica may catch up with (a view change of a later view, a
// primary's proposal, a commit certificate). The caller then jumps to it
// (r.view, r.step = m.Hdr.View, m.Hdr.Step) and the message becomes the
// mailbox of the round it jumped to.
//
// # Mutants (mutants.txt)
//
//   - view-change-same-view (syncmono): a time-out enters the view change
//     of the current view instead of the next.
//   - share-is-proposal (syncsend): the replica signs and returns the
//     pre-prepare message itself as its share, header included.
//   - filter-view-only (syncrecv): the wait drops only older views, so a
//     prepare share counts as a commit share.
//   - commit-before-jump (syncjump): a commit certificate of a later view is
//     applied before the replica moves to that view.
package sbft
