package analysisdoc

import "testing"

const src = `// Package p does things.
//
// # Analyzer alpha
//
// alpha: check the first thing
//
// Alpha's rules, in
// two lines.
//
//	code()
//
// # Analyzer beta
//
// beta: check the second thing
package p
`

func TestExtract(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"alpha", "check the first thing\n\nAlpha's rules, in\ntwo lines.\n\n\tcode()"},
		{"beta", "check the second thing"},
	} {
		got, err := Extract(src, tc.name)
		if err != nil || got != tc.want {
			t.Errorf("Extract(%s) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestExtractErrors(t *testing.T) {
	for _, tc := range []struct{ src, name, want string }{
		{src, "gamma", `doc of gamma: no "# Analyzer gamma" heading in the package comment`},
		{"package p\n", "alpha", "doc of alpha: the file has no package comment"},
		{"// # Analyzer alpha\n//\n// summary without the name\npackage p\n", "alpha", `doc of alpha: the section does not start with "alpha: summary"`},
		{"not go", "alpha", "doc of alpha: doc.go:1:1: expected 'package', found not"},
	} {
		_, err := Extract(tc.src, tc.name)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Extract(%q, %s): error %v, want %q", tc.src, tc.name, err, tc.want)
		}
	}
}
