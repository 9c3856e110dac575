// Package primarybackup implements primary-backup replication with epochs,
// in the style of Viewstamped Replication's normal case and view change
// (Oki and Liskov, PODC 1988; Liskov and Cowling, "Viewstamped Replication
// Revisited", 2012) and of Zab's epochs: the primary of epoch e is replica
// e mod n. An epoch opens with two rounds: every replica sends its log to
// the new primary (Join); the primary takes the log installed in the latest
// epoch, the longest among those, from a majority of Joins, and installs it
// everywhere (Start). Then the primary replicates its requests one operation
// at a time (Prepare, Ack from a majority, Commit). A primary with nothing
// left steps down with its last Commit; a replica that waits too long moves
// to the next epoch, and a replica that receives the Start of a later epoch
// adopts that epoch and its log.
//
// # Style
//
// The tag has three variables, //sync:tag r.epoch,r.op,r.step, fields of the
// receiver of Replica.Run: the epoch is the phase, the operation number
// (0 for the opening rounds) and the step the rounds inside it. The epoch is
// incremented and op and step reset at the start of each iteration of the
// outer loop; the operations are an untagged inner loop that increments
// r.op. Every message embeds a header struct Hdr (//sync:msg Epoch,Op,Step
// through the embedded fields) and filters read it through the promoted
// Header() method. The Transport interface's Send and Recv return errors.
//
// # Mutants (mutants.txt)
//
//   - epoch-after-log-epoch: a new attempt takes the epoch after the one its
//     log comes from, so a failed attempt is retried in the same epoch.
//   - ack-before-step: the Ack is built and sent before r.step moves to Ack.
//   - acks-cumulative-backwards: the primary counts Acks of earlier
//     operations of the epoch for the current one.
//   - start-no-epoch-jump: a replica installs the Start of a later epoch but
//     keeps its own epoch number.
package primarybackup
