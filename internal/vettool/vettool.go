// Package vettool is ccvet's driver for the protocol of
// 'go vet -vettool=$(which ccvet)': the go command runs the tool once per
// package, dependencies first, with a JSON configuration (vet.cfg) naming
// the package's files, the compiler's export data of its imports, and the
// fact files the tool wrote for them.
//
// It replaces x/tools' unitchecker, which since x/tools v0.52 carries the
// dependencies' types in its fact files: it must therefore parse and
// type-check every package of the build, the standard library included,
// even when no analyzer has anything to say about it. That made
// 'go vet -vettool=ccvet' cost as much as plain go vet on code without a
// single directive (docs/evaluation.md, "Cost on large code"). This driver takes
// the types of the imports from the compiler's export data the go command
// already built (vet.cfg's PackageFile), and its fact files carry facts
// only, so a package with no //sync: text in its files, which is nearly
// every package, is decided by reading its files: no parsing, no type
// checking, and a fact file that merges its dependencies' without decoding
// them (empty when they are empty).
//
// The command line is unitchecker's: -flags and -V=full for the go
// command, -NAME to enable or disable an analyzer, -NAME.FLAG for an
// analyzer's flags, -json, -c=N, -fix; the analyzers are selected as in
// the standalone command (package selection), advisory ones only on
// request.
package vettool

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/ccvet/ccvet/internal/selection"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/types/objectpath"
)

// mentionsDirective reports whether src contains "//", optional blanks,
// then "sync:": the start of every directive and of every near miss the
// annotations analyzer reports ("// sync:tag"). A package whose files do
// not has no annotation, so no diagnostic and no fact of its own. (The
// test is on bytes, not comments: a string literal can make a package be
// analysed for nothing, never the reverse.)
func mentionsDirective(src []byte) bool {
	for {
		i := bytes.Index(src, []byte("sync:"))
		if i < 0 {
			return false
		}
		j := i
		for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
			j--
		}
		if j >= 2 && src[j-2] == '/' && src[j-1] == '/' {
			return true
		}
		src = src[i+len("sync:"):]
	}
}

// Config is the part of the go command's vet.cfg that the driver uses.
type Config struct {
	ID                        string // e.g. "fmt [fmt.test]"
	ImportPath                string
	GoVersion                 string
	GoFiles                   []string
	NonGoFiles                []string
	IgnoredFiles              []string
	ModulePath                string
	ModuleVersion             string
	Module                    *analysis.Module
	ImportMap                 map[string]string // import path -> package path
	PackageFile               map[string]string // package path -> compiler export data
	PackageVetx               map[string]string // package path -> fact file
	VetxOnly                  bool              // facts only: report nothing
	VetxOutput                string            // where to write this package's facts
	Stdout                    string            // where to write -json output
	FixArchive                string            // where to write -fix results, if set
	SucceedOnTypecheckFailure bool
}

