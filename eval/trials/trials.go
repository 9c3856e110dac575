// Package trials measures ccvet on a blind trial corpus: protocols written
// from the README and the papers only, by people who never saw the
// analyzers or their testdata, each a correct version and mutants that
// break one condition.
//
// A trial corpus is a Go module (only the standard library imported) whose
// every package directory is one protocol. A package's mutants.txt lists
// its mutants, each replacing one exact, unique piece of the correct
// source and naming the analyzer of the condition it breaks:
//
//	=== stale-ack syncrecv
//	# accepts an Ack of an older ballot
//	--- old
//			if m.Ballot != p.ballot {
//	--- new
//			if m.Ballot > p.ballot {
//	===
//
// The module is loaded once; each mutant is parsed and type-checked against
// the loaded dependencies and analysed with the whole suite, so a corpus of
// a hundred mutants costs one go list, not a hundred.
//
// Verdicts follow the definitions the project reports figures in: a
// correct package is clean, or has only "cannot prove" findings, or has a
// false violation; a mutant is caught (a violation by the analyzer of its
// condition that the correct version does not have), flagged (only a new
// "cannot prove" by that analyzer), caught by another analyzer only, or
// missed (no new finding at all). A finding that says the analysis gave up
// ("too large") is counted apart.
package trials

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// A Mutant replaces Old, which occurs exactly once in its package's files,
// with New; Analyzer names the analyzer of the condition it breaks.
type Mutant struct {
	Name, Analyzer string
	Why            string // the comment lines of its block
	Old, New       string
}

// A Finding is one diagnostic, reduced to what verdicts compare.
type Finding struct {
	Analyzer string
	Posn     string // file:line:col, the file's base name only
	Message  string
	Unproven bool // a "cannot prove" finding
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s (%s)", f.Posn, f.Message, f.Analyzer)
}

// key is what two findings of a package and its mutant are compared by:
// the analyzer and the message with line numbers left out, since a mutant
// may move lines.
func (f Finding) key() string {
	return f.Analyzer + "\x00" + lineRefs.ReplaceAllString(f.Message, "line N")
}

var lineRefs = regexp.MustCompile(`line \d+`)

// GaveUp reports whether f says the analysis gave up rather than decided.
func (f Finding) GaveUp() bool {
	return strings.Contains(f.Message, "too large") || strings.Contains(f.Message, "calls deep")
}

// Verdicts of correct packages and of mutants.
const (
	Clean          = "clean"           // correct package, no finding
	CannotProve    = "cannot-prove"    // correct package, only "cannot prove" findings
	FalseViolation = "false-violation" // correct package with a violation
	Caught         = "caught"          // mutant: a new violation by its analyzer
	Flagged        = "flagged"         // mutant: only a new "cannot prove" by its analyzer
	WrongAnalyzer  = "wrong-analyzer"  // mutant: new findings, none by its analyzer
	Missed         = "missed"          // mutant: no new finding, on a package with none (a silent miss)
	Masked         = "masked"          // mutant: no new finding, on a package whose findings may hide it
	Broken         = "broken"          // mutant or package that does not apply or type-check
)

// A Result is the verdict on one correct package or one mutant.
type Result struct {
	Package string
	Mutant  *Mutant // nil for the correct version
	Verdict string
	GaveUp  bool      // some finding says the analysis gave up
	New     []Finding // mutant: findings the correct version lacks; package: all findings
	Err     string    // for Broken
}

// Name is the result's name in reports: the package, or package/mutant.
func (r *Result) Name() string {
	if r.Mutant == nil {
		return r.Package
	}
	return r.Package + "/" + r.Mutant.Name
}

// Run analyses the trial corpus in the module at dir with analyzers and
// returns one result per package and per mutant, packages in directory
// order, each followed by its mutants in file order.
func Run(dir string, analyzers []*analysis.Analyzer) ([]*Result, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].PkgPath < pkgs[j].PkgPath })
	var out []*Result
	for _, p := range pkgs {
		name := filepath.Base(p.PkgPath)
		if len(p.Errors) > 0 {
			out = append(out, &Result{Package: name, Verdict: Broken, Err: p.Errors[0].Error()})
			continue
		}
		base, err := analyze(analyzers, p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		out = append(out, correctResult(name, base))
		pkgDir := filepath.Dir(p.CompiledGoFiles[0])
		mutants, err := ReadMutants(filepath.Join(pkgDir, "mutants.txt"))
		if err != nil {
			return nil, err
		}
		for _, m := range mutants {
			out = append(out, mutantResult(analyzers, p, name, m, base))
		}
	}
	return out, nil
}

func correctResult(name string, fs []Finding) *Result {
	r := &Result{Package: name, Verdict: Clean, New: fs}
	for _, f := range fs {
		r.GaveUp = r.GaveUp || f.GaveUp()
		switch {
		case !f.Unproven:
			r.Verdict = FalseViolation
		case r.Verdict == Clean:
			r.Verdict = CannotProve
		}
	}
	return r
}

func mutantResult(analyzers []*analysis.Analyzer, p *packages.Package, name string, m *Mutant, base []Finding) *Result {
	r := &Result{Package: name, Mutant: m, Verdict: Missed}
	mp, err := mutate(p, m)
	if err == nil {
		var fs []Finding
		fs, err = analyze(analyzers, mp)
		r.New = newFindings(base, fs)
	}
	if err != nil {
		r.Verdict, r.Err = Broken, err.Error()
		return r
	}
	defer func() {
		if r.Verdict == Missed && len(base) > 0 {
			r.Verdict = Masked
		}
	}()
	for _, f := range r.New {
		r.GaveUp = r.GaveUp || f.GaveUp()
		switch {
		case f.Analyzer == m.Analyzer && !f.Unproven:
			r.Verdict = Caught
		case f.Analyzer == m.Analyzer && r.Verdict != Caught:
			r.Verdict = Flagged
		case r.Verdict == Missed:
			r.Verdict = WrongAnalyzer
		}
	}
	return r
}

