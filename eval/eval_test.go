// Package eval runs ccvet on pinned versions of public Go consensus
// implementations, annotated by the recipes in recipes/*.txt, and compares
// the findings with the ones the recipes expect. docs/evaluation.md at the root
// of the repository triages every expected finding.
//
// The targets are downloaded from the Go module proxy, so the test is
// skipped unless CCVET_NETWORK_TESTS=1. CCVET_EVAL_KEEP=DIR keeps the
// annotated trees in DIR/RECIPE, to read the code at the findings. Each
// annotated target is also vetted by the real go vet with ccvet as its vet
// tool, which must report what the in-process driver reports.
//
// # Recipe format
//
// One directive per line; blank lines and lines starting with # are
// comments.
//
//	module PATH@VERSION          the module to download (once per recipe)
//	nosumdb                      the version is not in the checksum database: set GONOSUMDB for this module only
//	package PATTERN              a package pattern to analyse, relative to the module root (repeatable)
//	insert FILE SCOPE PLACE `RE` TEXT
//	                             insert TEXT at the one line of SCOPE that RE matches
//	want ANALYZER FILE:LINE MESSAGE
//	want~ ANALYZER FILE:LINE REGEXP
//	suppressed ANALYZER FILE:LINE MESSAGE
//	                             a finding a //sync:ignore of the recipe suppresses
//	maybe ANALYZER FILE:LINE MESSAGE
//	                             a finding the engine reports in some runs only (its
//	                             output varies from run to run there): matched if
//	                             reported, not required
//	engine NAME                  the expectations that follow are those of engine NAME
//	                             (v1 or v2, as CCVET_TAGFLOW names them)
//	timeout DURATION             in an engine block: cap that engine's analysis (default 3m)
//	capped                       in an engine block: the engine is expected not to finish
//	                             within its timeout
//
// A recipe without engine lines is analysed in process with the engine
// that CCVET_TAGFLOW selects. A recipe with engine lines is analysed once
// per engine it names, each in a child process killed at the engine's
// timeout, with the expectations before the first engine line plus those
// of the engine's block; both engines' figures are then re-measured by
// every run, whatever the default engine is.
//
// SCOPE is a function (Name), a method (Type.Name), a type declaration
// (Type, for the methods of an interface), or - for the whole file. PLACE
// is before (a new line above, with the anchor's indentation), after (a new
// line below) or eol (appended to the anchor line after a blank). RE must
// match exactly one line of SCOPE in the pristine file; otherwise the test
// fails, so that a recipe never silently stops annotating. All anchors of a
// file are resolved on the pristine file, and the expected positions are
// those of the annotated file.
package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/driver"
	"github.com/ccvet/ccvet/internal/gctune"
)

// analysisTimeout bounds the analysis of one target, so that a hang in the
// analysis fails the test instead of stalling CI.
const analysisTimeout = 3 * time.Minute

// A recipe is one target: a pinned module, the annotations to insert, and
// the expected findings.
type recipe struct {
	name     string // file name without .txt
	module   string // PATH@VERSION
	nosumdb  bool
	packages []string
	inserts  []insert
	wants    []want
	// engines holds the blocks of the engine lines, by engine name, in
	// engineOrder; nil for a recipe without them.
	engines     map[string]*engineRun
	engineOrder []string
}

// An insert adds one directive line to a file of the target.
type insert struct {
	line   int // line of the recipe
	file   string
	scope  string
	place  string
	anchor *regexp.Regexp
	text   string
}

// A want is an expected finding.
type want struct {
	line       int // line of the recipe
	suppressed bool
	optional   bool // a maybe line: the finding may be missing
	analyzer   string
	posn       string // FILE:LINE
	message    string // exact, unless re is set
	re         *regexp.Regexp
}

func (w want) matches(f finding) bool {
	if w.suppressed != f.suppressed || w.analyzer != f.analyzer || w.posn != f.posn {
		return false
	}
	if w.re != nil {
		return w.re.MatchString(f.message)
	}
	return w.message == f.message
}