// IsInvocation reports whether args (without the program name) are a call
// by the go command: a single *.cfg file, or one of the -flags and -V
// queries it makes of a vet tool.
func IsInvocation(args []string) bool {
	for _, a := range args {
		if a == "-flags" || a == "--flags" || strings.HasPrefix(a, "-V") || strings.HasPrefix(a, "--V") {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// options are the driver's own flags.
type options struct {
	json    bool
	context int
	fix     bool
	diff    bool
}

// Main runs one invocation of the vet-tool protocol with args (without the
// program name) and returns the exit code: 0, or 1 on diagnostics or
// errors. suite analyzers run unless disabled (-NAME=false); advisory ones
// only when enabled (-NAME).
func Main(suite, advisory []*analysis.Analyzer, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ccvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	selected := selection.Register(fs, suite, advisory)
	var opt options
	printFlags := fs.Bool("flags", false, "print analyzer flags in JSON")
	version := new(versionFlag)
	fs.Var(version, "V", "print version and exit")
	fs.BoolVar(&opt.json, "json", false, "emit JSON output")
	fs.IntVar(&opt.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&opt.fix, "fix", false, "apply all suggested fixes")
	fs.BoolVar(&opt.diff, "diff", false, "with -fix, don't update the files, but print a unified diff")
	// The legacy vet flags that scripts still pass; they do nothing.
	fs.Bool("source", false, "no effect (deprecated)")
	fs.Bool("v", false, "no effect (deprecated)")
	fs.Bool("all", false, "no effect (deprecated)")
	fs.String("tags", "", "no effect (deprecated)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if version.set {
		if version.value != "full" {
			fmt.Fprintf(stderr, "ccvet: unsupported flag value: -V=%s (use -V=full)\n", version.value)
			return 2
		}
		return printVersion(stdout, stderr)
	}
	if *printFlags {
		return describeFlags(fs, stdout, stderr)
	}
	if fs.NArg() != 1 || !strings.HasSuffix(fs.Arg(0), ".cfg") {
		fmt.Fprintln(stderr, `ccvet: expected one vet.cfg file: this mode is for the go command; run "go vet -vettool=$(which ccvet) [packages]", or "ccvet [packages]"`)
		return 2
	}
	if opt.diff && !opt.fix {
		fmt.Fprintln(stderr, "ccvet: -diff needs -fix")
		return 2
	}
	if opt.diff {
		fmt.Fprintln(stderr, "ccvet: -diff is not supported by ccvet's vet driver; use -fix, or the standalone ccvet command")
		return 2
	}

	// Register every fact type, of disabled analyzers too, so that fact
	// files stay readable whatever the flags.
	for a := range closure(append(slices.Clip(suite), advisory...)) {
		for _, f := range a.FactTypes {
			gob.Register(f)
		}
	}

	cfg, err := readConfig(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "ccvet: %v\n", err)
		return 1
	}
	return (&unit{cfg: cfg, analyzers: selected.Selected(), opt: opt, stdout: stdout, stderr: stderr}).run()
}

func readConfig(file string) (*Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	cfg := new(Config)
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("cannot decode JSON config file %s: %v", file, err)
	}
	if len(cfg.GoFiles) == 0 {
		return nil, fmt.Errorf("package has no files: %s", cfg.ImportPath)
	}
	return cfg, nil
}

// A unit is the analysis of one package.
type unit struct {
	cfg            *Config
	analyzers      []*analysis.Analyzer
	opt            options
	stdout, stderr io.Writer

	fset    *token.FileSet
	files   []*ast.File
	pkg     *types.Package
	info    *types.Info
	imports map[string]*types.Package // by package path, from export data
	facts   map[factKey]analysis.Fact
	// inherited are the dependencies' fact entries, passed on as they are.
	inherited []factEntry
}

// A factKey identifies a fact: about obj, or about pkg when obj is nil.
type factKey struct {
	obj types.Object
	pkg *types.Package
	t   reflect.Type
}

// A result is what one analyzer produced on the package.
type result struct {
	a     *analysis.Analyzer
	value any
	err   error
	diags []analysis.Diagnostic
}

func (u *unit) run() int {
	cfg := u.cfg
	needed, err := u.hasDirective()
	if err != nil {
		fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
		return 1
	}
	u.inherited, err = readFacts(cfg.PackageVetx)
	if err != nil {
		fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
		return 1
	}
	if !needed {
		// Nothing to analyse: the package has no annotation, so no
		// analyzer reports or exports anything here (they all start from
		// the package's own directives). Pass the dependencies' facts on.
		if err := writeFacts(cfg.VetxOutput, u.inherited); err != nil {
			fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
			return 1
		}
		return u.print(nil)
	}

	if err := u.load(); err != nil {
		if cfg.SucceedOnTypecheckFailure {
			// The go command will report the error when it compiles.
			if err := writeFacts(cfg.VetxOutput, u.inherited); err != nil {
				fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
				return 1
			}
			return 0
		}
		fmt.Fprintln(u.stderr, err)
		return 1
	}
	if err := u.importFacts(); err != nil {
		fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
		return 1
	}

	analyzers := u.analyzers
	if cfg.VetxOnly {
		// Only the facts matter: run the analyzers that produce facts
		// and what they need.
		analyzers = nil
		for _, a := range u.analyzers {
			if usesFacts(a) {
				analyzers = append(analyzers, a)
			}
		}
	}
	results := u.analyze(analyzers)

	out, err := u.exportFacts()
	if err == nil {
		err = writeFacts(cfg.VetxOutput, out)
	}
	if err != nil {
		fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
		return 1
	}
	if cfg.VetxOnly {
		return 0
	}
	return u.print(results)
}

// hasDirective reports whether any file of the package mentions a
// directive (see mentionsDirective). Reading the files is the whole cost of the
// driver on an un-annotated package.
func (u *unit) hasDirective() (bool, error) {
	for _, name := range u.cfg.GoFiles {
		data, err := os.ReadFile(name)
		if err != nil {
			return false, err
		}
		if mentionsDirective(data) {
			return true, nil
		}
	}
	return false, nil
}

// load parses and type-checks the package, its imports' types coming from
// the compiler's export data.
func (u *unit) load() error {
	cfg := u.cfg
	u.fset = token.NewFileSet()
	var errs scanner.ErrorList
	for _, name := range cfg.GoFiles {
		f, err := parser.ParseFile(u.fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			var list scanner.ErrorList
			if errors.As(err, &list) {
				errs = append(errs, list...)
				continue
			}
			return err
		}
		u.files = append(u.files, f)
	}
	if len(errs) > 0 {
		errs.Sort()
		return errs.Err()
	}

	u.imports = make(map[string]*types.Package)
	var typeErrs []string
	tc := &types.Config{
		Importer:  importerFunc(u.importPackage),
		Sizes:     types.SizesFor("gc", build.Default.GOARCH),
		GoVersion: cfg.GoVersion,
		Error: func(err error) {
			if len(typeErrs) < 10 {
				typeErrs = append(typeErrs, err.Error())
			}
		},
	}
	u.info = &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	u.pkg, _ = tc.Check(cfg.ImportPath, u.fset, u.files, u.info)
	if len(typeErrs) > 0 {
		return errors.New(strings.Join(typeErrs, "\n"))
	}
	return nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func (u *unit) importPackage(importPath string) (*types.Package, error) {
	path, ok := u.cfg.ImportMap[importPath]
	if !ok {
		return nil, fmt.Errorf("can't resolve import %q", importPath)
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p, ok := u.imports[path]; ok && p.Complete() {
		return p, nil
	}
	file := u.cfg.PackageFile[path]
	if file == "" {
		return nil, fmt.Errorf("no export data for %q", path)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading export data of %q: %v", path, err)
	}
	return gcexportdata.Read(r, u.fset, u.imports, path)
}

// importFacts decodes the inherited facts about the packages this one can
// see; facts about packages its imports never mention cannot concern it.
func (u *unit) importFacts() error {
	u.facts = make(map[factKey]analysis.Fact)
	for i := range u.inherited {
		e := &u.inherited[i]
		p := u.imports[e.Pkg]
		if p == nil {
			continue
		}
		var obj types.Object
		if e.Obj != "" {
			o, err := objectpath.Object(p, e.Obj)
			if err != nil {
				continue // not in the export data this package was given
			}
			obj = o
			p = nil
		}
		f, err := decodeFact(e)
		if err != nil {
			return err
		}
		u.facts[factKey{obj, p, reflect.TypeOf(f)}] = f
	}
	return nil
}

// exportFacts returns the fact entries for this package's fact file: the
// inherited ones and the facts its analyzers exported.
func (u *unit) exportFacts() ([]factEntry, error) {
	out := slices.Clone(u.inherited)
	for k, f := range u.facts {
		own := (k.obj != nil && k.obj.Pkg() == u.pkg) || k.pkg == u.pkg
		if !own {
			continue
		}
		e, ok, err := encodeFact(k.obj, k.pkg, f)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, e)
		}
	}
	return out, nil
}

// analyze runs analyzers and their prerequisites in dependency order and
// returns the results of analyzers, in their order.
func (u *unit) analyze(analyzers []*analysis.Analyzer) []*result {
	done := make(map[*analysis.Analyzer]*result)
	var exec func(a *analysis.Analyzer) *result
	exec = func(a *analysis.Analyzer) *result {
		if r, ok := done[a]; ok {
			return r
		}
		r := &result{a: a}
		done[a] = r
		inputs := make(map[*analysis.Analyzer]any, len(a.Requires))
		var failed []string
		for _, req := range a.Requires {
			rr := exec(req)
			if rr.err != nil {
				failed = append(failed, req.Name)
				continue
			}
			inputs[req] = rr.value
		}
		if failed != nil {
			slices.Sort(failed)
			r.err = fmt.Errorf("failed prerequisites: %s", strings.Join(failed, ", "))
			return r
		}
		pass := u.pass(a, inputs, r)
		r.value, r.err = runPass(a, pass)
		if r.err == nil && r.value != nil && a.ResultType != nil && reflect.TypeOf(r.value) != a.ResultType {
			r.err = fmt.Errorf("internal error: on package %s, analyzer %s returned a result of type %v, but declared ResultType %v",
				u.pkg.Path(), a, reflect.TypeOf(r.value), a.ResultType)
		}
		return r
	}
	out := make([]*result, len(analyzers))
	for i, a := range analyzers {
		out[i] = exec(a)
	}
	return out
}

// runPass runs a on pass, turning a panic into an error that names the
// analyzer and the package, so a bug in one analyzer does not hide the
// others' findings.
func runPass(a *analysis.Analyzer, pass *analysis.Pass) (value any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: analyzer %s panicked on package %s: %v", a.Name, pass.Pkg.Path(), p)
		}
	}()
	return a.Run(pass)
}

