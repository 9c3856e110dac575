// Package vrnormal is the normal-case protocol of Viewstamped Replication
// (Liskov and Cowling, "Viewstamped Replication Revisited", MIT-CSAIL-TR-2012-021,
// Sec. 4.1).
//
// The primary of view v is replica v mod n. For every client request it
// assigns the next op-number, appends the request to its log and sends
// PREPARE to the backups; a backup appends the request and answers
// PREPAREOK; with f answers (f = (n-1)/2) the primary commits the operation
// and sends COMMIT, and the backups commit too. A backup that receives a
// PREPARE for a later view or a later op-number than it expects has missed
// messages: it joins that view and op-number and stops acknowledging until a
// state transfer (out of scope) brings it up to date.
//
// # Style
//
// The tag has three components, (view, op, phase), receiver fields of
// Replica. Messages are passed by pointer and carry their view and
// op-number in a nested header, so the annotations name nested fields
// (Hdr.View,Hdr.Op,Preparing). The transport is a Bus interface with an
// annotated Send and a Recv that blocks until a context ends; every
// reception gets its own context with a time-out. Receptions use a type
// switch over the message kinds.
//
// # Mutants
//
//   - ok-commit-number (syncsend): the PREPAREOK header takes the
//     commit-number where the op-number belongs.
//   - ok-any-op (syncrecv): the primary counts PREPAREOKs of any op-number of
//     its view.
//   - join-view-only (syncjump): a backup that missed operations adopts the
//     PREPARE's view but not its op-number.
package vrnormal
