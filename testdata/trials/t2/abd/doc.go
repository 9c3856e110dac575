// Package abd is the multi-writer ABD atomic register (Attiya, Bar-Noy and
// Dolev, "Sharing memory robustly in message-passing systems", JACM 1995;
// multi-writer version of Lynch and Shvartsman, 1997) over replicas of which
// a majority is correct.
//
// Every operation has two phases. In Query the client asks every replica
// for its timestamped value and waits for a majority; in Update it sends
// the value to install (a new value with a larger timestamp for a write,
// the freshest value it read for a read: the write-back) and waits for a
// majority of acknowledgements.
//
// # Style
//
// The tag is (op, phase): the client's operation number and the phase of
// that operation, fields of an unexported client struct built with a
// composite literal at the top of Run. op advances at the start of every
// operation and phase is reset there. Each message type belongs to one
// phase, so the annotations give the phase as a constant (Op,Query). The
// network is Go channels of any; the client recovers the concrete type with
// a type assertion inside its reception loop, and the reception selects on
// a context too. Replicas are untagged request handlers.
//
// # Mutants
//
//   - query-any-op (syncrecv): the Query phase counts replies of any
//     operation, so a late reply to an earlier operation can stand for a
//     replica in this one.
//   - ack-any-op (syncrecv): the Update phase counts acknowledgements of any
//     operation, so a write can complete before a majority stored it.
//   - update-before-phase (syncsend): the Update request is sent before the
//     client moves to phase Update.
package abd
