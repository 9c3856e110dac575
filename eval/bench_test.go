package eval

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/driver"
	"github.com/ccvet/ccvet/internal/load"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// BenchmarkGoIBFTCore times ccvet on the annotated core package of go-ibft
// (recipe go-ibft-2024), the package of the "under one second"
// target. The tree is prepared once, as TestEval does; then:
//
//   - load: load.Checked of ./core as driver.Analyze does it (go list
//     -export, parsing and type-checking core, and its dependencies that
//     carry //sync: directives, from source; the others from export data);
//   - analyze: checker.Analyze of the suite plus the advisory analyzers on
//     the loaded packages, as driver.Analyze runs it: the analysis of core
//     and the facts pass over every dependency. Its metrics: root-ms, the
//     summed run time of the analyzers on core itself; deps-ms, that of
//     all actions on the dependencies; findings, what core gets (with the
//     copies for each tag component);
//   - driver: driver.Analyze, load and analysis together, as TestEval and
//     the ccvet command run it.
//
// Like TestEval, it downloads the module: skipped unless
// CCVET_NETWORK_TESTS=1. Run it with
//
//	CCVET_NETWORK_TESTS=1 go test ./eval/ -run XXX -bench GoIBFTCore -benchtime 5x
func BenchmarkGoIBFTCore(b *testing.B) {
	if os.Getenv("CCVET_NETWORK_TESTS") != "1" {
		b.Skip("downloads modules from the Go module proxy: set CCVET_NETWORK_TESTS=1")
	}
	var r *recipe
	for _, x := range loadRecipes(b) {
		if x.name == "go-ibft-2024" {
			r = x
		}
	}
	if r == nil {
		b.Fatal("no recipe go-ibft-2024")
	}
	root := prepare(b, r)
	setGoEnv(b, r)
	analyzers := slices.Concat(analyzer.Suite, analyzer.Advisory)
	// The configuration of driver.Analyze without test files, as in
	// TestEval.
	opts := load.Options{Patterns: r.packages, Dir: root}
	loadCore := func(b *testing.B) []*packages.Package {
		pkgs, errs, err := load.Checked(opts)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range errs {
			b.Error(e)
		}
		if len(pkgs) != 1 {
			b.Fatalf("loaded %d packages, want 1", len(pkgs))
		}
		return pkgs
	}

	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			loadCore(b)
		}
	})

	b.Run("analyze", func(b *testing.B) {
		pkgs := loadCore(b)
		b.ReportAllocs()
		var root, deps time.Duration
		findings := 0
		for b.Loop() {
			graph, err := checker.Analyze(analyzers, pkgs, nil)
			if err != nil {
				b.Fatal(err)
			}
			findings = 0
			for act := range graph.All() {
				if act.Err != nil {
					b.Fatalf("%s: %v", act, act.Err)
				}
				if act.IsRoot {
					findings += len(act.Diagnostics)
				}
				// Every action on core counts as root time, the
				// analyzers' prerequisites included.
				if act.Package == pkgs[0] {
					root += act.Duration
				} else {
					deps += act.Duration
				}
			}
		}
		b.ReportMetric(float64(root.Milliseconds())/float64(b.N), "root-ms")
		b.ReportMetric(float64(deps.Milliseconds())/float64(b.N), "deps-ms")
		b.ReportMetric(float64(findings), "findings")
	})

	b.Run("driver", func(b *testing.B) {
		b.ReportAllocs()
		opts := driver.Options{Analyzers: analyzers, Patterns: r.packages, Dir: root}
		for b.Loop() {
			res, err := driver.Analyze(opts)
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range res.Errors {
				b.Errorf("load or analysis error: %s", e)
			}
		}
	})
}
