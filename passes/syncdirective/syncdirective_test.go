package syncdirective_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/passes/syncdirective"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Each package of testdata/src covers one directive: its valid forms are
// silent and each invalid form has its exact diagnostic.
func TestDirectives(t *testing.T) {
	for _, pkg := range []string{"tags", "msgs", "comms", "ignores", "chans", "nomsg", "procs", "msgforms", "specforms"} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), syncdirective.Analyzer, pkg)
		})
	}
}

// TestFacts checks that annotations cross package boundaries: msguse and
// foreignuse see message types and send functions only through facts.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), syncdirective.Analyzer, "msguse", "foreignuse")
}

// TestFixes applies every suggested fix to testdata/src/fixes and compares
// the result with fixes.go.golden: near misses of the prefix and misspelt
// directive names are rewritten, stale //sync:ignore comments deleted, and
// diagnostics whose repair is not certain have no fix.
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), syncdirective.Analyzer, "fixes")
}

// TestFixEdits checks the fixes of testdata/src/fixes byte for byte, which
// RunWithSuggestedFixes does not (it formats both sides): the edits applied
// to the raw file give fixes.go.golden exactly, and each fix has the
// expected message.
func TestFixEdits(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), syncdirective.Analyzer, "fixes")
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	res := results[0]
	filename := filepath.Join(analysistest.TestData(), "src", "fixes", "fixes.go")
	src, err := os.ReadFile(filename)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filename + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	var got []string // "line: fix message", in source order
	diags := slices.Clone(res.Diagnostics)
	slices.SortStableFunc(diags, func(a, b analysis.Diagnostic) int { return int(a.Pos - b.Pos) })
	for _, d := range diags {
		for _, fix := range d.SuggestedFixes {
			line := res.Action.Package.Fset.Position(d.Pos).Line
			got = append(got, fmt.Sprintf("%d: %s", line, fix.Message))
			for _, e := range fix.TextEdits {
				f := res.Action.Package.Fset.File(e.Pos)
				edits = append(edits, edit{f.Offset(e.Pos), f.Offset(e.End), string(e.NewText)})
			}
		}
	}
	want := []string{
		"10: remove the space so that Go reads it as a directive",
		"16: remove the space so that Go reads it as a directive",
		"23: remove the space so that Go reads it as a directive",
		"29: remove the space after //sync: so that Go reads it as a directive",
		"32: remove the space after //sync: so that Go reads it as a directive",
		"40: replace //sync:tags with //sync:tag",
		"43: replace //sync:tga with //sync:tag",
		"50: replace //sync:mgs with //sync:msg",
		"55: replace //sync:sned with //sync:send",
		"83: remove the unused //sync:ignore",
		"85: remove the unused //sync:ignore",
		"86: remove the unused //sync:ignore",
		"93: remove the space so that Go reads it as a directive",
	}
	if !slices.Equal(got, want) {
		t.Errorf("fixes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var out strings.Builder
	last := 0
	for _, e := range edits {
		if e.start < last {
			t.Fatalf("overlapping edits at offset %d", e.start)
		}
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	if out.String() != string(golden) {
		t.Errorf("fixed file differs from fixes.go.golden:\n%s", out.String())
	}
}
