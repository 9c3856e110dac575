package analyzer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/testenv"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestConcurrentRuns runs the whole suite over many packages several times
// at once, on the same loaded packages, as distributed and parallel drivers
// do (Bazel's nogo runs the analyzers of many packages in one process; the
// checker runs all analyzers of a package in parallel, sharing the results
// of syncannotations and synctagflow). Run it with -race: a package-level
// cache, a shared map or a result mutated by one of its readers shows up as
// a data race. Without -race it still checks that the runs agree exactly
// with a sequential one that round-trips every fact through its encoding
// (checker's SanityCheck, as separate processes exchange facts), so that
// the analysis is deterministic and depends on no state shared between
// runs.
//
// The packages are the correct protocols of the corpus, the analyzers' own
// test data (which has findings of every analyzer, suppressions and facts
// across packages), and a few standard library packages with their
// dependencies (the fast path for un-annotated code).
//
// It takes over half a minute, so it runs only with CCVET_SLOW_TESTS=1 (as in
// CI): CCVET_SLOW_TESTS=1 go test -race -run TestConcurrentRuns ./analyzer.
func TestConcurrentRuns(t *testing.T) {
	testenv.SkipUnlessSlow(t, "analyses the corpus and the test data four times")
	start := time.Now()
	roots := []string{
		corpusDir,
		testdataDir(t, "../passes/syncdirective/testdata"),
		testdataDir(t, "../passes/tagflow/testdata"),
		testdataDir(t, "../annotations/testdata"),
	}
	var patterns []string
	for _, r := range roots {
		entries, err := os.ReadDir(filepath.Join(r, "src"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				patterns = append(patterns, e.Name())
			}
		}
	}
	patterns = append(patterns, "encoding/json", "text/template", "go/parser", "sync", "container/list")
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(corpusDir, "src"),
		Env: append(os.Environ(),
			"GOPATH="+strings.Join(roots, string(filepath.ListSeparator)),
			"GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("packages do not load")
	}
	if len(pkgs) != len(patterns) {
		t.Fatalf("loaded %d packages for %d patterns", len(pkgs), len(patterns))
	}
	loaded := time.Since(start)

	// The reference: one run, sequential, every fact encoded and decoded.
	start = time.Now()
	want, err := analyse(pkgs, &checker.Options{Sequential: true, SanityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	sequential := time.Since(start)
	// Every analyzer is exercised: each reports something somewhere.
	for _, a := range analyzer.Suite {
		if !slices.ContainsFunc(want, func(s string) bool { return strings.Contains(s, " "+a.Name+": ") }) {
			t.Errorf("no diagnostic of %s: the test exercises too little", a.Name)
		}
	}
	if !slices.ContainsFunc(want, func(s string) bool { return strings.Contains(s, " suppressed ") }) {
		t.Errorf("no suppressed diagnostic: the test exercises too little")
	}

	const runs = 3
	start = time.Now()
	got := make([][]string, runs)
	errs := make([]error, runs)
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() { got[i], errs[i] = analyse(pkgs, nil) })
	}
	wg.Wait()
	concurrent := time.Since(start)
	for i := range runs {
		if errs[i] != nil {
			t.Errorf("run %d: %v", i, errs[i])
			continue
		}
		if !slices.Equal(got[i], want) {
			t.Errorf("run %d differs from the sequential run:\n%s", i, diffLines(want, got[i]))
		}
	}
	t.Logf("%d packages (%d diagnostics): load %v, sequential run %v, %d concurrent runs %v",
		len(pkgs), len(want), loaded.Round(time.Millisecond), sequential.Round(time.Millisecond), runs, concurrent.Round(time.Millisecond))
}

func testdataDir(t *testing.T, rel string) string {
	t.Helper()
	d, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// analyse runs the suite over pkgs and renders every diagnostic of the
// root actions, suppressed ones included, one line each (related positions
// on the same line), sorted.
func analyse(pkgs []*packages.Package, opts *checker.Options) ([]string, error) {
	graph, err := checker.Analyze(analyzer.Suite, pkgs, opts)
	if err != nil {
		return nil, err
	}
	var out []string
	for act := range graph.All() {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %v", act, act.Err)
		}
		if !act.IsRoot {
			continue
		}
		fset := act.Package.Fset
		render := func(kind string, pos fmt.Stringer, msg string, related []string) string {
			s := fmt.Sprintf("%s %s %s: %s", pos, kind, act.Analyzer.Name, msg)
			for _, r := range related {
				s += " | " + r
			}
			return s
		}
		for _, d := range act.Diagnostics {
			var rel []string
			for _, r := range d.Related {
				rel = append(rel, fmt.Sprintf("%s: %s", fset.Position(r.Pos), r.Message))
			}
			out = append(out, render("reported", fset.Position(d.Pos), d.Message, rel))
		}
		if used, ok := act.Result.(*report.Used); ok {
			for _, s := range used.Suppressed {
				out = append(out, render("suppressed", fset.Position(s.Diagnostic.Pos), s.Diagnostic.Message, []string{s.Ignore.Reason}))
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// diffLines lists the lines only in want (-) and only in got (+).
func diffLines(want, got []string) string {
	var b strings.Builder
	for _, w := range want {
		if !slices.Contains(got, w) {
			fmt.Fprintf(&b, "- %s\n", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			fmt.Fprintf(&b, "+ %s\n", g)
		}
	}
	if b.Len() == 0 {
		b.WriteString("(same lines, different multiplicities)\n")
	}
	return b.String()
}
