// Package checktest runs several analyzers over many packages in one load
// and one checker run, and checks each package's // want comments against
// what the analyzers reported, analyzer by analyzer.
//
// It does what analysistest.Run does for one analyzer and one package,
// with the same // want syntax for diagnostics (not for facts: the suite's
// analyzers export none) and the same kind of failure messages (file:line,
// the message against the pattern), but the dependencies (the standard
// library, from source) are loaded, type-checked and analysed once for all
// the packages, and the analyzers' shared prerequisites run once per
// package instead of once per analyzer. That is what makes a corpus of many
// small packages, each checked by a suite of analyzers, cheap to test.
//
// Only tests import it.
package checktest

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/scanner"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Testing is what Check reports to: a *testing.T, or a recorder.
type Testing interface {
	Errorf(format string, args ...any)
}

// Fatal is what Load and Analyze report to.
type Fatal interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Load loads the packages of patterns, in GOPATH mode, from the GOPATH
// entries gopath, with their dependencies from source, as analysistest
// does. A pattern that matches no package, or a package that cannot be
// listed at all, fails t; parse and type errors do not (Check reports
// them, for their package only).
func Load(t Fatal, gopath []string, patterns ...string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  filepath.Join(gopath[0], "src"),
		// As analysistest: test files too, so that a package's _test.go
		// files are checked as well.
		Tests: true,
		Env: append(os.Environ(),
			"GOPATH="+strings.Join(gopath, string(filepath.ListSeparator)),
			"GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatalf("loading %v: %v", patterns, err)
	}
	for _, p := range pkgs {
		if p.Name == "" {
			t.Fatalf("cannot load %q: %v", p.PkgPath, p.Errors)
		}
	}
	if len(pkgs) == 0 {
		t.Fatalf("no packages match %v", patterns)
	}
	return pkgs
}

// Result is one checker run over many packages, its root actions grouped
// by package.
type Result struct {
	Graph  *checker.Graph
	gopath []string
	roots  map[*packages.Package][]*checker.Action
}

// Analyze runs analyzers over pkgs in one checker run, with the facts
// round-tripped through their encoding (checker's SanityCheck) as
// analysistest does. gopath is what Load was given: failure messages name
// files relative to it.
func Analyze(t Fatal, gopath []string, analyzers []*analysis.Analyzer, pkgs []*packages.Package) *Result {
	t.Helper()
	g, err := checker.Analyze(analyzers, pkgs, &checker.Options{SanityCheck: true})
	if err != nil {
		t.Fatalf("checker: %v", err)
	}
	r := &Result{Graph: g, gopath: gopath, roots: make(map[*packages.Package][]*checker.Action)}
	for _, act := range g.Roots {
		r.roots[act.Package] = append(r.roots[act.Package], act)
	}
	return r
}

// Packages lists the root packages whose import path is path: the package,
// and its test variants if it has test files.
func (r *Result) Packages(path string) []*packages.Package {
	var out []*packages.Package
	for p := range r.roots {
		if p.PkgPath == path || strings.HasPrefix(p.ID, path+" [") {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *packages.Package) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Actions returns the root actions of pkg, one per analyzer.
func (r *Result) Actions(pkg *packages.Package) []*checker.Action {
	return r.roots[pkg]
}

// Diagnostic is a diagnostic with the analyzer that reported it.
type Diagnostic struct {
	Analyzer string
	Posn     token.Position
	analysis.Diagnostic
}

// Diagnostics returns what the analyzers reported on the packages whose
// import path is path, in the order of Packages and of the analyzers.
func (r *Result) Diagnostics(path string) []Diagnostic {
	var out []Diagnostic
	for _, p := range r.Packages(path) {
		for _, act := range r.roots[p] {
			for _, d := range act.Diagnostics {
				out = append(out, Diagnostic{act.Analyzer.Name, p.Fset.Position(d.Pos), d})
			}
		}
	}
	return out
}

// Check checks the packages of import path path against their // want
// comments, as analysistest does for one analyzer: every diagnostic must
// match an expectation on its line, and every expectation a diagnostic. In
// addition, an expectation is met only by the analyzer owner: a diagnostic
// of another analyzer, or of owner with another message, fails the test.
// Parse and type errors of the package, and an analysis that fails, fail
// the test too.
func (r *Result) Check(t Testing, path, owner string) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	pkgs := r.Packages(path)
	if len(pkgs) == 0 {
		t.Errorf("%s: not among the packages analysed", path)
	}
	for _, p := range pkgs {
		r.check(t, p, owner)
	}
}

type key struct {
	file string
	line int
}

func (r *Result) check(t Testing, pkg *packages.Package, owner string) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	for _, err := range pkg.Errors {
		t.Errorf("%s: %v", pkg.ID, err)
	}
	acts := r.roots[pkg]
	want := r.expectations(t, pkg)
	// checkMessage matches a message of analyzer name at posn with an
	// expectation of its line, and removes the expectation it meets.
	checkMessage := func(posn token.Position, analyzer, message string) {
		if h, ok := t.(interface{ Helper() }); ok {
			h.Helper()
		}
		posn.Filename = r.sanitize(posn.Filename)
		k := key{posn.Filename, posn.Line}
		var unmatched []string
		for i, rx := range want[k] {
			if !rx.MatchString(message) {
				unmatched = append(unmatched, fmt.Sprintf("%#q", rx))
				continue
			}
			if analyzer != owner {
				t.Errorf("%v: diagnostic %q of %s meets the expectation %#q, which is %s's", posn, message, analyzer, rx, owner)
				return
			}
			want[k] = slices.Delete(want[k], i, i+1)
			return
		}
		if unmatched == nil {
			t.Errorf("%v: unexpected diagnostic of %s: %v", posn, analyzer, message)
		} else {
			t.Errorf("%v: diagnostic %q of %s does not match pattern %s", posn, message, analyzer, strings.Join(unmatched, " or "))
		}
	}
	for _, act := range acts {
		if act.Err != nil {
			t.Errorf("error analyzing %s: %v", act, act.Err)
			continue
		}
		for _, d := range act.Diagnostics {
			checkMessage(pkg.Fset.Position(d.Pos), act.Analyzer.Name, d.Message)
		}
	}
	var surplus []string
	for k, exps := range want {
		for _, rx := range exps {
			surplus = append(surplus, fmt.Sprintf("%s:%d: no diagnostic of %s was reported matching %#q", k.file, k.line, owner, rx))
		}
	}
	sort.Strings(surplus)
	for _, s := range surplus {
		t.Errorf("%s", s)
	}
}

