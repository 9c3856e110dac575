// Package raftprevote implements Raft leader election with the Pre-Vote
// extension (D. Ongaro, "Consensus: bridging theory and practice", PhD
// thesis, 2014, section 9.6; the message layout follows etcd's raft). Log
// replication is elided: a heartbeat carries the position of the leader's
// last entry, which followers adopt.
//
// A follower that has not heard from a leader for an election timeout first
// asks the others whether they would vote for it in the next term (MsgPreVote,
// whose Term is that next term, as in etcd), without increasing its own
// term. Only with a quorum of pre-votes does it increase its term and ask
// for real votes. A node grants a pre-vote only if it has not heard from a
// leader for an election timeout itself and the candidate's log is at least
// as up-to-date as its own. So a node cut off from the cluster does not
// inflate its term and disrupt the leader when it comes back. Safety: at
// most one leader per term.
//
// Unlike etcd, a pre-candidate does not go back to following the leader of
// its term when it hears from it again: it has left the term's round
// StepLead, so the heartbeats of that term are of an earlier round. It
// rejoins when its pre-vote succeeds or a later term starts.
//
// # Style
//
// Handler style, etcd-like: Node is the process (//sync:tag term,step on the
// type) with the handlers Step(m) and Tick(); messages go to an outbox
// through n.send (//sync:send) and are read by the driver with
// ReadMessages. The round of a term is a Step: StepVote (an election: vote
// requests and answers), StepLead (a leader is known: heartbeats), then
// StepPreVote (pre-vote for the next term). Message is one struct with a
// MessageType; its tag is given by methods (//sync:msg Phase(),Round()):
// Round maps the MessageType enum onto the Step enum, and Phase reads the
// term through the protobuf-style getter GetTerm. The pre-vote messages
// carry the term the sender would campaign for, one more than the term it
// is in: they belong to round StepPreVote of the sender's current term, so
// Phase returns Term-1 for them. A node's mailboxes are the maps preVotes
// and votes.
//
// # Mutants (mutants.txt)
//
//   - rejected-becomes-follower: a pre-candidate rejected by a quorum turns
//     follower with becomeFollower, which resets its step to StepVote in the
//     same term (syncmono).
//   - prevote-current-term: the pre-vote request carries the node's term
//     instead of the next one, so it is tagged with the previous term
//     (syncsend).
//   - count-old-grants: the candidate counts vote answers without checking
//     their term, so a grant of an earlier election counts (syncrecv).
//   - prevote-keeps-term: a pre-vote request of a later term is answered
//     without the node moving to that term, on the belief that a pre-vote
//     must never change the term (syncjump).
package raftprevote
