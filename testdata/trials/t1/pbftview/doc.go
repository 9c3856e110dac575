// Package pbftview implements the view change of PBFT (Castro and Liskov,
// "Practical Byzantine Fault Tolerance", OSDI 1999, Sec. 4.4), simplified to
// the crash-and-omission setting (no signatures, no checkpoints): a replica
// that suspects the primary multicasts ViewChange for the next view with the
// requests it has prepared; the primary of that view, once it holds 2f+1
// ViewChange messages of its view, multicasts NewView, re-proposing for
// every sequence number the request prepared in the highest view among them;
// replicas that receive NewView install the view and its log.
//
// A replica that hears ViewChange messages of later views from f+1 replicas
// stops waiting and joins. PBFT joins the smallest of those views; here the
// replica joins the highest view its mailbox holds, which condition IV of
// communication closure demands (see mutant pbft-smallest-view).
//
// # Style
//
// The tag lives in a nested struct field, //sync:tag r.vs.view,r.vs.step,
// with r the receiver of Replica.ChangeView. The step is reset at the start
// of each attempt and the view incremented where an attempt fails, just
// before continue, not after a jump. Messages are one type per round with a
// constant round. The network is a struct of typed channels per replica
// (//sync:inbox on the replica's own Inbox, //sync:peers on the table of
// everybody's), read with select over the channel and a timer in the loop
// body itself.
//
// # Mutants (mutants.txt)
//
//   - backup-retries-same-view: a backup whose NewView does not arrive goes
//     back to round ViewChange without moving to the next view.
//   - viewchange-names-next-view: the ViewChange is stamped with view+1.
//   - late-newview-installed: the NewView filter drops only later views, so
//     a late NewView of an earlier view is installed.
//   - pbft-smallest-view: PBFT's rule, joining the smallest higher view, so
//     ViewChange messages of higher views stay in the mailbox unjumped to.
package pbftview
