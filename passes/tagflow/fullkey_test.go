package tagflow_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestFullKeyAudit runs the testdata packages again with every part of a
// state in its key, and many more paths allowed, and fails on a finding
// that run has and the normal one lacks at the same place: the engine
// explores one state per key, and a part wrongly left out of the key makes
// that state stand for another it does not, a path passed in silence.
// (Findings of the full run that say it gave up, or merged paths, are not
// evidence of anything.) It takes minutes: set CCVET_AUDIT=1 to run it.
func TestFullKeyAudit(t *testing.T) {
	if os.Getenv("CCVET_AUDIT") == "" {
		t.Skip("set CCVET_AUDIT=1 to run the state-key audit (minutes)")
	}
	dir := analysistest.TestData()
	for _, pkg := range testPackages {
		t.Run(pkg, func(t *testing.T) {
			normal := findings(dir, pkg)
			restore := tagflow.SetFullKey()
			full := findings(dir, pkg)
			restore()
			for k, msg := range full {
				if strings.Contains(msg, "the analysis gave up") || strings.Contains(msg, "merged the many paths") {
					continue
				}
				if _, ok := normal[k]; !ok {
					t.Errorf("%s: only with the full key: %s", k, msg)
				}
			}
		})
	}
}

// findings runs the report analyzer on pkg and returns its diagnostics by
// position and condition.
func findings(dir, pkg string) map[string]string {
	out := make(map[string]string)
	for _, r := range analysistest.Run(discard{}, dir, report, pkg) {
		for _, d := range r.Diagnostics {
			posn := r.Pass.Fset.Position(d.Pos)
			cond, _, _ := strings.Cut(d.Message, ":")
			out[fmt.Sprintf("%s:%d %s", posn.Filename[strings.LastIndex(posn.Filename, "/src/")+5:], posn.Line, cond)] = d.Message
		}
	}
	return out
}

// discard takes analysistest's complaints about // want comments, which
// the audit does not check.
type discard struct{}

func (discard) Errorf(string, ...any) {}
