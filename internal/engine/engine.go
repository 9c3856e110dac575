// Package engine selects the tag dataflow the four condition analyzers
// read: the first engine (passes/tagflow), or the second
// (passes/tagflow2), which replaces it once it is at least as good on
// every corpus. CCVET_TAGFLOW=v2 in the environment selects the second,
// for trying it; both give a *tagflow.Result.
package engine

import (
	"os"

	"github.com/ccvet/ccvet/passes/tagflow"
	"github.com/ccvet/ccvet/passes/tagflow2"
	"golang.org/x/tools/go/analysis"
)

// Analyzer is the selected engine.
var Analyzer = Select(os.Getenv("CCVET_TAGFLOW"))

// Select returns the engine named by name: "v2" is the second engine,
// anything else the first.
func Select(name string) *analysis.Analyzer {
	if name == "v2" {
		return tagflow2.Analyzer
	}
	return tagflow.Analyzer
}
