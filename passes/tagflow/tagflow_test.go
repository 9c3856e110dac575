package tagflow_test

import (
	"fmt"
	"testing"

	"github.com/ccvet/ccvet/annotations"
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

func TestBasic(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "basic")
}

var _ = fmt.Sprint

func TestEvalReproducers(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "evalrepro")
}

func TestWrites(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "writes")
}

func TestStaleField(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "stalefield")
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

func TestEnvelope(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "envelope")
}

func TestBackEdge(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "backedge")
}

func TestReinline(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "reinline")
}

func TestHelperSend(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "helpersend")
}

func TestRecvWrites(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "recvwrites")
}
