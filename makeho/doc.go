// Package makeho implements 'ccvet makeho', the make-HO rewriting of Drăgoi
// and Widder, "Reducing asynchrony to synchronized rounds" (Sec. 3.3): from
// a //sync:tag loop that ccvet proves communication-closed, it generates the
// equivalent round-based machine for the [compho] runtime, as Go source in
// the loop's package.
//
// # What is generated
//
// For each tagged loop of a function F (a method (*T).F or a function F),
// the file <file>_compho.go beside the loop's file declares
//
//	type FMachine struct{ ... }            // the receiver, the parameters, the locals that live across rounds
//	func NewFMachine(recv, params...) *FMachine
//	func (m *FMachine) Init(c *compho.Ctx) // the statements before the loop, the first iteration's start
//	func (m *FMachine) Send<Round>(c *compho.Ctx)
//	func (m *FMachine) Update<Round>(c *compho.Ctx, mbox compho.Mailbox)
//	func (m *FMachine) Rounds() []compho.Round
//	func (m *FMachine) Halted() bool
//
// with one Send and one Update per constant of the round variable's enum,
// in order. The loop body is cut at the statements that set the round
// variable to a constant: the sends of a round become its Send (calls of
// //sync:send functions become c.Send or c.Broadcast), and the code after
// them its Update, where the reception loop becomes a loop over the
// mailbox that keeps the user's filter and stores (the loop condition
// becomes an early exit, so the messages are consumed as an asynchronous
// execution that receives them in sender order would). Every Send and
// Update starts with the round test of the paper (the round variable
// equals the round), so that the rounds after a continue are no-ops; a
// continue becomes a return, and a break or return out of the loop halts
// the machine. The phase increment, and the rest of the code before the
// first round's send, runs once per iteration, when the last round's
// Update ends (and in Init for the first iteration). The user's
// statements, names and comments are kept.
//
// The last variable of the tag is the round; the variables before it
// together are the phase, ordered lexicographically (height,round,step);
// a tag of one variable is a phase of one round, with no round test. The
// phase may also be increased anywhere on every path through the body
// when no continue skips it; a body that enters its first round at its
// end (phase++; round = First, or an if/else whose paths all do) starts
// in that round, which must be set before the loop too (rotate.go). A
// switch nested in a statement of a round's update, to the round the next
// top-level switch enters, is an early entry and stays in that update.
// Methods of the process that send, or receive (helpers, helper.go),
// become methods of the machine whose sends go through the round's
// context, or whose reception reads the round's mailbox. A range over a
// slice or an array keeps the slice and the index in the machine. The
// statements after the loop run when it ends (endLoop), their returns into
// the machine's result fields.
//
// A round may be entered inside an if at the top level of the loop body,
// when the statement after the if enters the same round for the other
// paths (Zab's leader-only rounds). The if's condition is then stored in a
// field of the machine where the if is evaluated, and the statements after
// the switch, which may only compute and send, become the next round's
// Send under that field: the path-guarded send of the paper.
//
// A round may also be entered on both paths of an if/else at the top
// level of the loop body (the coordinator and the participants of 2PC: one
// path sends what the other receives). The condition is stored in a field
// where the if is; the statements of each path before its switch make the
// Send (up to the path's last send) and the Update (the rest) of the
// current round, those after it the Send and Update of the round entered,
// each under the field. An if/else of a round that sends on one path and
// receives on the other (the leader sends, the others receive) is split
// in the same way within the round.
//
// # Nested loops
//
// A tagged loop in a function G whose tag extends the tag of a loop that
// calls G by two variables (Multi-Paxos: the outer loop tagged
// p.ballot,p.phase calls replicate, whose loop is tagged
// p.ballot,p.phase,p.slot,p.sstep) becomes a machine of its own, whose
// phase and round are the last two variables: nested loops become
// machines that call each other (Sec. 3.3). The call g(args) or x.g(args)
// in the outer loop becomes c.Call(NewGMachine(args)) or
// c.Call(NewGMachine(x, args)) in the Update of its round, and the
// iteration of the outer loop ends when the nested machine returns: the
// outer machine implements [compho.Returner], and its Returned runs the
// end of the iteration (the post statement, then the next iteration's
// start) that its last Update would otherwise run. So the call must be the
// last statement of the outer loop body, on the outer function's own
// pointer receiver if G is a method, and the nested loop the last
// statement of G; the rest is refused.
//
// # Channels
//
// Processes that communicate over Go channels are rewritten when the
// channels are annotated (version 2 of the language): //sync:peers on the
// field that holds the other processes' inboxes, indexed by process
// identity, and //sync:inbox on the field that holds the process's own
// inbox (a channel, or a struct of channels), both optionally naming the
// sender and message fields of the envelope the channels carry
// (//sync:inbox From,Msg). A send peers[q] <- m, peers[q].F <- m, or the
// same in a select with an empty default (a send that may be lost) becomes
// c.Send(q, m); a range over the table that sends the same message to
// every entry becomes c.Broadcast(m); a reception loop "for COND { select
// { case x := <-p.in: BODY; case <-timer.C: break label } }" becomes a
// loop over the mailbox, a message of the channel's type (or the envelope
// rebuilt from the mailbox's sender and message) in x. Receptions end on
// timeouts, which the heard-of sets model, so the timers of the
// receptions, and every statement that only creates, resets or stops one
// (a deferred timer.Stop() before the loop included), are dropped. A case
// <-ctx.Done(): return becomes a test of ctx.Err() before the mailbox is
// read. Without the annotations, an index into a slice of channels says
// nothing of the process it reaches, and such code is refused.
//
// # What is refused
//
// make-HO only rewrites loops on which the ccvet suite reports nothing.
// It refuses, with a diagnostic at the position concerned, the abort cases
// of the paper (a round variable without a bounded domain, a phase not
// increased on every iteration, more than one phase in one iteration, a
// round with no code on any path, more than one send or reception on a
// path of a round, a nested loop without the outer tags) and what this
// implementation does not support yet (its diagnostics say "not supported
// yet: ..."): channels that are not annotated or used otherwise than
// above, a defer before the loop other than a timer's stop, round changes
// nested in statements other than the forms above, calls of functions that
// receive without being //sync:recv functions or helpers, a round variable set to
// something other than its constants, a call of a nested loop's function other than as the last statement of
// the outer loop body, code after a nested loop in its function, sends
// after the reception of a round, and a few more. It never emits code it cannot vouch for.
package makeho
