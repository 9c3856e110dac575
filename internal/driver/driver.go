// Package driver implements the standalone ccvet command: it loads packages
// with go/packages, runs the analyzers with x/tools' checker, and prints
// the findings as text, JSON or SARIF.
//
// Why not honnef.co/go/tools/lintcmd: it hard-codes staticcheck's
// documentation URLs, drops diagnostics that set a Category, reads
// staticcheck.conf and understands only //lint:ignore. The checker package
// plus our own output gives the exact formats and exit codes we document,
// with the same analysis graph that go vet runs.
package driver

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/ccvet/ccvet/internal/load"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/selection"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// Exit codes of the standalone command.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // at least one diagnostic
	ExitError    = 2 // bad usage, or packages that failed to load or analyse
)

// Main runs the standalone command with args (without the program name)
// and returns its exit code.
func Main(suite []*analysis.Analyzer, args []string, stdout, stderr io.Writer) int {
	return MainAdvisory(suite, nil, args, stdout, stderr)
}

// MainAdvisory is [Main] with advisory analyzers besides the suite: each
// has its flag, but runs only when that flag is set to true.
func MainAdvisory(suite, advisory []*analysis.Analyzer, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ccvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print findings as a JSON array")
	sarifOut := fs.Bool("sarif", false, "print findings as a SARIF 2.1.0 log, for code scanning")
	tests := fs.Bool("test", true, "also analyse test files")
	tags := fs.String("tags", "", "comma-separated build tags")
	version := fs.Bool("version", false, "print the version and exit")
	verbose := fs.Bool("v", false, "also print, per tagged loop, what was checked and the verdict of each condition, then a total;\nwith -json, print {\"findings\": [...], \"loops\": [...], \"total\": {...}} instead of the array")
	selected := selection.Register(fs, suite, advisory)
	fs.Usage = func() {
		fmt.Fprintf(stderr, `ccvet checks that annotated protocol loops are communication-closed.

Usage:
`)
		for _, c := range Commands {
			fmt.Fprintf(stderr, "  %-42s %s\n", c[0], c[1])
		}
		fmt.Fprintf(stderr, `
Exit status: 0 no findings, 1 findings, 2 errors.

Flags of ccvet [flags] [packages]:
`)
		fs.PrintDefaults()
	}
	if len(args) > 0 && args[0] == "help" {
		return help(append(slices.Clip(suite), advisory...), args[1:], stdout, stderr)
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitClean
		}
		return ExitError
	}
	if *version {
		fmt.Fprintln(stdout, "ccvet", Version())
		return ExitClean
	}
	if *jsonOut && *sarifOut {
		fmt.Fprintln(stderr, "ccvet: -json and -sarif are mutually exclusive: choose one output format")
		return ExitError
	}
	if *verbose && *sarifOut {
		fmt.Fprintln(stderr, "ccvet: -v has no SARIF form: use it with the text or -json output")
		return ExitError
	}
	analyzers := selected.Selected()
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}

	res, err := Analyze(Options{Analyzers: analyzers, Patterns: patterns, Tests: *tests, Tags: *tags, Summary: *verbose})
	if err != nil {
		fmt.Fprintf(stderr, "ccvet: %v\n", err)
		return ExitError
	}
	exit := ExitClean
	for _, e := range res.Errors {
		fmt.Fprintln(stderr, e)
		exit = ExitError
	}
	findings := res.Findings
	switch {
	case *sarifOut:
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "ccvet: %v\n", err)
			return ExitError
		}
		if err := WriteSARIF(stdout, res, analyzers, wd); err != nil {
			fmt.Fprintf(stderr, "ccvet: %v\n", err)
			return ExitError
		}
	case *jsonOut:
		if findings == nil {
			findings = []Finding{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		var out any = findings
		if *verbose {
			// An object, so that the findings array keeps its shape
			// under a name of its own.
			out = verboseJSON{Findings: findings, Loops: nonNilLoops(res.Loops), Total: total(res.Loops, directiveCount(findings))}
		}
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "ccvet: %v\n", err)
			return ExitError
		}
	default:
		for _, f := range findings {
			fmt.Fprintf(stdout, "%s: %s (%s)\n", f.Posn, f.Message, f.Analyzer)
			for _, r := range f.Related {
				fmt.Fprintf(stdout, "\t%s: %s\n", r.Posn, r.Message)
			}
		}
		if *verbose {
			if len(findings) > 0 {
				fmt.Fprintln(stdout)
			}
			writeSummary(stdout, res.Loops, total(res.Loops, directiveCount(findings)))
		}
	}
	if exit == ExitClean && len(findings) > 0 {
		exit = ExitFindings
	}
	return exit
}

