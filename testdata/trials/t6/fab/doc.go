// Package fab is a blind trial protocol for ccvet: FaB Paxos, the fast
// Byzantine consensus of Martin and Alvisi, "Fast Byzantine Consensus" (IEEE
// TDSC 2006, DSN 2005), with n = 5f+1 processes that are proposers,
// acceptors and learners at once.
//
// In the common case consensus takes two steps: the leader of view v
// proposes a value, every acceptor accepts the first proposal of the view
// and tells every learner, and a learner learns a value that
// ceil((n+3f+1)/2) acceptors accepted in the same view. When the leader is
// suspected (a time-out), processes move to view v+1 and send their report
// (the value they last accepted) to its leader, (v+1) mod n. The new leader
// waits for n-f reports, the progress certificate, and must propose the
// value that at least 2f+1 of them vouch for, if there is one: a value that
// was learned is vouched for by at least 2f+1 correct reporters. It sends
// the certificate with its proposal, and acceptors check it.
// Simplifications: no signatures (senders are authenticated by the network)
// and learners do not forward what they learned.
//
// # Style
//
// Handler style, in the process form of //sync:tag: Node carries
// //sync:tag view,phase on its type, and a driver calls the entry points
// Start, OnReport, OnPropose, OnAccepted and OnTimeout (//sync:handler).
// The phase (Recover < Propose < Accept) is the round inside a view; each
// message type belongs to one phase, given as a constant in its //sync:msg.
// Propose is written like generated protobuf code and its view is read
// through the getter GetView(). A message of a later view or phase makes the
// node jump to it (enter), which empties the mailboxes (reports, acks) of the
// tag left behind. The transport is an Outbox interface with //sync:send
// methods.
//
// # Mutants (mutants.txt)
//
//   - leader-retries-view (syncmono): a leader that times out re-runs the
//     recovery of its own view, going back from Accept to Recover.
//   - report-before-enter (syncsend): the report is built before entering the
//     new view, so it carries the view being left.
//   - learner-any-view (syncrecv): the learner no longer drops acceptances of
//     older views and counts them with those of its view.
//   - propose-no-jump (syncjump): a certified proposal of a later view is
//     accepted without moving to that view.
package fab