// A finding is a diagnostic of ccvet, with its file relative to the
// module root.
type finding struct {
	suppressed bool
	analyzer   string
	posn       string
	message    string
}

func (f finding) String() string {
	kw := "want"
	if f.suppressed {
		kw = "suppressed"
	}
	return fmt.Sprintf("%s %s %s %s", kw, f.analyzer, f.posn, f.message)
}

var insertRE = regexp.MustCompile("^insert (\\S+) (\\S+) (before|after|eol) `([^`]+)` (.+)$")

func parseRecipe(name string, data []byte) (*recipe, error) {
	r := &recipe{name: name}
	var block *engineRun // the current engine block, nil before the first
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kw, rest, _ := strings.Cut(line, " ")
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s.txt:%d: %s", name, n, fmt.Sprintf(format, args...))
		}
		switch kw {
		case "module":
			if r.module != "" || !strings.Contains(rest, "@") {
				return nil, bad("want one module PATH@VERSION")
			}
			r.module = rest
		case "nosumdb":
			r.nosumdb = true
		case "package":
			r.packages = append(r.packages, rest)
		case "insert":
			m := insertRE.FindStringSubmatch(line)
			if m == nil {
				return nil, bad("want insert FILE SCOPE before|after|eol `RE` TEXT")
			}
			re, err := regexp.Compile(m[4])
			if err != nil {
				return nil, bad("%v", err)
			}
			r.inserts = append(r.inserts, insert{line: n, file: m[1], scope: m[2], place: m[3], anchor: re, text: m[5]})
		case "want", "want~", "suppressed", "maybe":
			f := strings.SplitN(rest, " ", 3)
			if len(f) != 3 {
				return nil, bad("want %s ANALYZER FILE:LINE MESSAGE", kw)
			}
			w := want{line: n, suppressed: kw == "suppressed", optional: kw == "maybe", analyzer: f[0], posn: f[1], message: f[2]}
			if kw == "want~" {
				re, err := regexp.Compile(f[2])
				if err != nil {
					return nil, bad("%v", err)
				}
				w.re = re
			}
			if block != nil {
				block.wants = append(block.wants, w)
			} else {
				r.wants = append(r.wants, w)
			}
		case "engine", "timeout", "capped":
			var err error
			if block, err = r.engineLine(kw, rest, block); err != nil {
				return nil, bad("%v", err)
			}
		default:
			return nil, bad("unknown keyword %q", kw)
		}
	}
	if r.module == "" || len(r.packages) == 0 {
		return nil, fmt.Errorf("%s.txt: needs a module and at least one package", name)
	}
	for _, e := range r.engines {
		if e.capped {
			if len(e.wants) > 0 {
				return nil, fmt.Errorf("%s.txt: a capped engine reports nothing: its block has want lines", name)
			}
			continue
		}
		e.wants = slices.Concat(r.wants, e.wants)
	}
	return r, sc.Err()
}

// engineLine parses a line of an engine block (kw is engine, timeout or
// capped) and returns the block that the next lines belong to.
func (r *recipe) engineLine(kw, rest string, block *engineRun) (*engineRun, error) {
	switch kw {
	case "engine":
		if rest != "v1" && rest != "v2" {
			return nil, errors.New("want engine v1 or engine v2")
		}
		if r.engines[rest] != nil {
			return nil, fmt.Errorf("engine %s has a block already", rest)
		}
		if r.engines == nil {
			r.engines = make(map[string]*engineRun)
		}
		block = &engineRun{timeout: analysisTimeout}
		r.engines[rest] = block
		r.engineOrder = append(r.engineOrder, rest)
	case "timeout":
		d, err := time.ParseDuration(rest)
		if block == nil || err != nil || d <= 0 {
			return nil, errors.New("want timeout DURATION inside an engine block")
		}
		block.timeout = d
	case "capped":
		if block == nil || rest != "" {
			return nil, errors.New("want capped, alone, inside an engine block")
		}
		block.capped = true
	}
	return block, nil
}

