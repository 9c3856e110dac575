// Package mencius implements Mencius (Mao, Junqueira and Marzullo,
// "Mencius: Building Efficient Replicated State Machines for WANs", OSDI
// 2008) in handler style, slot by slot: slot s is owned by server s mod n,
// which suggests its next client request in it or, having none, skips it.
// A suggestion is accepted by the servers, and a majority of Accepted makes
// the owner broadcast a Commit; a skip is learned at once, since in
// coordinated Paxos only the owner may suggest anything but a no-op. The
// revocation of a crashed owner's slots (a full Paxos instance proposing a
// no-op) is left out.
//
// Style: //sync:tag slot,phase on the Server type, one //sync:handler per
// message kind (OnSuggest, OnSkip, OnAccepted, OnCommit) plus Start. The
// message is a protobuf-style struct with nil-safe getters; its tag is read
// through methods (//sync:msg GetSlot(),Phase()), and Phase maps the wire
// enum Kind onto the process's enum Phase. Transport is Go channels: a
// //sync:peers table of send-only channels the handlers send on; the driver
// owns the inboxes. Filters are inline in each handler; jumps go through
// enter.
//
// Mutants (mutants.txt):
//   - resync-to-suggestion (syncmono): the server follows any suggestion's
//     slot, also an earlier one.
//   - owner-learns-then-commits (syncsend): the owner enters the next slot
//     before broadcasting the Commit, which carries the wrong slot.
//   - accepted-no-slot-check (syncrecv): Accepted of an earlier slot count.
//   - commit-without-jump (syncjump): a later slot's Commit is learned
//     without moving to that slot.
package mencius
