// Package syncjump defines an Analyzer for condition IV of a
// synchronization tag: a process that stored a message from a later round
// jumps to that round before it acts again.
//
// # Analyzer syncjump
//
// syncjump: check that a process that stored a message from a future round jumps to it first (condition IV)
//
// Condition IV of Definition 4 of "Reducing asynchrony to synchronized
// rounds" (Drăgoi and Widder): after a reception stored a message of a
// later round than the current tag, the process sets its tag to the
// highest tag received before it sends, receives, or updates its state. One
// of the four conditions that together make a //sync:tag loop
// communication-closed.
//
// A typical violation: a follower that accepts a NEWEPOCH for its epoch or
// a later one (m.Epoch >= p.epoch) but forgets to adopt it,
//
//	p.lab = AckE
//	p.net.Send(p.leader, p.ackEpoch()) // this send is reached while the mailbox may hold a NewEpoch of a later round (stored at line 148) and the tag has not jumped to it
//
// Fix: p.epoch = newEpochs[0].Epoch before entering AckE.
//
// Where the jump is checked. At the next send or receive after the
// reception, and where the iteration ends (the mailbox is then dropped): a
// process that updated an algorithm variable with a later round's message
// at hand and never jumped is reported at that update (p.leader = true
// after counting votes of later terms). A process that updates nothing but
// chooses its path by the later round's messages acts on them too: a test
// of the mailbox, or of data kept from the reception (hi = max(hi, m.Inst);
// if hi > p.inst { continue }), whose path ends the iteration without the
// jump is reported at the test. A test that bounds the mailbox's length
// from above (if len(votes) < quorum { continue }) is not: without the
// later messages the count is lower still. Tests inside a loop over the
// mailbox and of a count kept in an integer are not followed this way.
// Statements between the reception and the jump may update the state (p.state
// = Follower; p.term = m.Term): only communication points and the end of
// the iteration count.
//
// What is a jump. Setting the tag from the mailbox so that it is at least
// every stored message's tag:
//
//   - from the only message of a mailbox known to hold exactly one
//     (for len(prepares) == 0 { ... } with prepares a local):
//     p.ballot = prepares[0].Ballot;
//   - from a loop computing the maximum, whose body is that one statement
//     over the mailbox variable itself: for _, m := range mbox { if
//     m.Round > x { x = m.Round } } (or x = max(x, m.Round)), x being the
//     synchronization variable or a local later assigned to it, or a call
//     of a method of the process whose body is that statement on its
//     parameter (p.stepDown(m.Term));
//   - setting a lower component (b.slot = max(b.slot, fwd.Slot)) is the
//     jump only if the higher ones already hold the message's.
//
// Setting the tag from one message of a mailbox that may hold several
// (p.ballot = prepares[0].Ballot, or prep := prepares[0] first) is "cannot
// prove condition IV ... it is set at line N from one of them, and the
// mailbox may hold several": the first message need not be the latest.
// Write the jump as a loop computing the maximum. What is known of a
// field's length does not survive the blocks of the reception loop, so the
// same code with a field mailbox is "cannot prove" too. Any other loop that
// sets the tag is not a jump to the latest round: a violation when the path
// saw a stored message above the tag and did not jump to it, "cannot prove"
// otherwise (ccvet does not count iterations). A later round's message kept
// across iterations of an event loop ("the mailbox keeps it across
// iterations of the loop") is "cannot prove", unless the case jumps at
// once.
//
// Check a "cannot prove" finding, then suppress it with //sync:ignore
// syncjump reason, or restructure the code.
package syncjump