func loadRecipes(t testing.TB) []*recipe {
	files, err := filepath.Glob(filepath.Join("recipes", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recipes: %v", err)
	}
	var rs []*recipe
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := parseRecipe(strings.TrimSuffix(filepath.Base(f), ".txt"), data)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// TestRecipesParse checks the recipes without the network.
func TestRecipesParse(t *testing.T) {
	for _, r := range loadRecipes(t) {
		if len(r.inserts) == 0 {
			t.Errorf("%s: no annotation", r.name)
		}
	}
}

// TestEval annotates and analyses every target.
func TestEval(t *testing.T) {
	if os.Getenv("CCVET_NETWORK_TESTS") != "1" {
		t.Skip("downloads modules from the Go module proxy: set CCVET_NETWORK_TESTS=1")
	}
	for _, r := range loadRecipes(t) {
		if r.engines != nil {
			t.Run(r.name, func(t *testing.T) { runEngines(t, r) })
			continue
		}
		t.Run(r.name, func(t *testing.T) { runRecipe(t, r) })
	}
}

func goEnv(r *recipe) []string {
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if r.nosumdb {
		path, _, _ := strings.Cut(r.module, "@")
		env = append(env, "GONOSUMDB="+path)
	}
	return env
}

// setGoEnv sets, for the rest of the test, the variables of goEnv that
// loading the packages of r in process needs.
func setGoEnv(t testing.TB, r *recipe) {
	for _, e := range goEnv(r) {
		if k, v, ok := strings.Cut(e, "="); ok && (k == "GOWORK" || k == "GOFLAGS" || k == "GONOSUMDB") {
			t.Setenv(k, v)
		}
	}
}

func runGo(t testing.TB, r *recipe, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = goEnv(r)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func runRecipe(t *testing.T, r *recipe) {
	start := time.Now()
	root := prepare(t, r)
	prep := time.Since(start)

	setGoEnv(t, r)
	opts := driver.Options{
		Analyzers: slices.Concat(analyzer.Suite, analyzer.Advisory),
		Patterns:  r.packages,
		Dir:       root,
	}
	type result struct {
		res *driver.Result
		err error
	}
	done := make(chan result, 1)
	start = time.Now()
	go func() {
		res, err := driver.Analyze(opts)
		done <- result{res, err}
	}()
	var res *driver.Result
	ctx, cancel := context.WithTimeout(context.Background(), analysisTimeout)
	defer cancel()
	select {
	case got := <-done:
		if got.err != nil {
			t.Fatal(got.err)
		}
		res = got.res
	case <-ctx.Done():
		t.Fatalf("analysis of %s did not finish in %v", r.module, analysisTimeout)
	}
	t.Logf("%s: download and set-up %v, load and analysis %v", r.module, prep.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	for _, e := range res.Errors {
		t.Errorf("load or analysis error: %s", e)
	}

	var got []finding
	rel := func(f driver.Finding) string {
		p, err := filepath.Rel(root, f.Path)
		if err != nil {
			p = f.Path
		}
		return filepath.ToSlash(p) + ":" + strconv.Itoa(f.Line)
	}
	for _, f := range res.Findings {
		got = append(got, finding{analyzer: f.Analyzer, posn: rel(f), message: f.Message})
	}
	for _, s := range res.Suppressed {
		got = append(got, finding{suppressed: true, analyzer: s.Analyzer, posn: rel(s.Finding), message: s.Message})
	}
	compare(t, r, r.wants, got)
	if t.Failed() {
		return
	}
	checkGoVet(t, r, root, opts)
}

// checkGoVet runs the real go vet with ccvet as its vet tool on the
// annotated packages and checks that it reports exactly what the
// in-process driver reports on them with their test files (go vet always
// vets a package with its tests). The two drivers share the analyzers but
// not the loading: go vet's types of the imports come from the compiler's
// export data, its facts from ccvet's own fact files (internal/vettool).
func checkGoVet(t *testing.T, r *recipe, root string, opts driver.Options) {
	opts.Tests = true
	res, err := driver.Analyze(opts)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range res.Findings {
		p, err := filepath.Rel(root, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprintf("%s:%d:%d: %s", filepath.ToSlash(p), f.Line, f.Column, f.Message))
	}
	slices.Sort(want)
	want = slices.Compact(want)

	start := time.Now()
	var pkgs []string
	for _, p := range r.packages {
		pkgs = append(pkgs, "./"+strings.TrimPrefix(p, "./"))
	}
	cmd := exec.Command("go", append([]string{"vet", "-vettool=" + ccvetBinary(t), "-synclex"}, pkgs...)...)
	cmd.Dir = root
	cmd.Env = goEnv(r)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	// Findings are "file:line:col: message" lines; related positions are
	// indented after the colon, package headers start with #.
	var got []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if m := vetLine.FindStringSubmatch(l); m != nil && !strings.HasPrefix(m[2], "\t") {
			got = append(got, strings.TrimPrefix(m[1], "./")+": "+m[2])
		}
	}
	slices.Sort(got)
	got = slices.Compact(got)
	t.Logf("go vet -vettool=ccvet: %v, %d findings", time.Since(start).Round(time.Millisecond), len(got))
	if len(want) > 0 && err == nil {
		t.Errorf("go vet exited 0 with findings to report")
	}
	if !slices.Equal(got, want) {
		t.Errorf("go vet -vettool=ccvet reports\n\t%s\nthe in-process driver (tests included)\n\t%s\ngo vet's output:\n%s",
			strings.Join(got, "\n\t"), strings.Join(want, "\n\t"), stderr.String())
	}
}

var vetLine = regexp.MustCompile(`^([^\s#][^:]*:\d+:\d+): (.*)$`)

var ccvetBin struct {
	once sync.Once
	path string
	err  error
}

// ccvetBinary builds the ccvet command once per test binary.
func ccvetBinary(t *testing.T) string {
	ccvetBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "ccvet-eval-bin")
		if err != nil {
			ccvetBin.err = err
			return
		}
		ccvetBin.path = filepath.Join(dir, "ccvet")
		out, err := exec.Command("go", "build", "-o", ccvetBin.path, "../cmd/ccvet").CombinedOutput()
		if err != nil {
			ccvetBin.err = fmt.Errorf("building ccvet: %v\n%s", err, out)
		}
	})
	if ccvetBin.err != nil {
		t.Fatal(ccvetBin.err)
	}
	return ccvetBin.path
}

