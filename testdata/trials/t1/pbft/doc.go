// Package pbft implements the normal-case operation of PBFT (Castro and
// Liskov, "Practical Byzantine Fault Tolerance", OSDI 1999, Sec. 4.2-4.3)
// within one view, for n = 3f+1 replicas: for each sequence number the
// primary multicasts a PrePrepare carrying a client request; backups that
// accept it multicast a Prepare; a replica holding the PrePrepare and 2f
// matching Prepares from backups is prepared and multicasts a Commit; 2f+1
// matching Commits commit the request at that sequence number. View changes
// are out of scope (see package pbftview).
//
// # Style
//
// The tag is //sync:tag r.seq,r.step, fields of the receiver of Replica.Run:
// the sequence number is the phase and PrePrepare/Prepare/Commit the rounds;
// the view is fixed and checked by the filters but is not part of the tag.
// Each message kind is its own struct with the round as a constant in
// //sync:msg. The transport is a Conn interface whose Next takes a context
// (the step's time-out) and returns the message as any; the receive helper
// Replica.receive dispatches with a type switch and files a message in the
// step's mailbox (a struct made per sequence number) only if a small
// predicate helper, current or currentOrLater, called in each case, says it
// belongs to the current step. A backup that missed sequence numbers accepts
// the primary's PrePrepare of a later one and jumps to it.
//
// # Mutants (mutants.txt)
//
//   - seq-from-log-length: the sequence number is recomputed as the number
//     of committed requests plus one, so a sequence number that did not
//     commit is restarted from PrePrepare.
//   - commit-before-step: the Commit is multicast before r.step moves to
//     Commit.
//   - late-prepares-count: Prepares of the sequence number are still filed
//     during the Commit step.
//   - preprepare-no-jump: a PrePrepare of a later sequence number is accepted
//     but the backup stays at its own sequence number.
package pbft
