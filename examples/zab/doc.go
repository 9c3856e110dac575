// Package zab is an annotated example protocol for ccvet: the discovery
// (leader election) loop of ZooKeeper's atomic broadcast, Zab, written
// asynchronously in the style of Fig. 4 ("Asynchronous Zab") of Drăgoi and
// Widder, "Reducing asynchrony to synchronized rounds", while being designed
// in the rounds of its round-based counterpart Zab-HO (Fig. 1 of the same
// paper).
//
// Every process runs the same loop (Process.Run). One iteration is one
// attempt to establish a leader and goes through the rounds
//
//	CurrE  every process sends its epoch to the leader suggested by its oracle
//	NewE   a leader that heard from a majority picks max epoch + 1 and announces it
//	AckE   the processes that accept the new epoch send their history to the leader
//	NewL   the leader sends the most recent history to the quorum that acknowledged
//	AckL   the followers adopt that history and acknowledge it
//
// A process that waits too long in a round (a lost message, an absent leader,
// a leader that did not get a majority) gives up and continues with the next
// iteration, in a fresh epoch: this is the "retry" of Fig. 4. The Broadcast
// machine that an established leader runs afterwards is omitted.
//
// # Annotations
//
// The code is communication-closed: the pair (epoch, round) identifies the
// round a process is in, it never decreases, every message is stamped with the
// round it is sent in, and a process only keeps messages of its current round
// or of a later one, in which case it jumps forward to that round. ccvet checks
// this from the annotations:
//
//   - //sync:tag p.epoch,p.round above the loop in Process.Run names the phase
//     (epoch) and round variables;
//   - //sync:msg Epoch,CurrE (and similar) on every message type says which
//     field carries the epoch and which round the message belongs to;
//   - //sync:send and //sync:recv on the methods of Network mark them as the
//     communication primitives.
//
// Run ccvet on this directory to check it; it should report nothing.
package zab
