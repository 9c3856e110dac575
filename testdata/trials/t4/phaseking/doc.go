// Package phaseking implements the Phase King algorithm for binary
// Byzantine agreement (Berman, Garay and Perry, "Towards optimal
// distributed consensus", FOCS 1989; the n > 4f variant as in Lynch,
// "Distributed Algorithms"), run over an asynchronous network with round
// timers: f+1 phases of two rounds; in the Exchange round everybody
// broadcasts its preference, in the King round the phase's king broadcasts
// its majority, and a process keeps its majority only if more than n/2+f
// processes had it, else takes the king's value. A round closes when every
// process was heard from or on its time-out; messages of other rounds are
// dropped (a late process misses them), so no jump is ever needed.
//
// Style: //sync:tag phase,round on the Process type; handlers Start,
// OnMessage (a switch over the message's round) and OnRoundTimeout; the
// round transitions are in helpers (endExchange, endKing). One message type
// with the round in a field (//sync:msg Phase,Round), over an Outbox
// interface with a //sync:send method. Run is the production event loop: a
// select over the inbox channel and a round timer, calling the handlers;
// the test drives the handlers directly (deterministic, with a Byzantine
// king) and also runs Run over channels.
//
// Mutants (mutants.txt):
//   - silent-king-repeats-phase (syncmono): a silent king makes the process
//     go back to the Exchange round of the same phase.
//   - next-pref-built-early (syncsend): the next phase's preference is sent
//     with the old phase.
//   - exchange-any-phase (syncrecv): preferences of earlier phases count.
//   - buffer-early-values (syncjump): next-phase preferences are kept
//     without moving to that phase.
package phaseking
