// Package dbftview is the consensus of dBFT 2.0 (Neo's delegated Byzantine
// fault tolerance, as in neo's ConsensusService): per block height, the
// primary of the view sends a PrepareRequest, validators answer with a
// PrepareResponse, n-f preparations make a validator send its Commit, and
// n-f commits accept the block; a validator whose timer expires asks for a
// ChangeView, and n-f of them move to the next view, whose primary is the
// next validator. A validator that committed never leaves its view
// (commit lock), and one that asked to leave commits only once more than f
// validators committed. Payloads said in a view are said again on each
// timeout (the role of dBFT's recovery messages). OnPersistCompleted is the
// ledger's notice that block sync persisted a block. Signatures and
// transactions are left out; the block is its hash.
//
// Style: handler form. The tag is on the process type, //sync:tag
// height,view, with the view a byte as in dBFT. The message is an
// interface whose tag is read through its methods: //sync:msg
// Height(),ViewNumber(); the handler OnReceive(p ConsensusPayload) does a
// type switch over the concrete payloads (which embed a common header).
// OnTimeout(height, view) and OnPersistCompleted(height, block) are local
// events. The transport is a LocalNode interface whose Broadcast is
// //sync:send. OnReceive drops other heights and earlier views and follows
// a later view (unless commit-locked) before storing; reset empties the
// mailbox (request, preparations, commits, changeViews) at every tag
// change.
//
// Mutants (mutants.txt):
//   - dbftview-commit-any-view (syncrecv): Commits of earlier views count.
//   - dbftview-preparations-per-height (syncrecv): preparations are kept
//     across a view change.
//   - dbftview-follow-only-changeview (syncjump): payloads of a later view
//     other than ChangeView are stored without moving to that view.
//   - dbftview-changeview-names-next (syncsend): the ChangeView carries the
//     view it asks for.
//   - dbftview-persist-any-height (syncmono): a late persist notification
//     of an earlier block moves the validator back.
package dbftview
