// Package mrbinary is the binary consensus of Mostéfaoui, Moumen and Raynal
// ("Signature-free asynchronous binary Byzantine consensus with t < n/3,
// O(n²) messages, and O(1) expected time", JACM 62(4), 2015), here against
// crash failures, with a deterministic common coin.
//
// Round r has two steps. BV-broadcast: every process broadcasts BVAL(r, est);
// a value received from f+1 processes is echoed, and a value received from
// 2f+1 processes enters bin_values. Aux: as soon as bin_values is not empty
// the process broadcasts AUX(r, w) for the first value w it holds, and waits
// for n-f AUX messages; values is the set of their values. If values = {v},
// est becomes v and the process decides v when v equals the coin of r;
// otherwise est becomes the coin. Processes keep running after deciding, so
// that the others can finish.
//
// A process that receives an AUX(r, w) while still broadcasting in round r,
// or any message of a later round, jumps there: against crash failures an
// AUX(r, w) proves that 2f+1 processes sent BVAL(r, w), so w may enter
// bin_values. A process that jumps into a later round does not propose its
// (stale) estimate in it: it only echoes and sends AUX.
//
// # Style
//
// The tag (r, step) is made of fields of a process struct built with a
// composite literal in Propose. Propose is an event loop: one select per
// iteration on a context and the inbox, and a type switch over BVal and Aux,
// each handled where it arrives; per-round state is reset when the round
// changes. Each message type belongs to one step (R,BValStep and
// R,AuxStep). Broadcasts are the //sync:send method of Net; echoes are sent
// while the round's messages are being received.
//
// # Mutants
//
//   - restart-round (syncmono): with values = {0,1} the process retries the
//     round with the coin as its estimate, instead of moving to the next.
//   - propose-before-enter (syncsend): enter broadcasts the estimate for the
//     new round before the process moves to it.
//   - bval-any-round (syncrecv): BVAL messages of earlier rounds are counted.
//   - aux-adopt-no-jump (syncjump): an AUX of a later round is counted in the
//     process's current round.
package mrbinary
