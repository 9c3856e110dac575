// Package vsr is Viewstamped Replication (Liskov and Cowling, "Viewstamped
// Replication Revisited", MIT-CSAIL-TR-2012-021, Sec. 4.1 and 4.2): the
// normal case (Prepare, PrepareOK, commit by majority) and the view change
// (StartViewChange, DoViewChange to the new primary, which picks the log of
// the latest normal view and sends StartView). State transfer is folded
// into Prepare and StartView, which carry the whole log; recovery and
// client tables are left out.
//
// Style: handler form. The tag is the viewstamp on the process type,
// //sync:tag view,status, with the status enum declared in the order a
// view goes through (view change, then normal). One message type for all
// kinds, whose tag is in a nested header: //sync:msg Hdr.View,Hdr.Status.
// Step is the handler of received messages (a switch over the kind);
// OnRequest, OnHeartbeat and OnTimeout are local events. The transport is
// a generic Outbox[M] whose Send and Broadcast are //sync:send. Step drops
// what is older than (view, status) and jumps to a later viewstamp before
// acting (normal with the primary's log for Prepare/StartView, view change
// for StartViewChange/DoViewChange); enter empties the mailbox (acked,
// svcs, dvcs) at every change of the viewstamp.
//
// Mutants (mutants.txt):
//   - vsr-viewchange-same-view (syncmono): a view change starts without
//     bumping the view, going back from normal to view-change status.
//   - vsr-startview-built-before-install (syncsend): StartView is built
//     before the new primary becomes normal and sent after.
//   - vsr-stale-prepareok (syncrecv): PrepareOKs of earlier views count.
//   - vsr-svcs-kept (syncrecv): StartViewChanges of a failed view change
//     count in the next one.
//   - vsr-prepare-in-viewchange (syncjump): a Prepare of the same view is
//     applied in view-change status without becoming normal.
package vsr