// prepare downloads the module of r, copies it to a temporary directory
// (CCVET_EVAL_KEEP/NAME if set), annotates it and downloads what loading its
// packages needs; it returns the module root of the copy.
func prepare(t testing.TB, r *recipe) string {
	out := runGo(t, r, t.TempDir(), "mod", "download", "-json", r.module)
	var mod struct{ Dir, Error string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Error != "" || mod.Dir == "" {
		t.Fatalf("go mod download %s: %v %s", r.module, err, mod.Error)
	}
	root := filepath.Join(t.TempDir(), "mod")
	if keep := os.Getenv("CCVET_EVAL_KEEP"); keep != "" {
		// Keep the annotated tree, to read the code at the findings.
		root = filepath.Join(keep, r.name)
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
	}
	if err := copyTree(mod.Dir, root); err != nil {
		t.Fatal(err)
	}
	if err := annotate(root, r.inserts); err != nil {
		t.Fatal(err)
	}
	// The dependencies of the analysed packages only, not the whole module
	// graph: go list -deps downloads what loading needs.
	runGo(t, r, root, append([]string{"list", "-deps", "-test=false"}, r.packages...)...)
	return root
}

// copyTree copies the module from the read-only module cache into dst,
// with writable files.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// annotate applies the inserts to the files under root.
func annotate(root string, inserts []insert) error {
	byFile := make(map[string][]insert)
	var files []string
	for _, in := range inserts {
		if byFile[in.file] == nil {
			files = append(files, in.file)
		}
		byFile[in.file] = append(byFile[in.file], in)
	}
	for _, file := range files {
		path := filepath.Join(root, filepath.FromSlash(file))
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out, err := applyInserts(file, src, byFile[file])
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// applyInserts resolves every anchor of one file on the pristine source and
// returns the annotated source.
func applyInserts(name string, src []byte, inserts []insert) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	lines := strings.SplitAfter(string(src), "\n")
	type edit struct {
		line int // 0-based
		in   insert
	}
	var edits []edit
	for _, in := range inserts {
		first, last, err := scopeLines(fset, f, in.scope, len(lines))
		if err != nil {
			return nil, fmt.Errorf("recipe line %d: %s: %v", in.line, name, err)
		}
		var hits []int
		for i := first; i <= last; i++ {
			if in.anchor.MatchString(strings.TrimRight(lines[i], "\r\n")) {
				hits = append(hits, i)
			}
		}
		if len(hits) != 1 {
			return nil, fmt.Errorf("recipe line %d: %s: anchor `%s` matches %d lines of %s, want exactly one (lines %v)", in.line, name, in.anchor, len(hits), in.scope, oneBased(hits))
		}
		edits = append(edits, edit{hits[0], in})
	}
	// Apply bottom-up so that earlier line numbers stay valid; inserts at
	// one line keep their recipe order.
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].line > edits[j].line })
	for k := 0; k < len(edits); {
		l := edits[k].line
		var before, after []string
		anchor := lines[l]
		for ; k < len(edits) && edits[k].line == l; k++ {
			in := edits[k].in
			indent := anchor[:len(anchor)-len(strings.TrimLeft(anchor, " \t"))]
			switch in.place {
			case "before":
				before = append(before, indent+in.text+"\n")
			case "after":
				after = append(after, indent+in.text+"\n")
			case "eol":
				body := strings.TrimRight(anchor, "\r\n")
				anchor = body + " " + in.text + anchor[len(body):]
			}
		}
		repl := slices.Concat(before, []string{anchor}, after)
		lines = slices.Concat(lines[:l], repl, lines[l+1:])
	}
	return []byte(strings.Join(lines, "")), nil
}

