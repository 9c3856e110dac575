// Package etcdraft is Raft leader election and log replication (Ongaro and
// Ousterhout, USENIX ATC 2014) written the way go.etcd.io/raft writes it: a
// raft struct whose Step(m) dispatches through the function-valued field
// r.step (stepLeader, stepCandidate, stepFollower), a Tick() that calls the
// function-valued r.tick, an outbox r.msgs the driver drains, messages with
// a Type enum and a Term, term 0 for local messages (MsgHup, MsgBeat,
// MsgProp), and a send that stamps the term like etcd's.
//
// # Style
//
// Handler style: the process form of //sync:tag sits on the raft type,
// with a three-variable tag Term,Round,stage. Round numbers the leader's
// append rounds within a term (0 is the election); every MsgApp broadcast
// (heartbeat or proposal) opens the next one. stage is the exchange inside
// a round: Vote, VoteResp, App, AppResp. Messages carry Term and Round in
// fields and the stage through their Type, so the //sync:msg annotation maps
// the Type enum onto Stage. Step and Tick are the //sync:handler entry
// points; Tick reaches Step through the local MsgHup/MsgBeat. A message of
// a later term makes the node a follower of that term at the message's own
// round and stage (r.Round, r.stage = m.Round, stageOf(m.Type)), so that
// it never acts in a stage before the one that message was sent in. The mailboxes
// are r.votes (election) and r.acks (append round); reset empties them on a
// new term and bcastAppend on a new round. Unlike etcd, the leader commits
// from the acks of one round, and a voter ignores (instead of refusing) a
// second candidate of a term it has voted in.
//
// raft_test.go is the driver: 3 to 5 nodes over a lossy, reordering
// in-memory network, with the leader cut off now and then; it checks
// election safety and that committed entries never change.
//
// # Mutants (mutants.txt)
//
//   - beat-same-round (syncmono): the heartbeat re-sends MsgApp in the
//     current append round instead of opening a new one.
//   - reject-without-stage (syncsend): a voter that refuses its vote sends
//     MsgVoteResp without moving to stage VoteResp.
//   - no-stale-term-case (syncrecv): Step forgets to drop messages of older
//     terms, so old vote responses are counted.
//   - stale-appresp (syncrecv): the leader counts MsgAppResp of earlier
//     append rounds.
//   - append-without-jump (syncjump): a follower appends the entries of a
//     later append round without moving to that round.
//   - term-only-step-down (syncjump): a message of a later term moves the
//     node to that term's election, not to the message's round and stage
//     (what etcd does).
package etcdraft
