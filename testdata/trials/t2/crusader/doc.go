// Package crusader is crusader agreement (Dolev, "The Byzantine Generals
// Strike Again", J. Algorithms 1982), synchronous, n > 3f, run for a
// sequence of instances.
//
// An instance has two rounds. In Report every process broadcasts its input;
// a process that receives the same value from at least n-f processes echoes
// it, otherwise it echoes "no value". In Echo every process broadcasts its
// echo; a process outputs v if at least f+1 processes echoed v, and Bottom
// ("I know the input was not unanimous") otherwise. Correct processes never
// output two different values, and output the common input when all correct
// inputs are equal. A round ends when all n messages arrived or its timer
// fires.
//
// Style: the tag is a nested receiver field, //sync:tag c.pos.Inst,c.pos.Round
// (a position struct inside the process struct); the instance is increased
// and the round reset at the start of every iteration. There is one message
// type per round with a constant round (//sync:msg Inst,ReportRound and
// Inst,EchoRound); messages travel in an Envelope over Go channels
// (//sync:peers, //sync:inbox) and the body is recovered with a type switch.
// Each wait is a select on the inbox, a round timer and the context.
//
// Mutants (mutants.txt):
//   - retry-short-instance (syncmono): an instance with too few echoes is retried with Inst-- and continue.
//   - echo-before-round (syncsend): the echo is broadcast before the round moves to Echo.
//   - stale-reports (syncrecv): reports of earlier instances are counted.
//   - early-echoes (syncjump): echoes of later instances are kept and counted without moving to that instance.
package crusader
