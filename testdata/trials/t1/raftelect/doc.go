// Package raftelect is the leader election of Raft (Ongaro and
// Ousterhout, "In Search of an Understandable Consensus Algorithm", 2014,
// Sec. 5.2 and 5.4.1), written for ccvet's trial corpus.
//
// One iteration of Node.Run is one term, in three rounds:
//
//	Solicit  nodes that stand this term (a per-node schedule stands in for
//	         Raft's randomized election timeout) broadcast RequestVote; the
//	         others broadcast one with Stand false, so that the round ends
//	         when every node was heard of rather than on its timer
//	Grant    every node votes for at most one candidate of the term: itself
//	         if it stands, else the lowest-id candidate whose log is at
//	         least as up to date (the election restriction)
//	Lead     a candidate with a majority of votes is leader of the term and
//	         broadcasts a Heartbeat; followers record it
//
// A node that sees a RequestVote or a Heartbeat of a higher term steps
// down to it, as Raft's "if RPC request contains term T > currentTerm: set
// currentTerm = T, convert to follower". The safety property is Election
// Safety: at most one leader per term.
//
// # Style
//
// The tag is two receiver fields, //sync:tag n.term,n.step. There is one
// message type per round, each with its round as a constant
// (//sync:msg Term,Solicit and so on). The transport is a Transport
// interface whose messages are of type any, with //sync:send methods and a
// //sync:recv method with a timeout; receptions type-assert. The step-down
// is a loop computing the maximum term of the requests, then one
// assignment.
//
// # Mutants (mutants.txt)
//
//   - only-candidates-bump-term (syncmono): only a node that stands
//     increases its term, so followers go back to Solicit in the same term.
//   - grant-built-before-stepdown (syncsend): the vote is built before the
//     node steps down to the higher term and carries the old term.
//   - votes-of-any-term (syncrecv): a candidate drops votes of later terms
//     but counts those it got in earlier terms.
//   - stale-heartbeat (syncrecv): a follower takes heartbeats of old terms
//     and moves its lastTerm back.
//   - no-stepdown (syncjump): a node keeps the requests of higher terms but
//     votes in its own term.
//   - heartbeat-without-jump (syncjump): a follower takes the heartbeat of a
//     later term and records its leader without moving to that term.
package raftelect
