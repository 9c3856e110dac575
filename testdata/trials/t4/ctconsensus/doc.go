// Package ctconsensus implements the rotating-coordinator consensus
// algorithm of Chandra and Toueg for the eventually strong failure detector
// ("Unreliable Failure Detectors for Reliable Distributed Systems", JACM
// 1996, Fig. 6) in handler style, with the decision announced by the
// coordinator instead of a reliable broadcast. In round r, coordinated by
// r mod n, every process sends its timestamped estimate to the
// coordinator, which proposes the most recent of a majority of them;
// processes adopt the proposal (timestamp r) and ack it, or nack when they
// suspect the coordinator; a majority of acks makes the coordinator decide.
// A process waits in its round for the decision or a suspicion, so that
// no message crosses a round; a decision of an earlier round is dropped,
// since every later coordinator proposes the same value.
//
// Style: //sync:tag round,phase on the Process type; handlers OnEstimate,
// OnPropose, OnReply, OnDecide and OnSuspect. Messages are one generic
// envelope carrying the tag, Envelope[T] with //sync:msg Round,Phase, and
// a payload type per phase; they are sent by a generic function
// (send[T], //sync:send) over a protocol-agnostic Transport. The
// coordinator's mailboxes are a slice (estimates) and a map (replies);
// it adopts the estimate of the highest timestamp.
//
// Mutants (mutants.txt):
//   - nack-retries-round (syncmono): a nacked round is retried from
//     PhaseEstimate.
//   - nack-after-next-round (syncsend): the nack is sent after entering the
//     next round, with its number.
//   - late-replies-count (syncrecv): replies of the previous round count.
//   - estimates-kept (syncrecv): estimates of an earlier round stay in the
//     mailbox.
//   - propose-no-jump (syncjump): a later round's proposal is adopted
//     without moving to that round.
package ctconsensus
