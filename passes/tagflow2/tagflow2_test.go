package tagflow2_test

import (
	"testing"

	"github.com/ccvet/ccvet/passes/tagflow"
	"github.com/ccvet/ccvet/passes/tagflow2"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// report turns every finding of the second engine into a diagnostic, so
// that the test asserts them with // want comments.
var report = &analysis.Analyzer{
	Name:     "tagflow2report",
	Doc:      "reports the second engine's findings (test only)",
	Requires: []*analysis.Analyzer{tagflow2.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[tagflow2.Analyzer].(*tagflow.Result)
		for _, l := range res.Loops {
			for _, f := range l.Findings {
				kind := "condition"
				if f.Unproven {
					kind = "cannot prove"
				}
				pass.Reportf(f.Pos, "%s %d: %s", kind, f.Cond, f.Message)
			}
		}
		return nil, nil
	},
}

// TestPackages runs the engine on each testdata package and checks its
// // want comments. Each package's doc comment says what it is about.
func TestPackages(t *testing.T) {
	for _, pkg := range []string{"simpleloop", "readback", "boundary", "maxloop", "eventloop", "headers", "handlers", "constjump", "ifacemsg", "keptdata", "predhelper", "localmsg", "complit", "singleton", "entrysplit", "commaok", "reception", "hdrhelper", "perkind", "entrytag", "enummap", "fillrounds", "unsigned", "kindmethod", "envfield", "tagmax", "structtag", "datatests", "promoted", "partcopy"} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), report, pkg)
		})
	}
}