// newFindings returns the findings of fs that base lacks, counted as
// multisets by key.
func newFindings(base, fs []Finding) []Finding {
	left := make(map[string]int)
	for _, f := range base {
		left[f.key()]++
	}
	var out []Finding
	for _, f := range fs {
		if left[f.key()] > 0 {
			left[f.key()]--
			continue
		}
		out = append(out, f)
	}
	return out
}

// analyze runs analyzers on p and returns its findings, sorted.
func analyze(analyzers []*analysis.Analyzer, p *packages.Package) ([]Finding, error) {
	graph, err := checker.Analyze(analyzers, []*packages.Package{p}, nil)
	if err != nil {
		return nil, err
	}
	var fs []Finding
	seen := make(map[Finding]bool)
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			return nil, act.Err
		}
		for _, d := range act.Diagnostics {
			posn := p.Fset.Position(d.Pos)
			f := Finding{
				Analyzer: act.Analyzer.Name,
				Posn:     fmt.Sprintf("%s:%d:%d", filepath.Base(posn.Filename), posn.Line, posn.Column),
				Message:  d.Message,
				Unproven: strings.HasPrefix(d.Message, "cannot prove"),
			}
			if !seen[f] {
				seen[f] = true
				fs = append(fs, f)
			}
		}
	}
	slices.SortFunc(fs, func(a, b Finding) int { return strings.Compare(a.String(), b.String()) })
	return fs, nil
}

// mutate returns p with m applied: its files parsed again, one of them
// changed, and type-checked against p's imports.
func mutate(p *packages.Package, m *Mutant) (*packages.Package, error) {
	var srcs [][]byte
	hits := 0
	for _, name := range p.CompiledGoFiles {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		n := strings.Count(string(b), m.Old)
		hits += n
		if n == 1 {
			b = []byte(strings.Replace(string(b), m.Old, m.New, 1))
		}
		srcs = append(srcs, b)
	}
	if hits != 1 {
		return nil, fmt.Errorf("mutant %s: its old text occurs %d times in the package, not once", m.Name, hits)
	}
	mp := &packages.Package{
		ID: p.ID, Name: p.Name, PkgPath: p.PkgPath, Fset: p.Fset,
		GoFiles: p.GoFiles, CompiledGoFiles: p.CompiledGoFiles,
		Imports: p.Imports, TypesSizes: p.TypesSizes, Module: p.Module,
		TypesInfo: &types.Info{
			Types:        make(map[ast.Expr]types.TypeAndValue),
			Defs:         make(map[*ast.Ident]types.Object),
			Uses:         make(map[*ast.Ident]types.Object),
			Implicits:    make(map[ast.Node]types.Object),
			Instances:    make(map[*ast.Ident]types.Instance),
			Scopes:       make(map[ast.Node]*types.Scope),
			Selections:   make(map[*ast.SelectorExpr]*types.Selection),
			FileVersions: make(map[*ast.File]string),
		},
	}
	for i, name := range p.CompiledGoFiles {
		f, err := parser.ParseFile(p.Fset, name, srcs[i], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		mp.Syntax = append(mp.Syntax, f)
	}
	conf := types.Config{
		GoVersion: goVersion(p),
		Sizes:     p.TypesSizes,
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if ip, ok := p.Imports[path]; ok {
				return ip.Types, nil
			}
			return nil, fmt.Errorf("%s is not imported by the correct version", path)
		}),
	}
	tp, err := conf.Check(p.PkgPath, p.Fset, mp.Syntax, mp.TypesInfo)
	if err != nil {
		return nil, fmt.Errorf("mutant %s does not type-check: %v", m.Name, err)
	}
	mp.Types = tp
	return mp, nil
}

func goVersion(p *packages.Package) string {
	if p.Module != nil && p.Module.GoVersion != "" {
		return "go" + p.Module.GoVersion
	}
	return ""
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// ReadMutants parses a mutants.txt; a missing file means no mutants.
func ReadMutants(path string) ([]*Mutant, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var (
		out  []*Mutant
		cur  *Mutant
		part *string
		ln   int
	)
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		ln++
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "=== "):
			f := strings.Fields(line[4:])
			if len(f) != 2 {
				return nil, fmt.Errorf("%s:%d: want \"=== name analyzer\"", path, ln)
			}
			cur = &Mutant{Name: f[0], Analyzer: f[1]}
			part = nil
		case cur == nil:
			// Text between blocks is commentary.
		case line == "===":
			if cur.Old == "" {
				return nil, fmt.Errorf("%s:%d: mutant %s has no old text", path, ln, cur.Name)
			}
			cur.Old = strings.TrimSuffix(cur.Old, "\n")
			cur.New = strings.TrimSuffix(cur.New, "\n")
			out = append(out, cur)
			cur = nil
		case line == "--- old":
			part = &cur.Old
		case line == "--- new":
			part = &cur.New
		case part == nil && strings.HasPrefix(line, "#"):
			cur.Why += strings.TrimSpace(strings.TrimPrefix(line, "#")) + " "
		case part != nil:
			*part += line + "\n"
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s: mutant %s is not closed by ===", path, cur.Name)
	}
	return out, sc.Err()
}
