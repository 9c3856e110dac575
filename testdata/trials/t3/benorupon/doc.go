// Package benorupon is Ben-Or's randomized binary consensus for crash
// faults (Ben-Or, "Another advantage of free choice", PODC 1983; in the
// form of Aguilera and Toueg's correctness proof), n > 2f, written in the
// "upon" style of Distal and P: a Process reacts to each Report or Proposal
// the driver hands it (OnReport, OnProposal), and acts when a guard "upon
// n-f messages of the current step" holds.
//
// Phase r has two steps. Report: broadcast the estimate x; upon n-f
// reports, propose v if more than n/2 of them are v, and Bot otherwise.
// Propose: upon n-f proposals, decide v if at least f+1 of them are v; set
// x to v if at least one is v, and to a coin flip otherwise; go to phase
// r+1.
//
// A process that receives a message of a later step catches up instead of
// buffering it: a Report of a later phase makes it enter that phase with
// the reported value as its estimate; a Proposal of a later step makes it
// propose the same thing in that step. Both keep agreement: once v is
// decided in phase r0, every report of a later phase carries v (a catching
// up process copies a report), and a copied proposal is backed by the same
// majority of reports as the original.
//
// # Style
//
//   - The tag is on the process type, //sync:tag phase,step; the phase is
//     a uint32, the step a uint8 enum.
//   - One message type per step, the step a constant:
//     //sync:msg Phase,StepReport on Report, //sync:msg Phase,StepPropose
//     on Proposal; the handlers take the concrete types.
//   - The transport is a channel of the Message interface (chan<- Message)
//     that the driver drains and fans out: no annotation needed.
//   - The mailboxes are values of a generic tally type, emptied on every
//     change of the tag (enter, propose, the catch-up of OnProposal).
//   - Start is a local event (no message parameter): it enters phase 1.
//
// # Mutants (mutants.txt)
//
//   - late-report-counted (syncrecv): a report of the current phase that
//     arrives after the process moved to StepPropose is counted; after a
//     catch-up it can make the process propose twice in one phase.
//   - proposals-kept-across-phases (syncrecv): entering a new phase keeps
//     the proposals of the previous one.
//   - future-report-counted (syncjump): a report of a later phase is counted
//     in the current phase without catching up.
//   - same-phase-proposal-stored (syncjump): a proposal of the current phase
//     that arrives during StepReport is stored without moving to
//     StepPropose.
//   - catch-up-sends-old-phase (syncsend): the catch-up proposal is sent
//     before the phase is updated, so it carries the old phase.
//   - restart-from-phase-one (syncmono): Start re-enters phase 1 when called
//     on a running process.
package benorupon
