// Package ibftround is the consensus core of IBFT 2.0 (Saltini and
// Hyland-Wood, "IBFT 2.0: A Safe and Live Variation of the IBFT Blockchain
// Consensus Protocol for Eventually Synchronous Networks", 2019; the shape
// of go-ibft), n = 3f+1 validators deciding one block per height: a Core
// whose HandleMessage the driver calls with every message, including the
// validator's own round timer. The justification of proposals and round
// changes, and signatures, are left out: the round change is the
// crash-fault core, in which the proposer of a round proposes the block
// prepared in the latest round among a quorum of ROUND-CHANGEs.
//
// # Style
//
//   - A three-component tag on the process type:
//     //sync:tag height,round,state.
//   - The wire message is protobuf-shaped: optional Height and Round are
//     pointers read through getters, and the message kind is another enum
//     than the validator's state, mapped onto it:
//     //sync:msg GetHeight(),GetRound(),Type{MsgRoundChange:StateRoundChange,...}.
//   - The round timer arrives through the same entry point as a message
//     with no height, declared a local event with //sync:local
//     GetHeight()==0; HandleMessage is the only network handler, Start the
//     only other (local) one.
//   - The transport is a generic Outbox[M] whose Push is //sync:send;
//     messages are built by a helper (c.msg) from the current tag.
//   - The mailboxes are votes (prepares, then commits) and roundChanges,
//     emptied by resetRound whenever the round or height changes; the
//     proposer adopts the prepared block of the highest round.
//   - A validator jumps to a later round of its height on the proposal of
//     that round's proposer; messages of other heights are dropped (block
//     sync is out of scope).
//
// # Mutants (mutants.txt)
//
//   - rc-of-older-round (syncrecv): the proposer counts ROUND-CHANGEs of an
//     earlier round.
//   - old-height-replayed (syncrecv): messages of finalized heights are
//     handled as if of the current height.
//   - rc-built-before-round (syncsend): the ROUND-CHANGE is built before
//     the round is advanced, so it names the failed round.
//   - timeout-keeps-round (syncmono): the timer moves back to the
//     round-change state of the current round.
package ibftround
