package analyzer_test

import (
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/packages"
)

// BenchmarkUnannotated measures the suite on un-annotated code (net/http
// and its dependencies, already loaded and type-checked), beside x/tools'
// inspect pass, the cheapest analyzer there is, as a yardstick: the fast
// path should make the two comparable.
func BenchmarkUnannotated(b *testing.B) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "net/http")
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name      string
		analyzers []*analysis.Analyzer
	}{
		{"ccvet", analyzer.Suite},
		{"inspect", []*analysis.Analyzer{inspect.Analyzer}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := checker.Analyze(bc.analyzers, pkgs, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