// Commands are the forms of the ccvet command that ccvet -h lists, with
// what each does. cmd/ccvet dispatches the subcommands before the driver
// sees its arguments; a new subcommand gets its line here.
var Commands = [][2]string{
	{"ccvet [flags] [packages]", "analyse packages (default ./...); flags below"},
	{"ccvet help [analyzer]", "list the analyzers, or print one's rules in full"},
	{"ccvet makeho [-o dir] [-check] [packages]", "generate the round-based model of each proved loop (ccvet makeho -h)"},
	{"ccvet lsp [flags]", "run a language server for editors (ccvet lsp -h)"},
	{"ccvet explore [-run regexp] [packages]", "run the explorations a package declares (ccvet explore -h, docs/explore.md)"},
	{"go vet -vettool=$(which ccvet) [packages]", "run ccvet inside go vet (the same analyzer flags)"},
}

// Options say what one analysis run loads and runs.
type Options struct {
	Analyzers []*analysis.Analyzer
	Patterns  []string          // package patterns, as for go list
	Dir       string            // directory to load from; "" means the current one
	Tests     bool              // also analyse test packages
	Tags      string            // comma-separated build tags
	Overlay   map[string][]byte // file contents that replace those on disk, by absolute path
	// Summary asks for Result.Loops, the summary of every tagged loop.
	Summary bool
}

// A Result is what one analysis run found.
type Result struct {
	Findings []Finding // sorted, deduplicated
	// Suppressed are the findings that a //sync:ignore directive
	// suppressed, sorted and deduplicated. They are not findings: the text
	// and -json outputs leave them out, and SARIF lists them with a
	// suppression.
	Suppressed []Suppressed
	Errors     []string // packages that failed to load or analyse, one line each
	// Loops summarise every tagged loop analysed: what was checked, and
	// the verdict of each selected condition analyzer (-v).
	Loops []LoopSummary
}

// verboseJSON is the -json output under -v.
type verboseJSON struct {
	Findings []Finding     `json:"findings"`
	Loops    []LoopSummary `json:"loops"`
	Total    Total         `json:"total"`
}

func nonNilLoops(l []LoopSummary) []LoopSummary {
	if l == nil {
		return []LoopSummary{}
	}
	return l
}

// directiveCount counts the syncdirective findings.
func directiveCount(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if f.Analyzer == "syncdirective" {
			n++
		}
	}
	return n
}

// A Suppressed is a finding that a //sync:ignore directive suppressed.
type Suppressed struct {
	Finding
	// Reason is the justification the //sync:ignore gives.
	Reason string
	// Ignore is the position of the //sync:ignore comment; its Message is
	// the comment's text.
	Ignore Related
}

// Analyze loads the packages of opts and runs its analyzers on them. It
// returns an error only when nothing could be loaded at all; problems of
// single packages are in Result.Errors, and the other packages are still
// analysed.
func Analyze(opts Options) (*Result, error) {
	good, errs, err := load.Checked(load.Options{
		Patterns: opts.Patterns,
		Dir:      opts.Dir,
		Tests:    opts.Tests,
		Tags:     opts.Tags,
		Overlay:  opts.Overlay,
	})
	if err != nil {
		return nil, err
	}
	res := &Result{Errors: errs}
	if len(good) > 0 {
		analyzers := opts.Analyzers
		if opts.Summary {
			// Only the results of roots are kept: the loops' dataflow
			// must be one to be summarised. It reports nothing.
			analyzers = append(slices.Clip(analyzers), tagflow.Analyzer)
		}
		graph, err := checker.Analyze(analyzers, good, nil)
		if err != nil {
			return nil, err
		}
		for act := range graph.All() {
			if !act.IsRoot {
				continue
			}
			if act.Err != nil {
				res.Errors = append(res.Errors, fmt.Sprintf("ccvet: %s: %v", act, act.Err))
				continue
			}
			fset := act.Package.Fset
			for _, d := range act.Diagnostics {
				res.Findings = append(res.Findings, newFinding(fset, act.Analyzer, d))
			}
			if used, ok := act.Result.(*report.Used); ok {
				for _, s := range used.Suppressed {
					ig := s.Ignore
					res.Suppressed = append(res.Suppressed, Suppressed{
						Finding: newFinding(fset, act.Analyzer, s.Diagnostic),
						Reason:  ig.Reason,
						Ignore:  newRelated(fset, ig.Pos(), ig.Directive.Comment.Text),
					})
				}
			}
		}
		if opts.Summary {
			res.Loops = summarize(graph)
		}
	}
	res.Findings = dedupe(res.Findings)
	res.Suppressed = dedupeSuppressed(res.Suppressed)
	return res, nil
}

// A Finding is one diagnostic as printed by the command; -json prints a
// list of them.
type Finding struct {
	Analyzer string    `json:"analyzer"`
	Posn     string    `json:"posn"` // file:line:col
	Path     string    `json:"-"`    // absolute file name, for editors
	File     string    `json:"file"` // file name relative to the working directory when below it
	Line     int       `json:"line"`
	Column   int       `json:"column"`
	End      *Position `json:"end,omitempty"`
	Message  string    `json:"message"`
	Category string    `json:"category,omitempty"`
	URL      string    `json:"url,omitempty"`
	Related  []Related `json:"related,omitempty"`
	Fixes    []Fix     `json:"fixes,omitempty"`
}

