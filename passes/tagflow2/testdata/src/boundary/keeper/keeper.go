// Package keeper is code the analysis of package boundary does not see:
// another package whose methods keep what they are given and write the
// tag through the pointer they are handed.
package keeper

// Set keeps every value it is given.
type Set struct{ all []any }

// Add keeps v.
func (s *Set) Add(v any) { s.all = append(s.all, v) }

// Round is what a process exposes of its tag.
type Round interface{ SetRound(r int) }

// Reset sets the round of p back to 0.
func Reset(p Round) { p.SetRound(0) }
