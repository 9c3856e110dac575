// Package zabheader is ZooKeeper's atomic broadcast, Zab (Junqueira, Reed
// and Serafini, "Zab: High-performance broadcast for primary-backup
// systems", DSN 2011): recovery (NEWEPOCH, ACKEPOCH, NEWLEADER, ACKLEADER)
// and broadcast (PROPOSE, ACK, COMMIT, one transaction at a time), written
// as the handlers of a Peer: Receive for a packet, Lead, Propose and
// LeaderTimeout for local events. The leader election that picks who calls
// Lead is the driver's; a leader starts one epoch above its own, and
// followers that promised a later one ignore it.
//
// # Style
//
//   - The tag has three components, read through field paths, on the
//     process type: //sync:tag zxid.Epoch,zxid.Counter,step. The epoch is
//     the phase; the counter and the step (the recovery steps at counter 0,
//     the broadcast steps once per transaction) are the round.
//   - One message type, Packet, whose nested header carries the tag:
//     //sync:msg Hdr.Zxid.Epoch,Hdr.Zxid.Counter,Hdr.Step. Receive
//     dispatches on the header's step to one helper per step.
//   - The only send is the stamping method send (//sync:send stamps): it
//     writes the current zxid and step in the header of every packet, so
//     the bodies passed to it carry no tag. Sends go to an outbox of
//     envelopes that the driver drains.
//   - The leader's mailbox is the acks map, emptied at every round; the
//     leader adopts the freshest history of a quorum (latest NEWLEADER
//     epoch, then longest).
//   - A follower jumps to the zxid of the next proposal of its leader, and
//     to the epoch of a NEWLEADER of a later epoch whose NEWEPOCH it
//     missed (it adopts that leader's history whole).
//
// # Mutants (mutants.txt)
//
//   - newleader-of-old-epoch (syncrecv): a follower adopts a delayed
//     NEWLEADER of an earlier epoch of the same leader.
//   - ack-of-earlier-proposal (syncrecv): the leader counts acks of the
//     previous transaction of the epoch.
//   - stamp-current-epoch (syncsend): the stamping send writes
//     currentEpoch (last NEWLEADER) where the promised epoch belongs.
//   - lead-from-current-epoch (syncmono): a new leader starts above
//     currentEpoch instead of above the epoch it promised.
//   - timeout-rolls-back-zxid (syncmono): a follower that loses its leader
//     goes back to the zxid of its last committed transaction.
package zabheader
