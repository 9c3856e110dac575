package syncdirective_test

import (
	"testing"

	"github.com/ccvet/ccvet/passes/syncdirective"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Each package of testdata/src covers one directive: its valid forms are
// silent and each invalid form has its exact diagnostic.
func TestDirectives(t *testing.T) {
	for _, pkg := range []string{"tags", "msgs", "comms", "ignores"} {
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