// A Fix is a suggested fix of a finding: edits that together resolve it.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// An Edit of a Fix replaces the text from Start to End (exclusive) of a
// file with New; Start equals End for an insertion.
type Edit struct {
	Path  string   `json:"-"`    // absolute file name
	File  string   `json:"file"` // relative to the working directory when below it
	Start Position `json:"start"`
	End   Position `json:"end"`
	New   string   `json:"new"`
}

// A Position is a line and column in Finding.File.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Related is a secondary position of a finding, such as where a
// synchronization variable was last set.
type Related struct {
	Posn    string `json:"posn"`
	Path    string `json:"-"` // absolute file name
	Line    int    `json:"-"`
	Column  int    `json:"-"`
	Message string `json:"message"`
}

func newFinding(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic) Finding {
	p := fset.Position(d.Pos)
	f := Finding{
		Analyzer: a.Name,
		Path:     p.Filename,
		File:     relPath(p.Filename),
		Line:     p.Line,
		Column:   p.Column,
		Message:  d.Message,
		Category: d.Category,
		URL:      d.URL,
	}
	f.Posn = fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
	if d.End.IsValid() && d.End > d.Pos {
		e := fset.Position(d.End)
		f.End = &Position{Line: e.Line, Column: e.Column}
	}
	if f.URL == "" {
		f.URL = a.URL
	}
	for _, r := range d.Related {
		f.Related = append(f.Related, newRelated(fset, r.Pos, r.Message))
	}
	for _, sf := range d.SuggestedFixes {
		fix := Fix{Message: sf.Message}
		for _, te := range sf.TextEdits {
			start := fset.Position(te.Pos)
			end := start
			if te.End.IsValid() {
				end = fset.Position(te.End)
			}
			fix.Edits = append(fix.Edits, Edit{
				Path:  start.Filename,
				File:  relPath(start.Filename),
				Start: Position{Line: start.Line, Column: start.Column},
				End:   Position{Line: end.Line, Column: end.Column},
				New:   string(te.NewText),
			})
		}
		f.Fixes = append(f.Fixes, fix)
	}
	return f
}

func newRelated(fset *token.FileSet, pos token.Pos, msg string) Related {
	p := fset.Position(pos)
	return Related{
		Posn:    fmt.Sprintf("%s:%d:%d", relPath(p.Filename), p.Line, p.Column),
		Path:    p.Filename,
		Line:    p.Line,
		Column:  p.Column,
		Message: msg,
	}
}

// relPath shortens absolute paths below the working directory, as the go
// command does.
func relPath(name string) string {
	wd, err := os.Getwd()
	if err != nil {
		return name
	}
	if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return name
}

// dedupe sorts findings and drops the copies that come from analysing a
// package both alone and with its tests.
func dedupe(fs []Finding) []Finding {
	sort.SliceStable(fs, func(i, j int) bool { return lessFinding(&fs[i], &fs[j]) })
	out := fs[:0]
	for i := range fs {
		if i > 0 && sameFinding(&fs[i], &fs[i-1]) {
			continue
		}
		out = append(out, fs[i])
	}
	return out
}

// dedupeSuppressed is dedupe for suppressed findings.
func dedupeSuppressed(ss []Suppressed) []Suppressed {
	sort.SliceStable(ss, func(i, j int) bool { return lessFinding(&ss[i].Finding, &ss[j].Finding) })
	out := ss[:0]
	for i := range ss {
		if i > 0 && sameFinding(&ss[i].Finding, &ss[i-1].Finding) {
			continue
		}
		out = append(out, ss[i])
	}
	return out
}

// lessFinding orders findings by file, line, column, analyzer and message.
func lessFinding(a, b *Finding) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	if a.Analyzer != b.Analyzer {
		return a.Analyzer < b.Analyzer
	}
	return a.Message < b.Message
}

func sameFinding(a, b *Finding) bool {
	return a.Posn == b.Posn && a.Analyzer == b.Analyzer && a.Message == b.Message
}

func help(suite []*analysis.Analyzer, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stdout, "ccvet analyzers (run 'ccvet help NAME' for details):")
		fmt.Fprintln(stdout)
		for _, a := range suite {
			title, _, _ := strings.Cut(a.Doc, "\n")
			fmt.Fprintf(stdout, "  %-14s %s\n", a.Name, title)
		}
		return ExitClean
	}
	status := ExitClean
	for _, name := range args {
		found := false
		for _, a := range suite {
			if a.Name == name {
				found = true
				fmt.Fprintf(stdout, "%s: %s\n\n%s\n", a.Name, a.Doc, a.URL)
			}
		}
		if !found {
			fmt.Fprintf(stderr, "ccvet: unknown analyzer %q\n", name)
			status = ExitError
		}
	}
	return status
}

// Version is the module version ccvet was built from, or "devel".
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
