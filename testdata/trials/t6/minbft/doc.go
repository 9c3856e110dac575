// Package minbft is a blind trial protocol for ccvet: the normal case and
// view change of MinBFT, from Veronese, Correia, Bessani, Lung and
// Verissimo, "Efficient Byzantine Fault-Tolerance" (IEEE TC 2013), with
// n = 2f+1 replicas.
//
// Each replica holds a trusted counter, the USIG, which gives every message
// it certifies a unique, increasing counter value, so a faulty primary cannot
// send two different PREPAREs for the same position. In view v the primary
// (v mod n) sends PREPARE for the next request; a replica accepts a PREPARE
// of the primary whose counter is above the last one it saw from it, and
// sends COMMIT to the others; its own and f matching COMMITs of others
// execute the request. A replica that times out asks for view v+1 by
// broadcasting VIEW-CHANGE with the requests it accepted; the new primary
// takes the longest of f+1 of them and sends NEW-VIEW; replicas install it,
// possibly jumping over views they missed. Simplifications: counters are checked for freshness rather than
// for exact succession, COMMITs carry no USIG, and request retransmission is
// left out.
//
// # Style
//
// Loop style: Replica.Run is one loop tagged //sync:tag r.view,r.slot,r.step
// on receiver fields, a three-variable tag: slot counts the requests ordered
// in the current view and goes back to 0 when the view increases. Steps are
// ViewChange < NewView < Prepare < Commit; the step is set at the start of
// each round, and a view change is entered by nextView, which also resets the
// slot. A NEW-VIEW of a later view received while waiting for a PREPARE or a
// NEW-VIEW makes the replica jump to that view. One message type carries the
// step in a field (//sync:msg View,Slot,Step). The channels are struct
// fields, inbox <-chan Message and peers []chan<- Message, not annotated;
// receptions are inline select loops with a time.Timer.
//
// # Mutants (mutants.txt)
//
//   - retry-slot (syncmono): a COMMIT quorum that times out retries the PREPARE
//     round of the same slot instead of changing view.
//   - commit-log-position (syncsend): the COMMIT carries the request's
//     position in the log instead of the slot of the view.
//   - commit-any-slot (syncrecv): COMMITs of earlier slots of the view are
//     no longer dropped, and count.
//   - newview-no-jump (syncjump): a NEW-VIEW of a later view is installed
//     without moving to that view.
package minbft