func (u *unit) pass(a *analysis.Analyzer, inputs map[*analysis.Analyzer]any, r *result) *analysis.Pass {
	cfg := u.cfg
	factTypes := make(map[reflect.Type]bool, len(a.FactTypes))
	for _, f := range a.FactTypes {
		factTypes[reflect.TypeOf(f)] = true
	}
	checkFact := func(f analysis.Fact) reflect.Type {
		t := reflect.TypeOf(f)
		if !factTypes[t] {
			panic(fmt.Sprintf("analyzer %s: fact type %v is not in its FactTypes", a.Name, t))
		}
		return t
	}
	module := cfg.Module
	if module == nil && cfg.ModulePath != "" {
		module = &analysis.Module{Path: cfg.ModulePath, Version: cfg.ModuleVersion, GoVersion: cfg.GoVersion}
	}
	readable := make(map[string]bool)
	for _, list := range [][]string{cfg.GoFiles, cfg.NonGoFiles, cfg.IgnoredFiles} {
		for _, f := range list {
			readable[f] = true
		}
	}
	return &analysis.Pass{
		Analyzer:     a,
		Fset:         u.fset,
		Files:        u.files,
		OtherFiles:   cfg.NonGoFiles,
		IgnoredFiles: cfg.IgnoredFiles,
		Pkg:          u.pkg,
		TypesInfo:    u.info,
		TypesSizes:   types.SizesFor("gc", build.Default.GOARCH),
		Module:       module,
		ResultOf:     inputs,
		Report: func(d analysis.Diagnostic) {
			r.diags = append(r.diags, d)
		},
		ReadFile: func(name string) ([]byte, error) {
			if !readable[name] {
				return nil, fmt.Errorf("ReadFile(%q): not a file of package %s", name, u.pkg.Path())
			}
			return os.ReadFile(name)
		},
		ImportObjectFact: func(obj types.Object, f analysis.Fact) bool {
			return u.importFact(factKey{obj, nil, checkFact(f)}, f)
		},
		ImportPackageFact: func(p *types.Package, f analysis.Fact) bool {
			return u.importFact(factKey{nil, p, checkFact(f)}, f)
		},
		ExportObjectFact: func(obj types.Object, f analysis.Fact) {
			if obj == nil || obj.Pkg() != u.pkg {
				panic(fmt.Sprintf("analyzer %s: fact about %v, which is not declared in package %s", a.Name, obj, u.pkg.Path()))
			}
			u.facts[factKey{obj, nil, checkFact(f)}] = f
		},
		ExportPackageFact: func(f analysis.Fact) {
			u.facts[factKey{nil, u.pkg, checkFact(f)}] = f
		},
		AllObjectFacts: func() []analysis.ObjectFact {
			var out []analysis.ObjectFact
			for k, f := range u.facts {
				if k.obj != nil && factTypes[k.t] {
					out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
				}
			}
			slices.SortFunc(out, func(x, y analysis.ObjectFact) int { return comparePos(u.fset, x.Object, y.Object) })
			return out
		},
		AllPackageFacts: func() []analysis.PackageFact {
			var out []analysis.PackageFact
			for k, f := range u.facts {
				if k.pkg != nil && factTypes[k.t] {
					out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
				}
			}
			slices.SortFunc(out, func(x, y analysis.PackageFact) int { return strings.Compare(x.Package.Path(), y.Package.Path()) })
			return out
		},
	}
}

