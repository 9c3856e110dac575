package analyzer_test

import (
	"os"
	"path/filepath"
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

// BenchmarkCorpus measures the whole suite on the protocols of the test
// corpus (already loaded and type-checked): all of them at once, and each
// alone, so that the largest protocol's cost is visible.
func BenchmarkCorpus(b *testing.B) {
	names := corpusPackages(b)
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(corpusDir, "src"),
		Env:  append(os.Environ(), "GOPATH="+corpusDir, "GO111MODULE=off", "GOFLAGS="),
	}
	all, err := packages.Load(cfg, names...)
	if err != nil {
		b.Fatal(err)
	}
	if packages.PrintErrors(all) > 0 {
		b.Fatal("corpus does not load")
	}
	run := func(b *testing.B, pkgs []*packages.Package) {
		start := cpuTime()
		for b.Loop() {
			if _, err := checker.Analyze(analyzer.Suite, pkgs, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
	b.Run("all", func(b *testing.B) { run(b, all) })
	for _, p := range all {
		b.Run(p.Name, func(b *testing.B) { run(b, []*packages.Package{p}) })
	}
}
