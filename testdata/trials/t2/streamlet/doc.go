// Package streamlet is the Streamlet blockchain protocol (Chan and Shi,
// "Streamlet: Textbook Streamlined Blockchains", AFT 2020).
//
// Time is divided into epochs. In each epoch the epoch's leader proposes a
// block extending one of the longest notarized chains it knows; every
// replica votes for the first such proposal of the epoch; a block with votes
// of at least 2n/3 replicas is notarized. When three notarized blocks with
// consecutive epochs form a chain, the chain up to the second of them is
// final.
//
// Style: the tag lives in two locals of Run, epoch, step := 1, Proposing,
// annotated //sync:tag epoch,step; the epoch and the step are advanced and
// reset at the end of each iteration. Each round has its own message type
// with a constant step (//sync:msg Epoch,Proposing and Epoch,Voting), sent
// by pointer over Go channels (//sync:peers and //sync:inbox fields) as
// values of an interface type, told apart by a type switch; every wait is a
// select on the inbox, an epoch timer and the context. A replica that
// receives the proposal of a later epoch jumps to that epoch.
//
// Mutants (mutants.txt):
//   - epoch-advances-on-notarize (syncmono): the epoch only advances when it notarized a block, yet the step is reset.
//   - vote-before-step (syncsend): the vote is sent before the step moves to Voting.
//   - stale-proposal (syncrecv): the proposal filter no longer checks the epoch, so an old leader's proposal is voted for.
//   - future-proposal-no-jump (syncjump): a later epoch's proposal is voted for without moving to that epoch.
package streamlet