func oneBased(ls []int) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = l + 1
	}
	return out
}

// scopeLines returns the 0-based first and last lines of scope in f.
func scopeLines(fset *token.FileSet, f *ast.File, scope string, n int) (int, int, error) {
	if scope == "-" {
		return 0, n - 1, nil
	}
	span := func(node ast.Node) (int, int) {
		return fset.Position(node.Pos()).Line - 1, fset.Position(node.End()).Line - 1
	}
	recv, name, isMethod := strings.Cut(scope, ".")
	if !isMethod {
		name, recv = recv, ""
	}
	var found []ast.Node
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != name {
				continue
			}
			if (d.Recv == nil) != (recv == "") {
				continue
			}
			if d.Recv != nil && recvName(d.Recv.List[0].Type) != recv {
				continue
			}
			found = append(found, d)
		case *ast.GenDecl:
			if recv != "" {
				continue
			}
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == name {
					if len(d.Specs) == 1 {
						found = append(found, d) // with its doc comment
					} else {
						found = append(found, ts)
					}
				}
			}
		}
	}
	if len(found) != 1 {
		return 0, 0, fmt.Errorf("scope %s declared %d times, want once", scope, len(found))
	}
	first, last := span(found[0])
	return first, last, nil
}

func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

func TestMain(m *testing.M) {
	if job := os.Getenv(childEnv); job != "" {
		gctune.Apply() // as the ccvet command runs
		os.Exit(runChild(job))
	}
	code := m.Run()
	if ccvetBin.path != "" {
		os.RemoveAll(filepath.Dir(ccvetBin.path))
	}
	os.Exit(code)
}
