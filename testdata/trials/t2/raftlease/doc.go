// Package raftlease is the heartbeat and leader-lease part of Raft (Ongaro
// and Ousterhout, "In search of an understandable consensus algorithm",
// USENIX ATC 2014, Sec. 5.2 and 6.4, and the lease-based reads of Ongaro's
// thesis, Sec. 6.4.1).
//
// The leader of a term sends numbered heartbeats; every follower answers
// each one. When a majority (the leader included) answered heartbeat b, the
// leader holds a lease until the time it sent b plus the lease duration,
// and may serve reads locally until then. A follower that hears nothing for
// an election timeout moves to the next term; the leader of term t is node
// t mod n (the vote itself is out of scope here). A leader that hears a
// heartbeat of a later term steps down and follows it.
//
// # Style
//
// The tag has three components, (term, beat, step), receiver fields of
// Node; step is Ping (the heartbeat) or Pong (its acknowledgement). Run is
// an event loop: one select per iteration over a context, an election timer,
// a heartbeat ticker and the inbox channel, and a type switch over messages
// passed by pointer. Every heartbeat starts a new beat; a later term or beat
// makes the node jump to it. Sends go through a Sender interface whose
// method is annotated //sync:send; receptions come from the inbox channel.
//
// # Mutants
//
//   - ack-old-beat (syncrecv): the leader counts acknowledgements of earlier
//     beats of its term towards the current beat's lease.
//   - ack-before-jump (syncsend): a follower answers with the beat it was in
//     before adopting the heartbeat's.
//   - term-without-beat (syncjump): a follower that hears a later term adopts
//     the term but keeps its beat number.
//   - timeout-keeps-term (syncmono): on an election time-out the node resets
//     its beat for a new attempt without moving to a new term.
package raftlease
