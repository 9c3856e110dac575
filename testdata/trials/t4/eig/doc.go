// Package eig implements exponential information gathering (EIG) Byzantine
// agreement, algorithm EIGByz of Lynch, "Distributed Algorithms" (1996),
// Section 6.3, for n > 3f processes, repeated for a sequence of slots.
//
// In each slot every process builds a tree whose nodes are labelled by
// strings of distinct process ids. In round r (1..f+1) a process relays to
// everybody the values of the level r-1 of its tree whose labels do not
// contain its own id, and stores the value of label x it got from process j
// as the value of node xj. After round f+1 it resolves the tree bottom-up,
// each node taking the strict majority of its children (the default value
// otherwise), and decides the value of the root.
//
// # Style
//
// The transport is an interface, Transport, whose methods are annotated
// //sync:send and //sync:recv; Recv returns (message, ok) and ok is false
// when the round's deadline passes. The tag (slot, r) is a pair of local
// variables of Agree, declared together (slot, r := 0, 1); one loop
// iteration is one round, and the round is reset at the end of the
// iteration that finishes a slot (slot++, then r = 1). There is one
// message type, Relay, which carries the round in a field
// (//sync:msg Slot,Round). A round waits for a relay from every process or
// for its deadline, and drops every relay of another slot or round.
//
// # Mutants (mutants.txt)
//
//   - restart-slot-when-cut-off (syncmono): a process that heard nobody
//     restarts the slot from round 1 under the same slot number.
//   - level-as-round (syncsend): the relay is stamped with the tree level it
//     carries (r-1) instead of the round.
//   - slot-only-filter (syncrecv): the reception checks the slot but not the
//     round, so a late relay of an earlier round is stored.
//   - drop-only-stale (syncjump): the reception drops only relays older than
//     the current round and stores later ones without moving to their round.
package eig
