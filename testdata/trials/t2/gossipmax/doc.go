// Package gossipmax is epoch-based all-to-all max aggregation with early
// termination, the aggregation layer of gossip-based membership and
// monitoring systems (Kempe, Dobra and Gehrke, "Gossip-based computation of
// aggregate information", FOCS 2003, with the fan-out set to all peers).
//
// In every epoch each node starts from a fresh local reading and, for at
// most Rounds rounds, sends the largest value it knows to every peer and
// keeps the largest value it hears. A node stops an epoch early once every
// node reported the value it holds, and records that value as the epoch's
// result.
//
// # Style
//
// The tag lives in two local variables of Node.Run, epoch and round,
// declared together; round is a plain int bounded by Config.Rounds. The
// epoch advances at the start of each outer iteration and the round is the
// counter of an inner for loop; early termination leaves that inner loop
// with break. One message type carries both components in fields. The
// transport is plain Go channels, one inbox per node, received with a
// select over the inbox and a timer. A node that hears a later round of its
// own epoch fast-forwards to it.
//
// # Mutants
//
//   - stale-msg-round (syncsend): the outgoing message is built once per
//     epoch and its Round field is not refreshed in later rounds.
//   - lagging-round (syncrecv): the filter also keeps reports of the
//     previous round, "still useful for the max".
//   - no-fastforward (syncjump): a report of a later round is counted but the
//     node stays in its round.
//   - fastforward-first (syncjump): the node fast-forwards to the first later
//     round among its reports instead of the latest.
package gossipmax
