// Package dolevstrong is Dolev-Strong authenticated Byzantine broadcast
// (Dolev and Strong, "Authenticated Algorithms for Byzantine Agreement",
// SIAM J. Comput. 1983), run for a sequence of slots, each with its own
// dealer.
//
// In a slot, rounds 1..f+1 are run. In round 1 the dealer signs its value
// and sends it. A process accepts ("extracts") a value in round r if it
// arrives with a chain of exactly r valid signatures by distinct processes,
// the first being the dealer's; it appends its signature and relays the
// chain in round r+1 (when r <= f). After round f+1 a process outputs the
// only value it extracted, or "" if it extracted none or several. Each
// process sends one message per round to everybody (possibly with no
// chains), so a round ends as soon as all n messages of it have arrived.
// Signatures are HMACs under per-process keys of a shared Keyring, standing
// in for a PKI.
//
// Style: the tag is two locals of Run, slot, r := 0, 1, annotated
// //sync:tag slot,r, with the round a plain int; the round advances with an
// early continue, and at the end of the slot the slot advances and the
// round is reset to 1. One message type carries both (//sync:msg Slot,Round);
// the Transport interface has //sync:send Multicast and //sync:recv Recv,
// and the round's messages are gathered by a helper, p.receive.
//
// Mutants (mutants.txt):
//   - wait-for-slow-dealer (syncmono): a slot without any value restarts at round 1 instead of moving on.
//   - eager-forward (syncsend): a newly extracted chain is forwarded at once, stamped with the next round.
//   - late-chains (syncrecv): the filter drops only later rounds, so shorter chains of earlier rounds are extracted late.
//   - early-chains (syncjump): chains of later rounds are kept and extracted without moving to their round.
package dolevstrong
