package tagflow_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/checktest"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// report turns every finding of the dataflow into a diagnostic, so that the
// test can assert them with // want comments.
var report = &analysis.Analyzer{
	Name:     "tagflowreport",
	Doc:      "reports the tag dataflow's findings (test only)",
	Requires: []*analysis.Analyzer{tagflow.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[tagflow.Analyzer].(*tagflow.Result)
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

// testPackages are the testdata packages with // want comments.
var testPackages = []string{
	"basic", "evalrepro", "writes", "stalefield", "envelope",
	"backedge", "nestedgetter", "nestedsend", "partialfilter", "offsets", "getterawait", "ptrpredicate", "ptrflag", "earlymbox", "eventloop", "lowerjump", "oncehelper", "pairtag", "underlock", "narrow", "twoboxes", "hoisted", "reinline", "helpersend", "recvwrites", "depth", "maxloop", "endjump", "usedata", "lexorder", "dispatch", "ptrmsg",
	"fieldmbox", "unbounded", "uniformshift", "maplen", "handover", "msgdata", "structtag", "helperloop", "laterdata", "returnedmbox", "generics", "gosend", "settled", "tagfuncs", "readonly", "slicembox", "envdata", "helpermax", "constrange",
}

// TestPackages runs the dataflow on each testdata package and checks its
// // want comments. Each package's doc comment says what it is about. The
// packages are loaded together and analysed in one checker run, which
// shares their dependencies and analyses packages in parallel.
func TestPackages(t *testing.T) {
	gopath := []string{analysistest.TestData()}
	res := checktest.Analyze(t, gopath, []*analysis.Analyzer{report}, checktest.Load(t, gopath, testPackages...))
	for _, pkg := range testPackages {
		t.Run(pkg, func(t *testing.T) {
			res.Check(t, pkg, report.Name)
		})
	}
}

// TestPanicContained checks that a panic in the analysis of one loop
// becomes "cannot prove" at that loop and leaves the others analysed.
func TestPanicContained(t *testing.T) {
	first := true
	defer tagflow.SetTestHookAnalyse(func(*annotations.Loop) {
		if first {
			first = false
			panic("boom")
		}
	})()
	analysistest.Run(t, analysistest.TestData(), report, "panics")
}

// reportCalls reports the findings with the call sites among their related
// positions, so that a test can assert them.
var reportCalls = &analysis.Analyzer{
	Name:     "tagflowcalls",
	Doc:      "reports the tag dataflow's findings with their call sites (test only)",
	Requires: []*analysis.Analyzer{tagflow.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[tagflow.Analyzer].(*tagflow.Result)
		for _, l := range res.Loops {
			for _, f := range l.Findings {
				var calls []string
				for _, r := range f.Related {
					if strings.HasSuffix(r.Message, " is called here") {
						calls = append(calls, fmt.Sprintf("%s at line %d", r.Message, pass.Fset.Position(r.Pos).Line))
					}
				}
				pass.Reportf(f.Pos, "condition %d: %s [%s]", f.Cond, f.Message, strings.Join(calls, "; "))
			}
		}
		return nil, nil
	},
}

// TestCallSites checks that a finding inside a helper names the calls that
// led there.
func TestCallSites(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), reportCalls, "callsite")
}
