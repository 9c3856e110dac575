// Package streamlet implements the Streamlet blockchain protocol of Chan
// and Shi, "Streamlet: textbook streamlined blockchains" (AFT 2020), for n
// nodes of which fewer than n/3 are faulty.
//
// Time is divided into epochs, each with a leader. At the start of an epoch
// (OnEpoch, called by a clock) the leader proposes a block extending one of
// the longest notarized chains it knows. A node votes for the first proposal
// of the epoch's leader that extends one of the longest notarized chains
// it knows (OnProposal). A block with votes from 2n/3 nodes is notarized
// (OnVote). When three adjacent blocks of a chain, of consecutive epochs,
// are notarized, the middle one and its ancestors are final. Safety: the
// final chains of any two honest nodes are prefixes of one another.
//
// Unlike the paper, a node counts only the votes of its current epoch (a
// vote of an earlier epoch is dropped): under the synchrony the protocol
// needs for progress, votes arrive within their epoch, and the rounds stay
// communication-closed.
//
// # Style
//
// Handler style: Node is the process (//sync:tag epoch,step on the type)
// with the handlers OnEpoch, OnProposal and OnVote. Messages have a nested
// header carrying the epoch (//sync:msg Hdr.Epoch,StepPropose): one message
// type per round, with a constant round. A node whose clock is behind
// jumps to the epoch of a proposal or vote. The mailbox is the map votes,
// emptied when the node enters an epoch. The transport is a Transport
// interface with two //sync:send methods.
//
// # Mutants (mutants.txt)
//
//   - duplicate-ticks-only: OnEpoch ignores a tick for the current epoch
//     but not a late tick for an earlier one, after a jump (syncmono).
//   - header-before-enter: the leader builds its proposal's header before
//     entering the new epoch (syncsend).
//   - vote-twice: OnProposal does not check that the node already voted in
//     the epoch, so a second proposal of the epoch gets a vote (syncrecv).
//   - vote-without-catch-up: a proposal of a later epoch is voted for
//     without the node entering that epoch (syncjump).
package streamlet