// comparePos orders objects by package path, then position, then name, so
// that AllObjectFacts is deterministic.
func comparePos(fset *token.FileSet, x, y types.Object) int {
	if c := strings.Compare(x.Pkg().Path(), y.Pkg().Path()); c != 0 {
		return c
	}
	if x.Pos() != y.Pos() {
		px, py := fset.Position(x.Pos()), fset.Position(y.Pos())
		if c := strings.Compare(px.Filename, py.Filename); c != 0 {
			return c
		}
		if px.Offset != py.Offset {
			return px.Offset - py.Offset
		}
	}
	return strings.Compare(x.Name(), y.Name())
}

// importFact copies the fact stored under k, if any, into f.
func (u *unit) importFact(k factKey, f analysis.Fact) bool {
	got, ok := u.facts[k]
	if !ok {
		return false
	}
	reflect.ValueOf(f).Elem().Set(reflect.ValueOf(got).Elem())
	return true
}

// print reports the results as the go command expects (text on stderr,
// or JSON on the configured stdout), or applies their fixes with -fix,
// and returns the exit code.
func (u *unit) print(results []*result) int {
	if u.cfg.VetxOnly {
		return 0
	}
	if u.opt.fix {
		return u.applyFixes(results)
	}
	if u.opt.json {
		out := u.stdout
		if u.cfg.Stdout != "" {
			f, err := os.Create(u.cfg.Stdout)
			if err != nil {
				fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
				return 1
			}
			defer f.Close()
			out = f
		}
		tree := make(map[string]map[string]any)
		for _, r := range results {
			v := u.jsonResult(r)
			if v == nil {
				continue
			}
			if tree[u.cfg.ID] == nil {
				tree[u.cfg.ID] = make(map[string]any)
			}
			tree[u.cfg.ID][r.a.Name] = v
		}
		data, _ := json.MarshalIndent(tree, "", "\t")
		fmt.Fprintf(out, "%s\n", data)
		return 0
	}
	code := 0
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(u.stderr, "ccvet: %v\n", r.err)
			code = 1
		}
	}
	for _, r := range results {
		for _, d := range r.diags {
			u.printPlain(d.Pos, d.End, d.Message)
			for _, rel := range d.Related {
				u.printPlain(rel.Pos, rel.End, "\t"+rel.Message)
			}
			code = 1
		}
	}
	return code
}

