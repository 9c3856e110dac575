package eval

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/engine"
	"github.com/ccvet/ccvet/internal/load"
	"github.com/ccvet/ccvet/internal/report"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// A recipe with engine blocks is run once per engine it names, each run in
// a child process (this test binary, re-executed with childEnv set) that
// the parent kills at the block's timeout. A child, unlike an analysis in
// a goroutine, stops consuming the CPU when its time is up, so that a
// target on which an engine does not finish costs CI no more than its cap,
// and the cap is a figure the recipe records (capped) rather than a
// failure.

// childEnv names the variable that makes the test binary a child: its
// value is the JSON of a childJob.
const childEnv = "CCVET_EVAL_CHILD"

// A childJob is what a child analyses.
type childJob struct {
	Engine   string   // as for engine.Select
	Dir      string   // the module root of the annotated tree
	Patterns []string // the recipe's packages
}

// A childResult is what a child prints on its standard output.
type childResult struct {
	Load     time.Duration // load.Checked: go list, parsing, type-checking
	Analysis time.Duration // checker.Analyze: the suite and the advisory analyzers
	// AnalysisCPU is the CPU time of the analysis, all threads: the
	// figure that other load on the machine inflates least.
	AnalysisCPU time.Duration
	Findings    []wireFinding
	Errors      []string
}

// A wireFinding is a finding as a child prints it.
type wireFinding struct {
	Suppressed bool
	Analyzer   string
	File       string // relative to the module root, slash-separated
	Line       int
	Message    string
}

func (w wireFinding) finding() finding {
	return finding{suppressed: w.Suppressed, analyzer: w.Analyzer, posn: w.File + ":" + strconv.Itoa(w.Line), message: w.Message}
}

// An engineRun is one engine's expectations of a recipe.
type engineRun struct {
	timeout time.Duration
	capped  bool // the analysis is expected not to finish within timeout
	wants   []want
}

// runEngines runs every engine block of r, one subtest per engine, on one
// annotated tree. The engines run in parallel, so that a recipe costs CI
// the time of its slower engine (at most its timeout); each run's CPU
// time is logged beside its wall times, as the figure that the other
// run's load does not inflate.
func runEngines(t *testing.T, r *recipe) {
	start := time.Now()
	root := prepare(t, r)
	t.Logf("%s: download and set-up %v", r.module, time.Since(start).Round(time.Millisecond))
	for _, name := range r.engineOrder {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runEngine(t, r, root, name, r.engines[name])
		})
	}
}

func runEngine(t *testing.T, r *recipe, root, name string, e *engineRun) {
	job, err := json.Marshal(childJob{Engine: name, Dir: root, Patterns: r.packages})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), e.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	// The engine is selected as a user selects it, by CCVET_TAGFLOW:
	// analyzer.SuiteWith(engine.Select("v2")) would still run the first
	// engine in full, because syncdirective requires the engine and the
	// condition analyzers that CCVET_TAGFLOW selects.
	cmd.Env = append(goEnv(r), childEnv+"="+string(job), "CCVET_TAGFLOW="+name)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if ctx.Err() != nil {
		if e.capped {
			t.Logf("%s, engine %s: capped: the analysis did not finish in %v (as the recipe expects)", r.module, name, e.timeout)
			return
		}
		t.Fatalf("%s, engine %s: the analysis did not finish in %v (a recipe line 'capped' in the engine's block expects that)", r.module, name, e.timeout)
	}
	if err != nil {
		t.Fatalf("%s, engine %s: the analysis failed: %v\n%s", r.module, name, err, stderr.Bytes())
	}
	var res childResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("%s, engine %s: bad child output: %v\n%s", r.module, name, err, stdout.Bytes())
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	t.Logf("%s, engine %s: load %v, analysis %v (%v CPU), child process %v wall (%v CPU, go list's compilations included), %d findings", r.module, name,
		res.Load.Round(time.Millisecond), res.Analysis.Round(time.Millisecond), res.AnalysisCPU.Round(time.Millisecond),
		wall.Round(time.Millisecond), cpu.Round(time.Millisecond), len(res.Findings))
	for _, e := range res.Errors {
		t.Errorf("load or analysis error: %s", e)
	}
	if e.capped {
		t.Errorf("%s, engine %s: the analysis finished in %v, within the cap of %v that the recipe expects it to reach: drop 'capped' and list its findings", r.module, name, wall.Round(time.Millisecond), e.timeout)
	}
	got := make([]finding, len(res.Findings))
	for i, f := range res.Findings {
		got[i] = f.finding()
	}
	compare(t, r, e.wants, got)
}

