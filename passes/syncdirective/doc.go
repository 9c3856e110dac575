// Package syncdirective defines an Analyzer that reports malformed and
// unresolvable //sync: directives.
//
// # Analyzer syncdirective
//
// syncdirective: report malformed //sync: annotations
//
// ccvet reads the protocol's rounds from //sync:tag, //sync:msg,
// //sync:send, //sync:recv and //sync:ignore comments. This analyzer reports
// each one it cannot read or resolve: a name that is not in scope or not a
// variable, a field the type does not have, a variable that is not an
// integer, a directive attached to no declaration, a nested tag that does
// not extend its enclosing loop's tag, a message type whose //sync:msg
// mapping does not have one component per variable of a loop that sends or
// receives it, and a //sync:ignore without a reason, naming an unknown
// analyzer, or matching no diagnostic.
//
// A mistake in an annotation silently weakens every check that relies on
// it, so these diagnostics should be fixed first.
package syncdirective
