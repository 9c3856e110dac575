// Package vrview is the view change of Viewstamped Replication (Liskov and
// Cowling, "Viewstamped Replication Revisited", MIT-CSAIL-TR-2012-021,
// Sec. 4.2), followed by one operation of the normal case (Sec. 4.1),
// written for ccvet's trial corpus.
//
// One iteration of Replica.Run is one view v, whose primary is v mod n:
//
//	SVC     everybody broadcasts STARTVIEWCHANGE(v); a replica that hears of
//	        a later view joins the latest one, and goes on if f others
//	        are in its view
//	DVC     DOVIEWCHANGE with the log, the last normal view and the commit
//	        number goes to the new primary, which waits for f+1 and takes
//	        the log of the latest normal view, the longest among those
//	SV      the primary broadcasts STARTVIEW; replicas install its log
//	Prep    the primary appends one operation and sends PREPARE
//	PrepOK  backups append it and answer PREPAREOK; with f+1 the primary
//	        commits it
//	Cmt     the primary sends COMMIT
//
// The safety property tested is that committed prefixes are prefixes of
// one another, across view changes and crashes.
//
// # Style
//
// The tag is two receiver fields, //sync:tag r.view,r.step. Every message
// has a nested header, Hdr Header, that holds the view, and one type per
// round with the round as a constant (//sync:msg Hdr.View,SVC). Messages
// are pointers behind a Msg interface, sent on channels (//sync:inbox on
// the replica's channel, //sync:peers on the table) through send and
// broadcast helpers (a broadcast holds a lock the group shares, so that
// its copies are all enqueued before anybody can react to one);
// receptions are loops around a helper recv(t) that
// receives once (a select with a timer) and type-assert, with either a
// map mailbox or a single pointer (for sv == nil); most are written in
// Run, and the primary's two quorum waits and the last round's wait are
// helpers (collectDVCs; countOKs, which returns only the count;
// awaitCommit, which returns the one message or nil). The jump to the
// latest view is a loop computing the maximum over the STARTVIEWCHANGEs,
// or the single STARTVIEW taken.
//
// # Mutants (mutants.txt)
//
//   - latest-view-from-zero (syncmono): the maximum view starts from 0
//     and the replica drops back to view 0 when it heard nothing.
//   - startview-sent-in-dvc-round (syncsend): the primary sends STARTVIEW
//     before entering round SV.
//   - dvc-stamped-last-normal (syncsend): DOVIEWCHANGE carries the last
//     normal view instead of the new one.
//   - prepareok-any-view (syncrecv): PREPAREOKs of earlier views count.
//   - startview-without-jump (syncjump): a later view's STARTVIEW is
//     installed without moving to that view.
//   - no-join-latest-view (syncjump): later views' STARTVIEWCHANGEs are
//     kept but never joined.
package vrview
