// Package hotstuff implements basic HotStuff (Yin, Malkhi, Reiter, Golan
// Gueta and Abraham, "HotStuff: BFT consensus with linearity and
// responsiveness", PODC 2019, Algorithm 2) for a sequence of views with a
// rotating leader (view mod n). In each view the replicas send NewView with
// their prepareQC to the leader; the leader extends the highest QC among
// n-f of them and broadcasts Prepare; replicas vote for a safe proposal;
// the leader turns n-f votes into a QC and broadcasts it, three times
// (PreCommit, Commit, Decide): replicas update prepareQC, lock, and commit
// the branch. A view whose messages do not come in time is abandoned (the
// pacemaker's time-out). Nodes carry their whole branch of commands, and
// there are no signatures: a QC is trusted as the crash-fault simplification.
//
// # Style
//
// The tag is //sync:tag h.view,h.phase on fields of the receiver of
// Replica.Run; h.view is incremented and h.phase reset at the start of each
// iteration. All rounds share one message struct whose tag sits in a nested
// header (//sync:msg Hdr.View,Hdr.Type); filters compare the whole header
// with the replica's, m.Hdr == h.hdr(). The three voting rounds are written
// once, in a loop over the vote phases that sets h.phase. The transport is
// a Transport interface whose Recv fails with ErrTimeout; receptions go
// through helpers handed a predicate as a method value (h.next(h.isCurrent))
// or filtering on the header (h.gather). A replica that receives the
// Prepare of a later view from that view's leader jumps to that view.
//
// # Mutants (mutants.txt)
//
//   - view-from-highest-qc: the leader resets its view to the view after the
//     highest QC it collected, which is behind it after a failed view.
//   - vote-copies-proposal-header: a vote reuses the header of the proposal
//     it answers, so it carries the proposal's round.
//   - votes-of-older-views: the leader's filter drops only later views, so
//     votes of an earlier view of the same type count.
//   - proposal-no-jump: the Prepare of a later view is accepted and voted
//     for without the replica moving to that view.
package hotstuff
