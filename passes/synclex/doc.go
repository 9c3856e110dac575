// Package synclex defines an advisory Analyzer that finds message filters
// comparing a lower component of a message's tag with the process's while
// ignoring the higher ones.
//
// # Analyzer synclex
//
// synclex: advisory: report filters that compare a round without its phase (non-lexicographic tag comparisons)
//
// Tags are ordered lexicographically: (height, round) is later than
// (h, r) when height > h, or height == h and round > r. A filter such as
//
//	if p.height > m.Height { return false }
//	return m.Round >= p.round
//
// compares the round without the height: it drops a message of a later
// height whose round happens to be lower than the process's. That is not a
// violation of the four conditions (condition III bounds only what is
// stored, and dropping more is allowed), but it is a classic liveness bug:
// go-ibft's isAcceptableMessage had this shape until it was fixed.
//
// The analyzer looks, in every function of a package with //sync:
// annotations, at each ordered comparison (<, <=, >, >=) between component
// k > 0 of a message's tag (a field of its //sync:msg mapping) and the
// process's component k (the field of the k-th synchronization variable of
// a //sync:tag loop, read directly or through a getter of the package that
// returns it). It reports the comparison unless the same function also
// compares every higher component j < k of a message with the process's
// for equality (== or !=), which is how a lexicographic filter is written:
//
//	if m.Height != p.height { return m.Height > p.height }
//	return m.Round >= p.round
//
// Only filters of received messages are reported: the message compared
// must be one the process received, or be read from one (SSA dataflow,
// ignoring calling contexts). The receptions are the channel receives
// (<-ch, select cases, range over a channel) and calls of //sync:recv
// functions in the process's code, and the parameters that may carry a
// message of its entry methods. The process's code is the functions
// containing a tagged loop and its entry methods, the exported methods of
// the type whose fields hold the synchronization variables (the type of p
// in //sync:tag p.view.Height,p.view.Round): the environment delivers
// messages through them, as through go-ibft's IBFT.AddMessage, which
// calls isAcceptableMessage. Everything these functions call, spawn,
// defer or create is the process's code too. A received message flows into the parameters of the
// package's functions it is passed to (directly, through an interface, or
// through a function value of the same signature), out of their results,
// through fields, elements, type assertions, conversions and local
// variables, and through calls of code outside the package (an accessor
// m.GetView(), a decoder filling in a local variable). It does not flow
// through other memory: a message read back from the mailbox, from
// storage (a write-ahead log replayed on recovery) or built locally is no
// reception, and comparing it is not reported. So a filter applied to
// stored messages only, or reached only through an unexported callback
// registered with another package, is missed: the check prefers silence.
//
// It is advisory: it is not one of the four conditions, is off by default,
// and runs with ccvet -synclex or golangci-lint's advisory setting.
package synclex
