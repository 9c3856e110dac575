// Package syncrecv defines an Analyzer for condition III of a
// synchronization tag: only messages of the current or a later round are
// stored.
//
// # Analyzer syncrecv
//
// syncrecv: check that a received message is stored only if it is from the current or a later round (condition III)
//
// Condition III of Definition 4 of "Reducing asynchrony to synchronized
// rounds" (Drăgoi and Widder): a reception stores a message in the mailbox
// only if its tag is the current one or a later one (the current one
// exactly, if its //sync:msg has a _), and a reception writes nothing but
// the mailbox. One of the four conditions that together make a //sync:tag
// loop communication-closed.
//
// A typical violation: a leader that rejects only the Acks of later
// ballots lets those of an earlier ballot count again,
//
//	if !ok || m.Ballot > p.ballot || m.Step != p.step {
//		continue
//	}
//	acks[m.From] = m // Message stored without checking that its tag is >= (p.ballot,p.step): a message of an earlier round can get in
//
// Fix: m.Ballot != p.ballot. A message whose tag has a _ (a Nack that
// carries its ballot but not its step) must be of the current round: if
// m.Ballot >= p.ballot { rejected = max(rejected, m.Promised) } is
// reported, since a message of a later round gets in. The other half of
// the condition: p.history = m.History while collecting messages is "p.history
// is written inside the reception loop, which may write only the mailbox".
//
// Receptions. A receive (<-ch, a select case, a range over a channel, a
// call of a //sync:recv function, whose trailing bool or error means
// "nothing received") and what repeats it: from the receive to the end of
// the loop or select around it, or a single receive and the statements that
// store its result. A function of the package that receives once per call
// outside a loop of its own is followed into, as if the receive were
// written in place; the handlers a reception calls (p.onVote(m), every case
// of a type-switch dispatcher) are part of it. The tagged loop may be its
// own reception (the event-loop style: one select per iteration).
//
// The mailbox is inferred, not annotated: the variables a reception writes
// with a received message, a value read from one, or because of one. Local
// variables, slices and maps declared before the reception loop; a map or
// slice made by the loop and kept in a field of a local struct or handed to
// a handler; a struct a constructor of the package makes for the round and
// a method fills. A field of the process or a package variable is a mailbox
// when the round empties it (p.votes = make(...), p.n = 0, clear(p.votes),
// p.decision = p.decision[:0]) on every path to the reception after the
// last change of the tag; it loses that mark when it is written otherwise
// outside a reception, handed to code ccvet does not follow, or when a
// function of the package that may write the process state is called in
// between. A field emptied only before the tagged loop, or on some paths
// only, collects messages across rounds and stays a finding; so does a
// local map made before the tagged loop and never emptied in it ("votes is
// made before the loop and never emptied in it: the messages of earlier
// rounds stay in the mailbox").
//
// Stores. A write inside a reception of a variable or map declared before
// it stores the message last received on the path when its value, key or
// index is computed from the message (prepares[m.From] = true), or when no
// test of the message decided it (n++ for every message received): the
// message's tag is checked as if the message itself were kept. A write
// reached on every path from the receive after the message was tested (a
// for loop's i++) is not a store, nor is a write on a path that received
// nothing. A pointer to a received message kept in a variable makes the
// message it points to the mailbox; a struct literal that wraps a message
// stores it where the struct is stored. Using what was received is not
// storing it: a message read from a mailbox and copied elsewhere, a
// received value put in a message being built, or data taken from a
// message in the reception and kept (best = max(best, m.V)) is not checked
// again against a tag that may have moved on.
//
// Filters. What the branches before the store establish about the
// message's tag: comparisons of its fields (also through getters such as
// m.GetView(), nil-safe as protobuf generates them, and through functions
// of the package with a message parameter, and == of structs holding the
// tag), type switches, and what the filter of a helper handed as a function
// literal says. A message stored where ccvet cannot tell its round is
// "cannot prove condition III: cannot tell that the M stored here is from
// the current round or a later one", with the reason in parentheses: its
// filter calls code ccvet does not follow, ccvet merged the many paths that
// reach it (after 32 states in one block), what the filter establishes does
// not tell, or the message is handed over by a goroutine whose checks
// ccvet does not follow. Messages are assumed not to be modified after they
// are received.
//
// Check a "cannot prove" finding, then suppress it with //sync:ignore
// syncrecv reason, or restructure the code.
package syncrecv
