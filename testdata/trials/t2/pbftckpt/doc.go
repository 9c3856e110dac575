// Package pbftckpt is the checkpoint protocol of PBFT (Castro and Liskov,
// "Practical Byzantine Fault Tolerance and Proactive Recovery", TOCS 2002,
// Sec. 2.3.4 and 4.3): replicas execute requests in windows of k sequence
// numbers, exchange CHECKPOINT messages with the digest of their state at
// the end of each window, and make the checkpoint stable, garbage
// collecting their log, once 2f+1 digests match. Ordering is reduced to the
// window's primary broadcasting the batch (normal-case three-phase ordering
// and view changes are left out).
//
// Style: the message types are protobuf-style generated code
// (checkpoint.pb.go, pointer messages with GetX getters that the protocol
// uses for payload), so their tags are declared at package level in
// pbftckpt.go (//sync:msg Batch Window,Execute and //sync:msg Checkpoint
// Window,Checkpointing) and the tag fields are read directly in the filters.
// The tag is two receiver fields, //sync:tag r.window,r.phase, with an
// unsigned window; the window is increased and the phase reset at the top
// of each iteration. The Transport interface has //sync:send Broadcast and
// //sync:recv Recv(ctx); receptions are helpers with per-step context
// time-outs and type switches. A replica whose batch was lost jumps to the
// Checkpointing phase when a checkpoint of its window arrives first.
//
// Mutants (mutants.txt):
//   - window-from-seq (syncmono): the window is derived from the executed sequence number and repeats after a missed batch.
//   - checkpoint-after-stable (syncsend): the checkpoint is numbered one after the last stable checkpoint.
//   - old-window-checkpoints (syncrecv): the collector keeps checkpoints of earlier windows.
//   - old-checkpoint-ends-wait (syncrecv): a checkpoint of an earlier window ends the wait for the batch and is stored.
//   - join-without-phase (syncjump): an early checkpoint is stored and the state updated before moving to its phase.
package pbftckpt
