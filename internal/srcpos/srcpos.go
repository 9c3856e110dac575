// Package srcpos orders source positions the same way in every run.
//
// A token.Pos is an offset into its FileSet, whose files get their ranges
// in the order they are added. go/packages parses a package's files
// concurrently, so which of two files has the lower positions changes
// from run to run: comparing the token.Pos of two files with < makes
// output that depends on scheduling. Less compares file names first.
package srcpos

import (
	"go/token"
	"slices"
)

// Less reports whether a comes before b: in a file whose name sorts
// first, or earlier in the same file. NoPos comes first.
func Less(fset *token.FileSet, a, b token.Pos) bool {
	return Compare(fset, a, b) < 0
}

// Compare is -1, 0 or +1 as a is before, at or after b (see Less).
func Compare(fset *token.FileSet, a, b token.Pos) int {
	if a == b {
		return 0
	}
	if !a.IsValid() || !b.IsValid() {
		if !a.IsValid() {
			return -1
		}
		return 1
	}
	fa, fb := fset.File(a), fset.File(b)
	if fa == fb || fa == nil || fb == nil {
		if a < b {
			return -1
		}
		return 1
	}
	if fa.Name() != fb.Name() {
		if fa.Name() < fb.Name() {
			return -1
		}
		return 1
	}
	// Two files of the same name (a file parsed twice, for a package and
	// its test variant): by offset within the file.
	oa, ob := fa.Offset(a), fb.Offset(b)
	switch {
	case oa < ob:
		return -1
	case oa > ob:
		return 1
	}
	return 0
}

// SortFunc sorts s by the position pos gives each element (see Less),
// keeping the order of elements at the same position.
func SortFunc[E any](fset *token.FileSet, s []E, pos func(E) token.Pos) {
	slices.SortStableFunc(s, func(x, y E) int { return Compare(fset, pos(x), pos(y)) })
}
