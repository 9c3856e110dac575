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
// Of the process form it reports a process tag that names a missing field,
// a method or a field that is not an integer, a tag on a type that is not
// a struct, a process type with no //sync:handler (nothing of it would be
// checked), a //sync:handler on a function that is not a method, on an
// interface method or on a method of a type without a tag, a handler
// annotated twice or with two parameters that can carry a message, and a
// message whose mapping does not fit the tag of a process whose handlers
// receive it. Of the message forms: a method component that is not found,
// takes arguments or does not return an integer, an enum mapping that
// misses a constant of the message's enum that no //sync:local declares
// local, maps a constant twice, maps a
// constant of another type, or maps onto constants that are not of the
// round's type, //sync:send stamps on a function that is not a method of
// a process type, stamps on a //sync:recv, and a //sync:local with a
// malformed condition, on a type without //sync:msg, or repeated.
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
