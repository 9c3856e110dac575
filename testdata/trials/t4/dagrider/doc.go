// Package dagrider implements a round-based DAG in the style of DAG-Rider
// (Keidar, Kokoris-Kogias, Naor and Spiegelman, "All You Need is DAG",
// PODC 2021) and Narwhal: in every round each process broadcasts a vertex
// that references the vertices of the previous round it collected (at least
// 2f+1 of them); rounds are grouped in waves of four, the vertex of the
// wave's leader in its first round is committed when 2f+1 vertices of the
// wave's last round have a path to it, and the causal histories of the
// committed leaders are delivered in a deterministic order.
//
// Differences with DAG-Rider: leaders are round-robin instead of drawn from
// a global coin, vertices are broadcast with a plain best-effort broadcast,
// and a vertex that arrives after its round is over is dropped instead of
// being added with a weak edge, so the DAG of a process holds only what it
// collected in each round. A process that receives a vertex of a later round
// jumps to that round (as a Narwhal primary advances on a certificate of a
// later round); the rounds it skipped stay missing from its DAG.
//
// # Style
//
// An event loop: Run's loop reacts to one event per iteration, from a
// select over the inbox channel (//sync:inbox) and the context's Done
// channel. Vertices
// are sent through the Broadcaster interface, whose method is annotated
// //sync:send. The tag (p.wave, p.step) is a pair of receiver fields; the
// vertex type carries it in a nested header (//sync:msg Hdr.Wave,Hdr.Step).
// After each event the process first jumps to the latest round in its
// mailbox, then, when the round is complete (2f+1 vertices, as in
// DAG-Rider), it adds the round to its DAG, tries to commit
// at the end of a wave, moves to the next round and builds its next vertex,
// which the next iteration of the loop sends.
//
// # Mutants (mutants.txt)
//
//   - wave-advances-on-commit (syncmono): the wave number advances only when
//     its leader commits, so a wave without commit restarts at its step 0.
//   - vertex-built-before-advance (syncsend): the next vertex is built before
//     the round advances and carries the completed round.
//   - late-vertex-into-dag (syncrecv): a vertex of a round that is over is
//     added to the DAG, as DAG-Rider's weak edges would.
//   - no-catch-up (syncjump): vertices of later rounds are stored but the
//     process stays in its round and counts them towards it.
package dagrider
