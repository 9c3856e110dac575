// Package zabbcast is the broadcast phase of Zab, ZooKeeper's atomic
// broadcast (Junqueira, Reed and Serafini, "Zab: High-performance broadcast
// for primary-backup systems", DSN 2011, Sec. IV-C, phase 3), for one epoch
// with an established leader.
//
// For every transaction the leader assigns the next zxid and sends a
// PROPOSAL; followers log it and answer with an ACK; with a quorum of ACKs
// (itself included) the leader sends a COMMIT and everybody delivers the
// transaction. A follower that notices it missed a proposal (it receives a
// later zxid than expected) stops logging and acknowledging until the next
// synchronization phase, which is out of scope.
//
// # Style
//
// The tag is (zxid, step) where zxid is ZooKeeper's 64-bit packed
// (epoch << 32 | counter) number, and step the packet type, numbered as in
// ZooKeeper's Leader class (PROPOSAL = 2, ACK = 3, COMMIT = 4), so the round
// constants do not start at zero. One packet type, like ZooKeeper's
// QuorumPacket, carries both (Zxid,Type). Tag variables are receiver fields
// of Peer; the zxid advances at the start of each iteration. The transport
// is a Link interface with an annotated Send and a receive channel, and each
// reception selects on the channel and a timer.
//
// # Mutants
//
//   - counter-wrap (syncmono): when the 32-bit counter is exhausted the zxid
//     wraps to counter 0 of the same epoch instead of forcing a new epoch.
//   - ack-before-step (syncsend): the ACK leaves before the peer moves to
//     step ACK.
//   - stale-commit (syncrecv): a COMMIT of an earlier zxid is taken as the
//     commit of the current one.
//   - missed-proposal-no-jump (syncjump): a follower logs a later proposal
//     under the zxid it expected.
package zabbcast
