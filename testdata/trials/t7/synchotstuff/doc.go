// Package synchotstuff is Sync HotStuff (Abraham, Malkhi, Nayak, Ren, Yin,
// "Sync HotStuff: Simple and Practical Synchronous State Machine
// Replication", IEEE S&P 2020) for n = 2f+1 replicas and a known delay
// bound Δ: in the steady state the leader of the view proposes a block
// extending the highest certified one, replicas vote to all, and a replica
// commits a block once f+1 votes certify it and 2Δ passed after its vote
// without a conflicting vote (an equivocation). A replica that sees no
// proposal within 4Δ, no certificate, or an equivocation blames the leader;
// f+1 blames end the view; in the view change every replica sends its
// highest certified block to the next leader, which waits 2Δ and extends
// the highest. This version is not pipelined: each height's 2Δ commit
// window ends before the next proposal (the leader waits Δ more).
//
// # Style
//
// Loop style: Replica.Run is one loop, one height per iteration, tag three
// receiver fields p.view,p.height,p.step set before the loop; a commit
// advances the height with continue and a view change sets the step to
// StepStatus, which the next iteration starts with. The transport is a
// Transport interface whose methods carry //sync:send and //sync:recv;
// Recv takes a deadline (the 2Δ and 4Δ timers). Messages are an interface
// with one struct per step, the step given as a constant
// (//sync:msg View,Height,StepVote), received with type switches and type
// assertions. Catch-up jumps: a proposal of a later height or view moves
// the replica there (p.view, p.height = m.View, m.Height); a blame of the
// current height ends the wait for the proposal or the votes and moves to
// StepBlame, the blame counting in the blame round; the new leader jumps to
// the highest height of the statuses it received (max adoption).
//
// # Mutants (mutants.txt)
//
//   - reblame-same-height (syncmono): without a blame certificate the
//     replica goes back to waiting for the proposal of the same height.
//   - status-certified-height (syncsend): the status carries the height of
//     the certified block, one less than the replica's.
//   - blames-of-earlier-heights (syncrecv): blames of earlier heights of the
//     view count towards the blame certificate.
//   - vote-without-catch-up (syncjump): a proposal of a later height is
//     voted for without moving to its height and view.
//   - status-no-height-jump (syncjump): the new leader adopts the highest
//     certificate without moving to its height.
package synchotstuff
