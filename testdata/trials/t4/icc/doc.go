// Package icc implements the Internet Computer consensus protocol (Camenisch
// et al., "Internet Computer Consensus", PODC 2022) in handler style, in a
// model where a replica finalizes (or gives up on) each height before the
// next one: per height, rank-ordered block makers propose, replicas
// broadcast notarization shares on the first block they see, a quorum of
// n-f shares notarizes it, and a replica that shared only that block at the
// height broadcasts a finalization share; n-f finalization shares finalize
// the block. A time-out before notarization moves to the next rank (the next
// block maker); a time-out after it leaves the height unfinalized.
//
// Style: the tag is three receiver fields, //sync:tag height,rank,step on
// the Replica type, and the four entry points OnBlock, OnNotarize,
// OnFinalize and OnTimeout are //sync:handler methods. Messages are one
// struct per step with the step as a constant component (//sync:msg
// H,R,Notarize), gossiped through an interface type Artifact whose
// components are methods (//sync:msg Height(),Rank(),Step()), over a Gossip
// interface with a //sync:send method. Jumps go through a helper (enter,
// advance) that empties the per-rank mailboxes; stale messages are dropped
// by a helper (stale) or an inline filter.
//
// Mutants (mutants.txt):
//   - timeout-same-rank (syncmono): a time-out retries the rank by going
//     back to Propose instead of moving to the next rank.
//   - share-built-early (syncsend): the notarization share is built before
//     the jump to the block's rank, so it carries the old rank.
//   - notarize-filter-height-only (syncrecv): the share filter compares the
//     height only, so shares of an earlier rank of the height are counted.
//   - notarize-no-jump (syncjump): a share of a later rank is counted without
//     moving to that rank, and a quorum triggers a finalization share.
package icc
