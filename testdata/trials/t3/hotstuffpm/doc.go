// Package hotstuffpm is chained HotStuff with a pacemaker (Yin et al.,
// "HotStuff: BFT Consensus with Linearity and Responsiveness", PODC 2019,
// Algorithms 3-5; the timeout path follows LibraBFT's NewView to the next
// leader). A leader proposes a block extending the highest QC it knows;
// replicas vote for it to the next leader, which aggregates the votes into
// the QC its own proposal carries; a replica whose view times out moves to
// the next view and sends its highest QC to that view's leader, which opens
// the view once a quorum of NewViews came (max-QC adoption from a quorum).
// Blocks commit by the three-chain rule. Signatures are left out.
//
// Style: handler form. The tag is on the process type, //sync:tag
// view,phase, with two rounds per view (PhasePropose, PhaseVote). Each
// message type has its own handler (OnProposal, OnVote, OnNewView) and
// carries its round as a constant: //sync:msg View,PhasePropose. The
// pacemaker's timer is the local handler OnTimeout(view), called with the
// view the timer was armed for. The transport is an interface with one
// //sync:send method per message type. Every handler drops the messages
// of earlier rounds with stale, jumps forward with catchUp, and the
// mailbox (votes, newViews) is emptied by enter at every tag change.
//
// Mutants (mutants.txt):
//   - hotstuffpm-stale-timer (syncmono): a late timer of an old view moves
//     the replica back.
//   - hotstuffpm-timeout-retries-view (syncmono): a timeout goes back to
//     the Propose phase of the same view.
//   - hotstuffpm-newview-names-old-view (syncsend): the NewView carries the
//     view that timed out, not the one entered.
//   - hotstuffpm-proposal-view-from-qc (syncsend): the proposal is numbered
//     qc.View+1 instead of the leader's view.
//   - hotstuffpm-proposal-view-only (syncrecv): a proposal of the current
//     view reaching a replica that already voted is stored.
//   - hotstuffpm-newviews-allocated-once (syncrecv): the NewViews of an
//     earlier view are counted.
//   - hotstuffpm-newview-no-enter (syncjump): the leader collects NewViews
//     of a later view without entering it.
package hotstuffpm
