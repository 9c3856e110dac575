// Package raftlog is the log replication of Raft (Ongaro and Ousterhout,
// "In Search of an Understandable Consensus Algorithm", USENIX ATC 2014,
// Sec. 5.2-5.4), with the leader election it needs, written the way
// etcd's raft package is: a node is a state struct whose Step method the
// driver calls with every message, and whose outbox the driver drains.
//
// Style: handler form. The tag is on the process type, //sync:tag
// term,state, with the role enum declared in the order of the rounds of a
// term (candidate, follower, leader). Step is the only handler. Messages
// are protobuf-style: optional scalars are pointers read through getters,
// and the tag is the getter //sync:msg GetTerm(),_ (the role is not
// carried). Ticks and client proposals are local messages of term 0
// (//sync:local GetTerm()==0) passed to the same Step. The one send
// method stamps the term (//sync:send stamps). The mailbox of a term is
// the vote map and the leader's match/next maps, emptied by reset at every
// change of the tag. A message of an older term is dropped, except that a
// deposed leader's MsgApp is answered (with the current term) so that it
// steps down; a message of a newer term first moves the node to that term
// as a follower.
//
// Mutants (mutants.txt):
//   - raftlog-campaign-same-term (syncmono): a follower campaigns in its
//     current term, going back from (t, Follower) to (t, Candidate).
//   - raftlog-stale-appresp (syncrecv): the leader counts a MsgAppResp of
//     an older term towards its commit quorum.
//   - raftlog-votes-not-reset (syncrecv): the vote map is not emptied when
//     the term advances.
//   - raftlog-vote-keeps-term (syncjump): a MsgVote of a higher term is
//     handled (the vote recorded) without moving to that term.
//
// No syncsend mutant: the stamping send puts the current term on every
// message, so a mistake of condition II would have to bypass it.
package raftlog
