// Package diembft is the consensus of DiemBFT v4 (the Diem team, "DiemBFT
// v4: State Machine Replication in the Diem Blockchain", 2021), which is
// Jolteon (Gelashvili, Kokoris-Kogias, Sonnino, Spiegelman, Xiang, "Jolteon
// and Ditto", FC 2022), for n = 3f+1 nodes: the leader of a round proposes
// a block carrying the QC of the round before (or a TC and its high QC),
// nodes vote to the leader of the next round, whose QC of 2f+1 votes lets
// it enter that round and propose; a node whose round makes no progress
// broadcasts a timeout with its highest QC, and 2f+1 timeouts of a round
// form a TC that enters the next round. A block is committed when its child
// of the next round is certified (2-chain rule). The pacemaker's round
// synchronisation on f+1 timeouts, block retrieval, signatures and the
// execution pipeline are left out; a vote carries the voted block so that a
// leader that missed the proposal can still extend it.
//
// # Style
//
// Handler style: //sync:tag round,step on the Node type (step: Propose,
// Vote, Timeout); OnProposal, OnVote, OnTimeout, OnLocalTimeout and Start
// are the //sync:handler entry points, one per message kind, taking
// concrete message types. Messages implement the Message interface and give
// their tag through methods (//sync:msg Round(),Kind()), on the interface
// and on each concrete type; Kind returns a constant per type. send and
// broadcast append to an outbox the driver drains. Rounds advance by a
// certificate: a proposal of a later round whose QC or TC is of the round
// before, a QC formed from votes, a TC formed from timeouts; a vote or
// timeout of a later round moves the node to that round first (advance
// empties the vote and timeout mailboxes), a timeout of the current round
// makes the node give up on it too.
//
// diembft_test.go is the driver: 4 or 7 nodes, some crashed, over a lossy
// in-memory network that mostly keeps order, firing every node's local
// timer when nothing is in flight; it checks that no node forks and that
// the ledgers are prefixes of one another.
//
// # Mutants (mutants.txt)
//
//   - tc-enters-its-round (syncmono): a TC makes the node enter the TC's
//     round instead of the next one.
//   - propose-round-from-qc (syncsend): the leader numbers its block after
//     its highest QC, not after the round it is in.
//   - late-votes-count (syncrecv): votes of the previous round count
//     towards this round's QC.
//   - timeouts-any-round (syncrecv): timeouts of earlier rounds count
//     towards this round's TC.
//   - votes-without-advance (syncjump): the next leader counts votes of a
//     later round without entering it.
//   - vote-without-advance (syncjump): a node votes for a later round's
//     proposal without entering its round.
package diembft
