// Package snowball is a blind trial protocol for ccvet: Snowball, the
// metastable consensus of the Avalanche family, from Team Rocket, "Scalable
// and Probabilistic Leaderless BFT Consensus through Metastability" (2019),
// for any comparable color type.
//
// Every poll, a node queries k peers sampled at random and each answers with
// its current preference. If at least alpha answers carry the same color c,
// the poll succeeds: the confidence d[c] grows, the preference becomes c if
// d[c] is now the largest, and the counter of consecutive successes for c
// grows (it restarts at 1 when c differs from the last successful color);
// the node decides c when that counter reaches beta. An unsuccessful poll
// resets the counter. Nodes keep answering queries after they decide.
//
// Polls run in steps of fixed duration, as in a synchronous system: a node
// waits for the end of the step even when it has all it needs, so that
// nodes stay in step. A slow node that receives a query of a later poll
// catches up by jumping to it.
//
// # Style
//
// Loop style: Run is one loop over polls tagged //sync:tag n.round,n.step,
// where n is the node's state made by a composite literal in Run
// (n := &node[C]{round: 0, step: StepQuery, ...}); the step is set at the
// start of each round and the round is advanced at the end of the
// iteration, or before continue when a poll fails. Two message types, each with a constant
// round (//sync:msg Round,StepQuery and Round,StepReply); Reply is generic
// in the color type, and so are Run and the node state. The Transport
// interface has Send (//sync:send) and Recv, given a timer channel
// (//sync:recv).
// Receptions type-switch on the message; the catch-up is a jump to the
// latest round among the stored queries. The in-memory transport Mem waits
// in a select on the inbox and the timer; the tests use a transport with
// virtual time instead, whose timers fire when every node waits and nothing
// is in flight, which makes runs deterministic.
//
// # Mutants (mutants.txt)
//
//   - failed-poll-same-round (syncmono): a failed poll is retried in the same
//     round, going back from Reply to Query.
//   - answer-while-collecting (syncsend): queries are answered as they arrive,
//     while the node is still in the Query step.
//   - late-replies (syncrecv): replies are not checked for their round, so late
//     answers to an earlier poll count in this one.
//   - no-catch-up (syncjump): queries of a later round are kept but the node
//     does not jump to that round.
package snowball