// printPlain prints one position and message in the compiler's format,
// with -c lines of context around it.
func (u *unit) printPlain(pos, end token.Pos, msg string) {
	posn := u.fset.Position(pos)
	fmt.Fprintf(u.stderr, "%s: %s\n", posn, msg)
	if u.opt.context < 0 {
		return
	}
	last := posn.Line
	if e := u.fset.Position(end); e.IsValid() {
		last = e.Line
	}
	data, _ := os.ReadFile(posn.Filename)
	lines := strings.Split(string(data), "\n")
	for i := posn.Line - u.opt.context; i <= last+u.opt.context; i++ {
		if 1 <= i && i <= len(lines) {
			fmt.Fprintf(u.stderr, "%d\t%s\n", i, lines[i-1])
		}
	}
}

// The JSON form of a result, as unitchecker writes it: an object with an
// "error" field, or the list of diagnostics.
type (
	jsonError struct {
		Err string `json:"error"`
	}
	jsonDiagnostic struct {
		Category       string        `json:"category,omitempty"`
		Posn           string        `json:"posn"`
		End            string        `json:"end"`
		Message        string        `json:"message"`
		SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
		Related        []jsonRelated `json:"related,omitempty"`
	}
	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}
	jsonEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonRelated struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
)

func (u *unit) jsonResult(r *result) any {
	if r.err != nil {
		return jsonError{r.err.Error()}
	}
	if len(r.diags) == 0 {
		return nil
	}
	posn := func(pos, end token.Pos) (string, string) {
		if !end.IsValid() {
			end = pos
		}
		return u.fset.Position(pos).String(), u.fset.Position(end).String()
	}
	var out []jsonDiagnostic
	for _, d := range r.diags {
		jd := jsonDiagnostic{Category: d.Category, Message: d.Message}
		jd.Posn, jd.End = posn(d.Pos, d.End)
		for _, fix := range d.SuggestedFixes {
			jf := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
			for _, e := range fix.TextEdits {
				p, q := u.fset.Position(e.Pos), u.fset.Position(e.End)
				if !e.End.IsValid() {
					q = p
				}
				jf.Edits = append(jf.Edits, jsonEdit{Filename: p.Filename, Start: p.Offset, End: q.Offset, New: string(e.NewText)})
			}
			jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
		}
		for _, rel := range d.Related {
			jr := jsonRelated{Message: rel.Message}
			jr.Posn, jr.End = posn(rel.Pos, rel.End)
			jd.Related = append(jd.Related, jr)
		}
		out = append(out, jd)
	}
	return out
}

