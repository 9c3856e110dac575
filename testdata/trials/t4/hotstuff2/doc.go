// Package hotstuff2 implements HotStuff-2 (Malkhi and Nayak, "HotStuff-2:
// Optimal Two-Phase Responsive BFT", 2023) in handler style. In every view
// the replicas send their highest QC to the view's leader (NewView), the
// leader proposes a block extending the highest of n-f of them, a first
// round of votes gives a certificate that locks the block, a second one a
// certificate that commits it. A replica votes only for a proposal whose
// justification is at least as recent as its lock. View synchronization is
// a pacemaker: on a time-out, or after a commit, the replica enters the next
// view and hands its highest QC to the new leader; a replica that receives a
// message of a later view jumps to it.
//
// Style: //sync:tag view,phase on the Replica type (receiver fields), two
// //sync:handler entry points (OnMessage, OnTimeout). One message type with
// a nested header carrying the tag (//sync:msg Hdr.View,Hdr.Phase) and a
// switch over its MsgType, an enum distinct from Phase. A routing check
// (routed) comes first; the stale filter and the jump are in one helper
// (catchUp); the mailboxes are maps reset on every tag change; the leader
// picks the highest QC with a generic helper.
// Transport is an interface with //sync:send methods.
//
// Mutants (mutants.txt):
//   - pacemaker-from-highqc (syncmono): the timeout moves to highQC.View+1,
//     which can be an earlier view.
//   - vote-echoes-proposal-header (syncsend): the vote is sent with the
//     proposal's header, of the previous phase.
//   - filter-view-only (syncrecv): the filter ignores the phase, so a lock
//     vote counts as a commit vote.
//   - no-view-jump (syncjump): messages of a later view are processed
//     without moving to that view.
package hotstuff2
