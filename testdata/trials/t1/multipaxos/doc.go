// Package multipaxos is Multi-Paxos with a stable leader (Lamport, "Paxos
// Made Simple", Sec. 3; Van Renesse and Altinbuken, "Paxos Made Moderately
// Complex", 2015), written for ccvet's trial corpus.
//
// A ballot is led by replica ballot mod n. The leader runs phase 1 once
// per ballot (Prepare, Promise): the promises of a quorum carry every
// replica's accepted entries, and for each slot the leader adopts the
// value accepted in the highest ballot of the quorum. It then stays leader
// and drives phase 2 for one slot after another (Accept, Accepted) without
// running phase 1 again, until it runs out of commands or loses its
// quorum; the replicas then time out and move to the next ballot. Every
// replica learns a slot's value from a quorum of Accepted messages of the
// same ballot and slot.
//
// # Style
//
// The tag is three locals of Replica.Run, (ballot, slot, step), declared
// together (ballot, slot, step := 0, 0, Prepare) and annotated
// //sync:tag ballot,slot,step. Phase 1 runs at slot 0; the slots of
// phase 2 are an untagged inner loop of the ballot's iteration, which
// increases the slot at its start. One message type, Msg, carries the
// whole tag (//sync:msg Ballot,Slot,Step). A follower that missed Accepts
// jumps forward to the leader's slot. Transport: a Transport interface
// with //sync:send and //sync:recv methods, implemented by a channel
// network.
//
// # Mutants (mutants.txt)
//
//   - ballot-from-attempt-counter (syncmono): the ballot of an attempt is
//     computed from the loop counter, which is lower than a ballot the
//     replica jumped to.
//   - vote-keeps-accept-step (syncsend): the Accepted vote is the received
//     Accept with only its sender changed, so it keeps step Accept.
//   - promise-reports-last-slot (syncsend): the Promise puts the
//     replica's number of accepted slots in the Slot field.
//   - accepted-any-slot (syncrecv): Accepted votes for earlier slots are
//     counted, so votes for an earlier slot choose this one.
//   - promise-old-ballot (syncrecv): the leader counts promises of any
//     ballot up to its own.
//   - follow-without-ballot-jump (syncjump): a replica follows the leader
//     of a later ballot without adopting that ballot.
package multipaxos