// applyFixes applies the first suggested fix of every diagnostic, writing
// the files in place or, when the go command asks for it, into its fix
// archive. Edits that overlap an edit already taken are left out and
// counted, so the user can run again.
func (u *unit) applyFixes(results []*result) int {
	type edit struct {
		start, end int
		text       []byte
	}
	byFile := make(map[string][]edit)
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(u.stderr, "ccvet: %v\n", r.err)
			return 1
		}
		for _, d := range r.diags {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			for _, e := range d.SuggestedFixes[0].TextEdits {
				p := u.fset.Position(e.Pos)
				end := p.Offset
				if e.End.IsValid() {
					end = u.fset.Position(e.End).Offset
				}
				byFile[p.Filename] = append(byFile[p.Filename], edit{p.Offset, end, e.NewText})
			}
		}
	}
	names := make([]string, 0, len(byFile))
	for name := range byFile {
		names = append(names, name)
	}
	slices.Sort(names)
	var zw *zip.Writer
	if u.cfg.FixArchive != "" {
		f, err := os.Create(u.cfg.FixArchive)
		if err != nil {
			fmt.Fprintf(u.stderr, "ccvet: can't create -fix archive: %v\n", err)
			return 1
		}
		defer f.Close()
		zw = zip.NewWriter(f)
		zw.SetComment(u.cfg.ID)
		defer zw.Close()
	}
	skipped := 0
	for _, name := range names {
		edits := byFile[name]
		slices.SortStableFunc(edits, func(a, b edit) int { return a.start - b.start })
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
			return 1
		}
		var out bytes.Buffer
		last := 0
		for _, e := range edits {
			if e.start < last || e.end > len(src) || e.start > e.end {
				skipped++
				continue
			}
			out.Write(src[last:e.start])
			out.Write(e.text)
			last = e.end
		}
		out.Write(src[last:])
		if zw != nil {
			w, err := zw.Create(name)
			if err == nil {
				_, err = w.Write(out.Bytes())
			}
			if err != nil {
				fmt.Fprintf(u.stderr, "ccvet: writing -fix archive: %v\n", err)
				return 1
			}
		} else if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
			fmt.Fprintf(u.stderr, "ccvet: %v\n", err)
			return 1
		}
	}
	if skipped > 0 {
		fmt.Fprintf(u.stderr, "ccvet: %d overlapping edit(s) of package %s not applied; run again\n", skipped, u.cfg.ImportPath)
		return 1
	}
	return 0
}

// usesFacts reports whether a or an analyzer it requires has facts.
func usesFacts(a *analysis.Analyzer) bool {
	for b := range closure([]*analysis.Analyzer{a}) {
		if len(b.FactTypes) > 0 {
			return true
		}
	}
	return false
}

// closure is the set of analyzers and everything they require.
func closure(analyzers []*analysis.Analyzer) map[*analysis.Analyzer]bool {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func([]*analysis.Analyzer)
	visit = func(as []*analysis.Analyzer) {
		for _, a := range as {
			if !seen[a] {
				seen[a] = true
				visit(a.Requires)
			}
		}
	}
	visit(analyzers)
	return seen
}

// describeFlags answers the go command's -flags query: the flags a user
// may pass through go vet, in JSON.
func describeFlags(fs *flag.FlagSet, stdout, stderr io.Writer) int {
	type jsonFlag struct {
		Name  string
		Bool  bool
		Usage string
	}
	var flags []jsonFlag
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "fix" { // go fix's business, not go vet's
			return
		}
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		flags = append(flags, jsonFlag{f.Name, ok && b.IsBoolFlag(), f.Usage})
	})
	data, err := json.MarshalIndent(flags, "", "\t")
	if err != nil {
		fmt.Fprintf(stderr, "ccvet: %v\n", err)
		return 1
	}
	stdout.Write(data)
	return 0
}

// printVersion answers the go command's -V=full query. The go command
// keys its cache of vet results on the line, so it names the executable's
// content: a rebuilt ccvet invalidates the results of the old one.
func printVersion(stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "ccvet: %v\n", err)
		return 1
	}
	f, err := os.Open(exe)
	if err != nil {
		fmt.Fprintf(stderr, "ccvet: %v\n", err)
		return 1
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		fmt.Fprintf(stderr, "ccvet: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s version devel comments-go-here buildID=%02x\n", exe, h.Sum(nil))
	return 0
}

// versionFlag is -V: a boolean-looking flag whose only accepted value is
// "full".
type versionFlag struct {
	set   bool
	value string
}

func (*versionFlag) IsBoolFlag() bool { return true }
func (v *versionFlag) String() string { return v.value }
func (v *versionFlag) Set(s string) error {
	v.set, v.value = true, s
	return nil
}
