// Package raftprevote is Raft leader election with the pre-vote extension
// and leader stickiness (Ongaro, "Consensus: Bridging theory and practice",
// PhD thesis, Stanford 2014, Sec. 9.6; the message types follow etcd's raft
// package).
//
// A follower that hears nothing from a leader for an election timeout first
// runs a pre-vote: it asks everybody whether they would vote for it. Only
// with a majority of pre-votes does it ask for real votes, and with a
// majority of votes it becomes leader and sends heartbeats. A node that
// heard from a leader within the election timeout ignores pre-vote and vote
// requests of later terms, so a node cut off from the others cannot depose
// a working leader. Votes are granted to candidates whose log is at least as
// up to date as the voter's.
//
// # Style
//
// The tag is (term, round), receiver fields of Node, where round has the
// type of the message kinds, as in etcd: the rounds of a term are
// MsgPreVote, MsgPreVoteResp, MsgVote, MsgVoteResp and MsgHeartbeat, in that
// order. Run is an event loop: one select per iteration on a context, a
// logical tick channel and the inbox; every message of a later term or
// round makes the node jump to it (a leader of an earlier term steps down),
// and a switch on the message type handles it. Unlike etcd, an election
// attempt, pre-vote included, moves the node to the next term: the term is
// the attempt number. A node that campaigned alone is therefore ahead of the
// others and rejoins them at the next election.
//
// # Mutants
//
//   - retry-same-term (syncmono): a node whose pre-vote failed retries in the
//     same term, going back from round MsgPreVoteResp to MsgPreVote.
//   - resp-before-round (syncsend): a voter answers a vote request before
//     moving to round MsgVoteResp.
//   - old-heartbeats (syncrecv): heartbeats are let through the stale-message
//     filter whatever their term, so a node follows a deposed leader.
//   - same-term-no-jump (syncjump): a node jumps to later terms but not to
//     later rounds of its own term, and handles such messages in its old
//     round.
package raftprevote
