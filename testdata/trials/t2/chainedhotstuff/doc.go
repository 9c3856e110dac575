// Package chainedhotstuff is chained HotStuff (Yin, Malkhi, Reiter, Gueta,
// Abraham, "HotStuff: BFT Consensus with Linearity and Responsiveness",
// PODC 2019, Algorithm 3) with a simple round-robin pacemaker.
//
// In view v the leader of v proposes a block extending the block certified
// by the highest quorum certificate (QC) it knows. Replicas that find the
// block safe vote for it, sending the vote to the leader of view v+1, which
// forms the QC from 2f+1 votes. A replica that saw no proposal sends its
// highest QC to the next leader instead (NewView); a next leader without a
// vote quorum adopts the highest QC of a quorum of NewView and Vote
// messages. Locking and the three-chain commit rule follow the paper.
//
// Style: the tag is two receiver fields, //sync:tag r.view,r.phase, updated
// by the method Run; the phase is reset at the start of every iteration,
// right after the view is increased. There is one message type per phase
// with a constant phase (Proposal in Propose; Vote and NewView in Collect),
// all passed by pointer as a Msg interface and told apart by type switches.
// The Transport interface has //sync:send Send and Broadcast and
// //sync:recv Recv with a deadline. A replica that receives a proposal of a
// later view jumps to it.
//
// Mutants (mutants.txt):
//   - pacemaker-from-highqc (syncmono): the next view is computed from the highest QC, which can go backwards after a failed view.
//   - newview-qc-view (syncsend): NewView is stamped with the view of the QC it carries instead of the current view.
//   - stale-newview (syncrecv): the next leader drops only NewView messages of later views, counting earlier ones.
//   - future-proposal-no-jump (syncjump): a later view's proposal is voted on without moving to that view.
package chainedhotstuff