// compare matches the findings got against wants, each want matching one
// finding, and fails the test on any difference; it then logs every
// finding in recipe form.
func compare(t *testing.T, r *recipe, wants []want, got []finding) {
	t.Helper()
	missing, unexpected := match(wants, got)
	for _, w := range missing {
		t.Errorf("%s.txt:%d: expected finding not reported: %s %s %s", r.name, w.line, w.analyzer, w.posn, w.message)
	}
	for _, f := range unexpected {
		t.Errorf("unexpected finding:\n%s", f)
	}
	if t.Failed() {
		var all []string
		for _, f := range got {
			all = append(all, f.String())
		}
		t.Logf("all findings, in recipe form:\n%s", strings.Join(all, "\n"))
	}
}

// match pairs each want with a finding it matches, the required wants
// first so that a maybe line never takes the finding a want line needs;
// it returns the required wants left without one and the findings left
// without a want.
func match(wants []want, got []finding) (missing []want, unexpected []finding) {
	matched := make([]bool, len(got))
	for _, optional := range []bool{false, true} {
		for _, w := range wants {
			if w.optional != optional {
				continue
			}
			i := slices.IndexFunc(got, func(f finding) bool { return w.matches(f) })
			for i >= 0 && matched[i] {
				j := slices.IndexFunc(got[i+1:], func(f finding) bool { return w.matches(f) })
				if j < 0 {
					i = -1
					break
				}
				i += 1 + j
			}
			if i >= 0 {
				matched[i] = true
			} else if !optional {
				missing = append(missing, w)
			}
		}
	}
	for i, f := range got {
		if !matched[i] {
			unexpected = append(unexpected, f)
		}
	}
	return missing, unexpected
}

// runChild is the child's side: it analyses the job in the environment,
// prints a childResult and returns the exit code.
func runChild(spec string) int {
	var job childJob
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", childEnv, err)
		return 2
	}
	res, err := analyseJob(job)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// analyseJob loads and analyses as driver.Analyze does without test files,
// and times the two parts apart. The engine is the one CCVET_TAGFLOW
// selects; the job's must be it.
func analyseJob(job childJob) (*childResult, error) {
	var res childResult
	start := time.Now()
	pkgs, errs, err := load.Checked(load.Options{Patterns: job.Patterns, Dir: job.Dir})
	res.Load = time.Since(start)
	if err != nil {
		return nil, err
	}
	res.Errors = errs
	if len(pkgs) == 0 {
		return nil, errors.New("nothing loaded")
	}
	if engine.Analyzer != engine.Select(job.Engine) {
		return nil, fmt.Errorf("engine %s asked for, CCVET_TAGFLOW=%q selects %s", job.Engine, os.Getenv("CCVET_TAGFLOW"), engine.Analyzer.Name)
	}
	analyzers := slices.Concat(analyzer.Suite, analyzer.Advisory)
	start, cpu := time.Now(), cpuTime()
	graph, err := checker.Analyze(analyzers, pkgs, nil)
	res.Analysis, res.AnalysisCPU = time.Since(start), cpuTime()-cpu
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool)
	add := func(suppressed bool, a *analysis.Analyzer, p token.Position, msg string) {
		rel, err := filepath.Rel(job.Dir, p.Filename)
		if err != nil {
			rel = p.Filename
		}
		// Deduplicated by position with column, analyzer and message, as
		// driver.Analyze does.
		key := fmt.Sprintf("%t %s:%d:%d %s %s", suppressed, rel, p.Line, p.Column, a.Name, msg)
		if !seen[key] {
			seen[key] = true
			res.Findings = append(res.Findings, wireFinding{suppressed, a.Name, filepath.ToSlash(rel), p.Line, msg})
		}
	}
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v", act, act.Err))
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			add(false, act.Analyzer, fset.Position(d.Pos), d.Message)
		}
		if used, ok := act.Result.(*report.Used); ok {
			for _, s := range used.Suppressed {
				add(true, act.Analyzer, fset.Position(s.Diagnostic.Pos), s.Diagnostic.Message)
			}
		}
	}
	slices.SortFunc(res.Findings, func(a, b wireFinding) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			strings.Compare(a.Analyzer, b.Analyzer), strings.Compare(a.Message, b.Message))
	})
	return &res, nil
}

