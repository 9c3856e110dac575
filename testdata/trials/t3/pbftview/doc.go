// Package pbftview is the normal case and the view change of PBFT (Castro
// and Liskov, "Practical Byzantine Fault Tolerance", OSDI 1999), n = 3f+1
// replicas, written as the handlers of a Replica: OnMessage for a message
// from another replica, Request for a client request, Timeout when the
// primary makes no progress. Requests are ordered one at a time (no
// pipelining, no checkpoints). Signatures and the certificates that a
// Byzantine primary would have to show in NEW-VIEW are left out: the view
// change is the crash-fault core of PBFT's, in which the new primary takes
// the longest executed log of a quorum of VIEW-CHANGEs and proposes again
// the request prepared right after it in the highest view.
//
// # Style
//
//   - The tag has three components on the process type,
//     //sync:tag view,seq,kind. The view is a uint8, as in dBFT; seq is the
//     sequence number of the request being ordered, 0 during a view change;
//     kind the round: KindViewChange and KindNewView at seq 0, then
//     KindPrePrepare, KindPrepare and KindCommit for every request.
//   - The messages are values of an interface whose methods give the tag:
//     //sync:msg View(),Seq(),Kind() on Message. The concrete types embed a
//     header that implements View, Seq and Sender; each defines Kind as a
//     constant. OnMessage dispatches with a type switch.
//   - The transport is a Network interface whose Multicast is //sync:send.
//   - The mailboxes are votes (prepares, then commits, of the current seq)
//     and vcs (the new primary's view changes), emptied at every change of
//     the round; the new primary adopts the prepared request of the highest
//     view.
//   - A replica that has not timed out jumps to the view of a NEW-VIEW.
//     Messages of a later round than the replica's are otherwise dropped,
//     not buffered: the driver's delivery is mostly in order, and a replica
//     that falls behind catches up at the next view change.
//
// # Mutants (mutants.txt)
//
//   - vc-of-older-view (syncrecv): the new primary counts VIEW-CHANGEs of an
//     earlier view.
//   - vcs-kept-on-timeout (syncrecv): a new view change keeps the
//     VIEW-CHANGEs collected for an earlier view.
//   - future-view-preprepare (syncjump): a PRE-PREPARE of a later view is
//     accepted without moving to that view.
//   - reproposal-keeps-old-view (syncsend): the new primary re-sends the
//     prepared request with its old view and sequence number.
//   - timeout-keeps-view (syncmono): the timeout restarts the view change in
//     the current view, going back to seq 0.
package pbftview
