// Package raftelect is the leader election of Raft (Ongaro and Ousterhout,
// "In Search of an Understandable Consensus Algorithm", USENIX ATC 2014,
// Sec. 5.2), written in the handler style of etcd's raft package: a Node is
// a state struct whose methods Step (a received message) and Tick (a timer
// event) a driver calls, and whose sends go to an outbox slice that the
// driver drains after every call.
//
// # Style
//
//   - The tag lives on the process type: //sync:tag term,role on Node. The
//     term is the phase and the role (Follower, Candidate, Leader, in that
//     order) the round inside a term.
//   - One message type for every kind, Message, with the term in a field
//     and no round: //sync:msg Term,_.
//   - Step and Tick are //sync:handler entry points; send, the only way to
//     the outbox, is //sync:send.
//   - The votes map is the mailbox of a term: it is emptied whenever the
//     term or the role changes (becomeFollower, becomeCandidate,
//     becomeLeader).
//   - A message of a later term makes the node jump (becomeFollower) before
//     anything else; each message kind drops messages of earlier terms
//     itself, as the RPC handlers of hashicorp/raft do, answering a stale
//     vote request with its own term so that the stale candidate steps down.
//   - A candidate that hears the heartbeat of the leader of its own term
//     does not go back to Follower (that would move the tag back from
//     (term, Candidate) to (term, Follower)); it records the leader and
//     stops campaigning: it cannot win that term anyway, and its election
//     timer is reset like a follower's.
//
// The log is left out: every node's log is empty, so every vote request is
// up to date; the safety property checked by the test is Election Safety,
// at most one leader per term.
//
// # Mutants (mutants.txt)
//
//   - stale-vote-counted (syncrecv): a vote response of an earlier term is
//     counted towards the current campaign.
//   - votes-not-reset (syncrecv): a new campaign keeps the votes of the
//     previous term.
//   - term-adopted-without-stepdown (syncjump): a higher term is adopted by
//     assigning the field, keeping the old role and votes.
//   - role-kept-on-new-term (syncjump): becomeFollower forgets to reset the
//     role, so a leader stays leader in a term it did not win.
//   - stale-reject-echoes-term (syncsend): the rejection of a stale vote
//     request carries the requester's term instead of the node's.
//   - candidate-falls-back (syncmono): a candidate whose election timed out
//     drops back to Follower in the same term.
package raftelect
