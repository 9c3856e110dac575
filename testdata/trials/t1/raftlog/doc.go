// Package raftlog is the log replication of Raft (Ongaro and Ousterhout,
// "In Search of an Understandable Consensus Algorithm", 2014, Sec. 5.3 and
// 5.4), with a fixed leader per term, written for ccvet's trial corpus.
//
// The leader of term t is replica t mod n. One iteration of Replica.Run
// is one term, in four rounds:
//
//	Status  everyone sends its log to the term's leader, which takes the
//	        most up-to-date log of a majority (what Raft's election
//	        restriction guarantees the elected leader has) and appends one
//	        client command
//	Append  the leader sends AppendEntries with its whole log and commit
//	        index; followers replace their log with it (Raft's truncation
//	        of conflicting entries, done wholesale)
//	Ack     followers acknowledge the length they store; the leader commits
//	        the highest index a majority stores if its entry is of the
//	        current term (Sec. 5.4.2)
//	Commit  the leader announces the commit index
//
// A replica that hears the AppendEntries of a later term follows that
// term's leader at once. The safety property is that committed prefixes
// are prefixes of one another.
//
// # Style
//
// The tag is two receiver fields, //sync:tag r.term,r.step, and each
// round has its own message type with the round as a constant
// (//sync:msg Term,Append). The transport is channels of any: the inbox
// and the peer table are fields annotated //sync:inbox and //sync:peers,
// and sends go through helpers (r.send, r.broadcast, a select with an
// empty default that may lose the message; a broadcast holds a lock the
// cluster shares, so that its copies are all enqueued before anybody can
// react to one). Receptions are helpers with
// their own loop around a select with a timer: a generic
// collect[M](r, need, keep) handed a filter literal, and awaitAppend and
// awaitCommit, which return one message.
//
// # Mutants (mutants.txt)
//
//   - term-from-attempt-counter (syncmono): the term is computed from the
//     loop counter and goes below a term the replica followed.
//   - append-stamped-last-log-term (syncsend): AppendEntries carries the
//     term of the last log entry instead of the current term.
//   - commit-announced-during-ack (syncsend): the Commit message is sent
//     before the leader enters round Commit.
//   - stale-acks-count (syncrecv): acks of earlier terms count towards the
//     commit index.
//   - append-from-deposed-leader (syncrecv): a follower takes the
//     AppendEntries of an older term's leader.
//   - follow-later-leader-without-term (syncjump): a follower acknowledges
//     a later term's AppendEntries without moving to that term.
package raftlog
