// Package syncdirective defines an Analyzer that reports malformed and
// unresolvable //sync: directives.
//
// # Analyzer syncdirective
//
// syncdirective: report malformed //sync: annotations
//
// ccvet reads the protocol's rounds from //sync:tag, //sync:msg,
// //sync:send, //sync:recv and //sync:ignore comments, and make-HO the
// channels of channel-based protocols from //sync:peers and //sync:inbox.
// This analyzer reports each one it cannot read or resolve: a name that is
// not in scope or not a variable, a field the type does not have, a
// variable that is not an integer, a directive attached to no declaration,
// a nested tag that does not extend its enclosing loop's tag, a message
// type whose //sync:msg mapping does not have one component per variable
// of a loop that sends or receives it, a //sync:ignore without a reason,
// naming an unknown analyzer, or matching no diagnostic, and a
// //sync:peers or //sync:inbox on something other than a table of inboxes
// or an inbox (channels, or structs of channels, of the right direction,
// carrying messages or the envelope whose sender and message fields it
// names).
//
// Where the repair is certain the diagnostic carries a suggested fix,
// applied by go vet -fix or an editor: the near misses "// sync:tag" and
// "//sync: tag" become "//sync:tag", a directive name within two edits of
// exactly one known name (//sync:tags, //sync:mgs) becomes that name, and
// a //sync:ignore that matches no diagnostic is deleted, with its line
// when it is alone on it.
//
// A tagged loop in which the analysis finds no //sync:msg type sent or
// received (directly, or in the helpers of the package it calls) is
// reported too: the four conditions are about messages, so nothing of it
// is checked, and its silence would read as a proof ("the loop tagged
// p.ballot,p.step sends and receives no //sync:msg type: nothing is
// checked"). Annotate the message types with //sync:msg, and the functions
// that send or receive them with //sync:send and //sync:recv. Only a
// silent loop is reported: one with findings of its own (a "cannot prove"
// where the analysis stopped early or met a call it cannot follow) is left
// to them, and one that reaches the messages of another tagged loop to
// that loop's checks.
//
// A mistake in an annotation silently weakens every check that relies on
// it, so these diagnostics should be fixed first.
package syncdirective
