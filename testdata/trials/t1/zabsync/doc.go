// Package zabsync is the discovery and synchronisation phases of Zab
// (Junqueira, Reed and Serafini, "Zab: High-performance broadcast for
// primary-backup systems", DSN 2011, Sec. IV-A and IV-B), written for
// ccvet's trial corpus.
//
// One iteration of Peer.Run is one attempt to establish a leader. The
// attempt's leader is suggested by an oracle, which may disagree between
// peers. Rounds:
//
//	CEpoch        followers send CEPOCH to the prospective leader, which
//	              waits for a quorum and picks a new epoch e' above all of
//	              theirs
//	NewEpoch      the leader sends NEWEPOCH(e'); a follower takes it if e'
//	              is not below its own epoch, and moves to e'
//	AckEpoch      followers send ACK-E with their current epoch and history;
//	              the leader takes the history of the highest current epoch,
//	              the longest among those, and appends one transaction of e'
//	NewLeader     the leader sends NEWLEADER with that history; followers
//	              adopt it
//	AckLeader     followers send ACK-LD; the leader with a quorum is
//	              established
//	CommitLeader  the leader sends COMMIT-LD; followers deliver the history
//
// The safety properties tested are that delivered histories are prefixes
// of one another and that an epoch has at most one established leader.
// Appending a transaction at synchronisation stands for Zab's broadcast
// phase, which is not part of this package.
//
// # Style
//
// The tag (epoch, phase) lives in a local struct made by a composite
// literal, s := &attempt{epoch: p.acceptedEpoch, phase: CEpoch}, and is
// annotated //sync:tag s.epoch,s.phase. There is one message type per
// round with the round as a constant (//sync:msg Epoch,NewEpoch). The
// transport is a struct of typed channels per peer (Inbox), the peer's own
// marked //sync:inbox and the table of all marked //sync:peers; sends go
// through a generic post[M] with a select and an empty default. Receptions
// are written in place as labelled loops around a select with a timer, or
// in helpers (collectAckEpochs, awaitNewLeader); the last round is a
// single select. The leader jumps to the highest CEPOCH epoch with a loop
// computing the maximum; a follower jumps to the single NEWEPOCH it took.
//
// # Mutants (mutants.txt)
//
//   - new-epoch-from-accepted (syncmono): e' is the quorum's highest
//     accepted epoch plus one, possibly below the attempt's epoch.
//   - newepoch-announced-before-move (syncsend): NEWEPOCH carries
//     epoch+1 before the leader moves there.
//   - ackepoch-carries-current-epoch (syncsend): ACK-E is stamped with the
//     follower's currentEpoch.
//   - stale-ackleader (syncrecv): ACK-LDs of an earlier epoch count.
//   - stale-ackepoch (syncrecv): ACK-Es of earlier attempts count.
//   - accept-newepoch-without-jump (syncjump): a follower accepts a later
//     NEWEPOCH without moving to its epoch.
//   - leader-ignores-later-cepoch (syncjump): the leader keeps CEPOCHs of
//     later epochs without jumping to the highest.
package zabsync
