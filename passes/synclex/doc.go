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
// It is advisory: it is not one of the four conditions, is off by default,
// and runs with ccvet -synclex or golangci-lint's advisory setting.
package synclex