// TestParseEngines checks the engine blocks of the recipe format.
func TestParseEngines(t *testing.T) {
	r, err := parseRecipe("x", []byte(`module m@v1
package .
insert a.go F before `+"`^\\tfor`"+` //sync:tag p.r
want syncmono a.go:1 common
engine v1
timeout 90s
want syncsend a.go:2 first
engine v2
capped
`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.engineOrder, []string{"v1", "v2"}) {
		t.Fatalf("engines %v, want [v1 v2]", r.engineOrder)
	}
	v1, v2 := r.engines["v1"], r.engines["v2"]
	var got []string
	for _, w := range v1.wants {
		got = append(got, w.analyzer+" "+w.message)
	}
	if v1.timeout != 90*time.Second || v1.capped || !slices.Equal(got, []string{"syncmono common", "syncsend first"}) {
		t.Errorf("engine v1: timeout %v, capped %t, wants %q; want 1m30s, false, [syncmono common, syncsend first]", v1.timeout, v1.capped, got)
	}
	if v2.timeout != analysisTimeout || !v2.capped || len(v2.wants) != 0 {
		t.Errorf("engine v2: timeout %v, capped %t, %d wants; want %v, true, 0", v2.timeout, v2.capped, len(v2.wants), analysisTimeout)
	}
	for _, bad := range []struct{ text, err string }{
		{"engine v3", "x.txt:3: want engine v1 or engine v2"},
		{"timeout 1m", "x.txt:3: want timeout DURATION inside an engine block"},
		{"engine v1\ntimeout soon", "x.txt:4: want timeout DURATION inside an engine block"},
		{"capped", "x.txt:3: want capped, alone, inside an engine block"},
		{"engine v1\nengine v1", "x.txt:4: engine v1 has a block already"},
		{"engine v2\ncapped\nwant syncmono a.go:1 m", "x.txt: a capped engine reports nothing: its block has want lines"},
	} {
		_, err := parseRecipe("x", []byte("module m@v1\npackage .\n"+bad.text+"\n"))
		if err == nil || err.Error() != bad.err {
			t.Errorf("%q: error %v, want %s", bad.text, err, bad.err)
		}
	}
}

// TestMatchMaybe checks that a maybe line matches a finding when there is
// one and is not required when there is none, and that a want line is
// matched before a maybe line of the same finding.
func TestMatchMaybe(t *testing.T) {
	r, err := parseRecipe("x", []byte(`module m@v1
package .
want syncmono a.go:1 m
maybe syncmono a.go:1 m
maybe syncsend a.go:2 n
`))
	if err != nil {
		t.Fatal(err)
	}
	f1 := finding{analyzer: "syncmono", posn: "a.go:1", message: "m"}
	f2 := finding{analyzer: "syncsend", posn: "a.go:2", message: "n"}
	f3 := finding{analyzer: "syncjump", posn: "a.go:3", message: "o"}
	for _, c := range []struct {
		name                string
		got                 []finding
		missing, unexpected int
	}{
		{"all reported", []finding{f1, f1, f2}, 0, 0},
		{"maybes missing", []finding{f1}, 0, 0},
		{"want missing", []finding{f2}, 1, 0},
		{"one too many", []finding{f1, f1, f1, f3}, 0, 2},
	} {
		missing, unexpected := match(r.wants, c.got)
		if len(missing) != c.missing || len(unexpected) != c.unexpected {
			t.Errorf("%s: %d missing, %d unexpected; want %d, %d", c.name, len(missing), len(unexpected), c.missing, c.unexpected)
		}
		if c.name == "want missing" && (len(missing) != 1 || missing[0].line != 3 || missing[0].optional) {
			t.Errorf("want missing: missing %+v, want the want line 3", missing)
		}
	}
}
