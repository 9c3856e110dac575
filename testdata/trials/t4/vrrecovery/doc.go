// Package vrrecovery implements Viewstamped Replication (Liskov and Cowling,
// "Viewstamped Replication Revisited", MIT TR 2012): the normal case
// (Prepare, PrepareOK), the view change (StartViewChange, DoViewChange,
// StartView; the new primary takes the log of the latest normal view, the
// longest among those) and the recovery of a replica that restarted without
// its state (Recovery with a nonce, RecoveryResponse; the state is taken
// from the primary's answer once f+1 answers, the primary's among them,
// are in). State transfer for a replica that missed operations is left
// out: such a Prepare is dropped.
//
// Style: handler style, one //sync:handler per message type plus OnRequest
// and OnTimeout; //sync:tag view,status on the Replica type, whose rounds
// are the view change's statuses followed by normal operation. One struct
// per message with the status as a constant (//sync:msg View,StatusNormal);
// Recovery carries no tag (//sync:msg _,_), since a restarted replica knows
// no view: answering it leaves the state unchanged. A recovering replica
// takes the view of the answers as its tag (status Normal) and jumps to a
// later view if an answer has one, dropping answers of earlier views, which
// is stricter than the paper (which accepts any view). The transport is an
// RPC-style interface with one //sync:send method per message type.
//
// Mutants (mutants.txt):
//   - timeout-from-last-normal (syncmono): the next view is lastNormal+1.
//   - svc-assumes-next-view (syncsend): the StartViewChange is built as
//     view+1 before jumping to a view further ahead.
//   - svc-map-not-reset (syncrecv): StartViewChange votes survive the view.
//   - recovery-any-view (syncrecv): recovery answers of earlier views kept.
//   - dvc-no-view-jump (syncjump): DoViewChange of a later view is used
//     without moving to that view.
package vrrecovery
