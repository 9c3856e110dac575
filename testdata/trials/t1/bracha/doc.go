// Package bracha implements Bracha's reliable broadcast (G. Bracha,
// "Asynchronous Byzantine agreement protocols", Information and Computation
// 1987) for a sequence of instances, in rounds, for crash faults with
// n > 3f. Instance i is broadcast by process i mod n.
//
// Each instance has four rounds: Initial (the sender broadcasts its value),
// Echo (every process that received it echoes it; a value echoed by
// ceil((n+f+1)/2) processes is ready), Ready (processes with a ready value
// broadcast Ready; f+1 Ready messages for v make v ready too: Bracha's
// amplification, which in rounds needs the next round) and Amplify (every
// process with a ready value sends Ready again; 2f+1 of them deliver v).
//
// # Style
//
// The instance is the phase: //sync:tag b.inst,b.step on the fields of the
// receiver of Proc.Run, incremented at the start of each iteration. Initial
// and Echo are one message type per round (constant round in //sync:msg);
// Ready serves two rounds and carries its round in a field. The network is
// Go channels of an Envelope{From, Msg any}, annotated //sync:peers and
// //sync:inbox; the reception is a generic helper collect[M] that selects
// over the inbox and time.After and is handed the filter as a function
// literal. A process that receives the Initial message of a later instance
// (it fell behind) jumps to that instance.
//
// # Mutants (mutants.txt)
//
//   - instance-from-loop-counter: the instance is set from a loop counter, so
//     after a jump to a later instance the next iteration goes back.
//   - amplify-sent-as-ready: the Ready of round Amplify is stamped with round
//     Ready.
//   - amplify-counts-every-ready: round Amplify counts the Ready messages of
//     round Ready too.
//   - initial-no-jump: the Initial of a later instance is kept but the
//     process does not move to that instance.
package bracha
