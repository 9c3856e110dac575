// Package chubbylease implements a master-lease election in the style of
// Chubby (Burrows, "The Chubby lock service for loosely-coupled distributed
// systems", OSDI 2006, and Chandra et al., "Paxos Made Live", PODC 2007):
// replicas elect a master by a Paxos-like exchange in numbered epochs
// (Prepare, Promise, Grant, Ack), and the master holds a lease that the
// replicas honour by refusing to promise another candidate until it
// expires. The master counts its lease from before it sent the grant, minus
// a drift margin, so it ends before the lease of every replica that honours
// it: at most one master holds a lease at any time. The master renews the
// lease ahead of its end by running a new epoch.
//
// Style: handler style with a clock: //sync:tag epoch,step on the Node type,
// whose fields are initialised by a composite literal in NewNode; the
// entry points Tick, OnPrepare, OnPromise, OnGrant and OnAck are
// //sync:handler methods. One message type whose Kind field is the round
// (//sync:msg Epoch,Kind). Sends go through a stamping helper (send,
// //sync:send stamps) that writes the replica's epoch into the message;
// the Transport interface's Send is //sync:send too. The mailboxes are the
// candidate's promises and acks maps, emptied by enter.
//
// Mutants (mutants.txt):
//   - idle-on-expiry (syncmono): lease expiry resets the step to Prepare.
//   - prepare-before-new-epoch (syncsend): the Prepare is sent (and stamped)
//     before the new epoch is entered.
//   - promise-any-epoch (syncrecv): promises of an earlier epoch count.
//   - grant-without-jump (syncjump): a later epoch's grant is honoured
//     without moving to that epoch.
package chubbylease