// expectations reads the // want comments of pkg's Go files, as
// analysistest does (a comment "//...// want ..." counts from "want").
func (r *Result) expectations(t Testing, pkg *packages.Package) map[key][]*regexp.Regexp {
	want := make(map[key][]*regexp.Regexp)
	for _, f := range pkg.Syntax {
		for _, group := range f.Comments {
			for _, c := range group.List {
				text := strings.TrimPrefix(c.Text, "//")
				if text == c.Text {
					text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
				}
				if i := strings.Index(text, "// want"); i >= 0 {
					text = text[i+len("// "):]
				}
				rest, ok := strings.CutPrefix(strings.TrimSpace(text), "want")
				if !ok {
					continue
				}
				posn := pkg.Fset.Position(c.Pos())
				file := r.sanitize(posn.Filename)
				delta, exps, err := parseExpectations(rest)
				if err != nil {
					t.Errorf("%s:%d: in 'want' comment: %s", file, posn.Line, err)
					continue
				}
				if exps != nil {
					k := key{file, posn.Line + delta}
					want[k] = append(want[k], exps...)
				}
			}
		}
	}
	return want
}

// parseExpectations parses what follows "want": quoted patterns of
// diagnostics, and +N to move them N lines down. (analysistest's
// name:"pattern" expectations of facts are refused: ccvet's analyzers
// export no facts of their own.)
func parseExpectations(text string) (lineDelta int, expects []*regexp.Regexp, err error) {
	var scanErr string
	sc := new(scanner.Scanner).Init(strings.NewReader(text))
	sc.Error = func(_ *scanner.Scanner, msg string) { scanErr = msg }
	sc.Mode = scanner.ScanIdents | scanner.ScanStrings | scanner.ScanRawStrings | scanner.ScanInts
	pattern := func(tok rune) (*regexp.Regexp, error) {
		if tok != scanner.String && tok != scanner.RawString {
			return nil, fmt.Errorf("got %s, want regular expression", scanner.TokenString(tok))
		}
		s, _ := strconv.Unquote(sc.TokenText()) // cannot fail: the scanner read a string
		return regexp.Compile(s)
	}
	for {
		switch tok := sc.Scan(); tok {
		case '+':
			if tok = sc.Scan(); tok != scanner.Int {
				return 0, nil, fmt.Errorf("got +%s, want +Int", scanner.TokenString(tok))
			}
			lineDelta, _ = strconv.Atoi(sc.TokenText())
		case scanner.String, scanner.RawString:
			rx, err := pattern(tok)
			if err != nil {
				return 0, nil, err
			}
			expects = append(expects, rx)
		case scanner.Ident:
			return 0, nil, fmt.Errorf("%s: expectations of facts are not supported", sc.TokenText())
		case scanner.EOF:
			if scanErr != "" {
				return 0, nil, fmt.Errorf("%s", scanErr)
			}
			return lineDelta, expects, nil
		default:
			return 0, nil, fmt.Errorf("unexpected %s", scanner.TokenString(tok))
		}
	}
}

// sanitize names a file relative to the src directory of the GOPATH entry
// it is in, as analysistest does.
func (r *Result) sanitize(filename string) string {
	for _, g := range r.gopath {
		prefix := g + string(os.PathSeparator) + "src" + string(os.PathSeparator)
		if rest, ok := strings.CutPrefix(filename, prefix); ok {
			return filepath.ToSlash(rest)
		}
	}
	return filepath.ToSlash(filename)
}
