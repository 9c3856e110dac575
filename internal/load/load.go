// Package load loads packages with go/packages for ccvet's commands that
// run outside go vet: the standalone driver (and the language server
// through it) and make-HO. They load alike, so that a package that one of
// them refuses is refused by the other with the same message.
//
// # What is loaded from source
//
// The packages named by the patterns are parsed and type-checked from
// source; their dependencies come from the export data that the go
// command compiles (go list -export), as under go vet, rather than from
// source: the analyzers look at the syntax of the packages they analyse
// only, and type-checking the standard library from source took most of
// the time of a run. One kind of dependency still needs its syntax: a
// package with //sync: directives, whose message types and communication
// functions reach the packages that import it as analysis facts. The
// first load finds them (a byte search of their files for "//sync:") and
// a second load adds them to the packages loaded from source; go/packages
// then also loads from source every package on an import path from a root
// to one of them, so that all packages share one view of their types.
//
// Overlays (unsaved editor buffers, make-HO's blanked generated files)
// are applied when the files are parsed, so that the go command's export
// data stays usable, if the go command would see the same files and
// imports: every overlaid file exists on disk, has the same package
// clause and build constraints, imports nothing that the file on disk
// does not, and the imports that it drops load without errors. A
// dependency with an overlaid file that differs from the disk
// is loaded from source, like one with directives. Any other overlay is
// handed to the go command, and then go/packages loads every package from
// source (slower, but it sees the new file set and imports).
package load

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Options say what to load.
type Options struct {
	Patterns []string          // package patterns, as for go list
	Dir      string            // directory to load from; "" means the current one
	Env      []string          // environment of the go command; nil means os.Environ()
	Tests    bool              // also load test packages
	Tags     string            // comma-separated build tags
	Overlay  map[string][]byte // file contents that replace those on disk, by absolute path
}

// config is the go/packages configuration of opts for mode.
func config(mode packages.LoadMode, opts Options) *packages.Config {
	cfg := &packages.Config{Mode: mode, Dir: opts.Dir, Env: opts.Env, Tests: opts.Tests, Overlay: opts.Overlay}
	if opts.Tags != "" {
		cfg.BuildFlags = []string{"-tags=" + opts.Tags}
	}
	return cfg
}

// Packages loads the packages of opts with the given mode. It returns an
// error when the go command fails, or when the patterns match no package.
func Packages(mode packages.LoadMode, opts Options) ([]*packages.Package, error) {
	return loadConfig(config(mode, opts), opts.Patterns)
}

func loadConfig(cfg *packages.Config, patterns []string) ([]*packages.Package, error) {
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages matched %s", strings.Join(patterns, " "))
	}
	return pkgs, nil
}

// Checked loads the packages of opts with their syntax and types, as the
// analyzers need them, and their dependencies' types (see the package
// documentation for which come from source). It sets aside the packages
// that fail to load or type-check: good are the others, and errs has one
// line per error of those set aside, so that a command reports them and
// still analyses the rest. It returns an error only when nothing could be
// loaded at all.
func Checked(opts Options) (good []*packages.Package, errs []string, err error) {
	pkgs, changed, err := sourceLoad(opts)
	if err != nil {
		return nil, nil, err
	}
	settle(pkgs, changed)
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			for _, e := range p.Errors {
				errs = append(errs, e.Error())
			}
			continue
		}
		good = append(good, p)
	}
	return good, errs, nil
}

// settle removes from the packages of the graph of roots the compiler's
// reports that withoutCompilerOutput drops, and clears IllTyped (which
// stops the analyzers) on a package that then has no error left, in it
// or in its dependencies.
func settle(roots []*packages.Package, changed map[string]bool) {
	packages.Visit(roots, nil, func(p *packages.Package) {
		if errs := withoutCompilerOutput(p, changed); len(errs) != len(p.Errors) {
			p.Errors = errs
		} else if !p.IllTyped || len(p.Errors) > 0 {
			return
		}
		p.IllTyped = len(p.Errors) > 0
		for _, ip := range p.Imports {
			p.IllTyped = p.IllTyped || ip.IllTyped
		}
	})
}

// sourceLoad loads the packages of opts from source and their
// dependencies from export data, except those that must come from source.
// changed holds the overlaid files that it applied at parse time.
func sourceLoad(opts Options) (pkgs []*packages.Package, changed map[string]bool, err error) {
	cfg := config(packages.LoadSyntax, opts)
	changed, dropped, parsable := overlayAtParse(opts.Overlay)
	if parsable {
		cfg.Overlay = nil
		if len(changed) > 0 {
			cfg.ParseFile = overlayParser(opts.Overlay)
		}
	}
	pkgs, err = loadConfig(cfg, opts.Patterns)
	if err != nil {
		return nil, nil, err
	}
	if droppedBroken(pkgs, dropped) {
		// The go command must see the overlay after all.
		cfg = config(packages.LoadSyntax, opts)
		changed = nil
		if pkgs, err = loadConfig(cfg, opts.Patterns); err != nil {
			return nil, nil, err
		}
	}
	extra := sourceDeps(pkgs, changed)
	if len(extra) == 0 {
		return pkgs, changed, nil
	}
	roots := make(map[string]bool, len(pkgs))
	for _, p := range pkgs {
		roots[p.ID] = true
	}
	all, err := loadConfig(cfg, append(slices.Clip(opts.Patterns), extra...))
	if err != nil {
		return nil, nil, err
	}
	// The extra packages (and their tests) were loaded for their syntax
	// only: they are not analysed, and their errors are not reported.
	var out []*packages.Package
	for _, p := range all {
		if roots[p.ID] {
			out = append(out, p)
		}
	}
	if len(out) != len(roots) {
		return nil, nil, fmt.Errorf("internal error: %d of the %d packages of %s are missing when loaded with their annotated dependencies", len(roots)-len(out), len(roots), strings.Join(opts.Patterns, " "))
	}
	return out, changed, nil
}

// sourceDeps returns the import paths of the dependencies of roots that
// are not roots themselves and that must be loaded from source: those with
// //sync: directives, and those with a file in changed.
func sourceDeps(roots []*packages.Package, changed map[string]bool) []string {
	isRoot := make(map[*packages.Package]bool, len(roots))
	for _, p := range roots {
		isRoot[p] = true
	}
	paths := make(map[string]bool)
	packages.Visit(roots, nil, func(p *packages.Package) {
		if isRoot[p] || p.PkgPath == "unsafe" || paths[p.PkgPath] {
			return
		}
		for _, name := range p.CompiledGoFiles {
			if changed[filepath.Clean(name)] || hasDirective(name) {
				paths[p.PkgPath] = true
				return
			}
		}
	})
	out := make([]string, 0, len(paths))
	for path := range paths {
		out = append(out, path)
	}
	slices.Sort(out)
	return out
}

// directive starts every //sync: directive (annotations.Prefix; this
// package does not import annotations, which imports the analysis
// framework).
var directive = []byte("//sync:")

// hasDirective reports whether the file name may hold a //sync:
// directive. A file that cannot be read counts as one that may, so that
// its package is loaded from source and the error is reported there.
func hasDirective(name string) bool {
	b, err := os.ReadFile(name)
	return err != nil || bytes.Contains(b, directive)
}

// overlayAtParse reports whether overlay can be applied when files are
// parsed, without telling the go command, because the go command would
// list the same files and no import that is missing (see the package
// documentation and droppedBroken). changed holds the cleaned names of
// the overlaid files whose contents differ from the disk; dropped maps
// those of them to the import paths of their disk version that the
// overlay does not import.
func overlayAtParse(overlay map[string][]byte) (changed map[string]bool, dropped map[string][]string, ok bool) {
	changed = make(map[string]bool)
	dropped = make(map[string][]string)
	for name, src := range overlay {
		disk, err := os.ReadFile(name)
		if err != nil {
			return nil, nil, false
		}
		if bytes.Equal(disk, src) {
			continue
		}
		d, ok := sameHeader(name, disk, src)
		if !ok {
			return nil, nil, false
		}
		name = filepath.Clean(name)
		changed[name] = true
		if len(d) > 0 {
			dropped[name] = d
		}
	}
	return changed, dropped, true
}

// sameHeader reports whether the overlay src of the Go file name has the
// package clause and build constraints of disk, the file on disk, and
// imports no package that disk does not import; dropped are the import
// paths of disk that src does not import. A file that does not parse up
// to its imports, or that uses cgo, is not the same.
func sameHeader(name string, disk, src []byte) (dropped []string, ok bool) {
	if filepath.Ext(name) != ".go" {
		return nil, false
	}
	fset := token.NewFileSet()
	d, err := parser.ParseFile(fset, name, disk, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, false
	}
	s, err := parser.ParseFile(fset, name, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, false
	}
	if d.Name.Name != s.Name.Name || !slices.Equal(constraints(d), constraints(s)) {
		return nil, false
	}
	inSrc := make(map[string]bool)
	for _, im := range s.Imports {
		path, err := strconv.Unquote(im.Path.Value)
		if err != nil || path == "C" {
			return nil, false
		}
		inSrc[path] = true
	}
	onDisk := make(map[string]bool)
	for _, im := range d.Imports {
		path, err := strconv.Unquote(im.Path.Value)
		if err != nil || path == "C" {
			return nil, false
		}
		onDisk[path] = true
		if !inSrc[path] && !slices.Contains(dropped, path) {
			dropped = append(dropped, path)
		}
	}
	for path := range inSrc {
		if !onDisk[path] {
			return nil, false
		}
	}
	return dropped, true
}

// droppedBroken reports whether a package of the graph of roots imports, in
// the disk's version of an overlaid file only (dropped, as returned by
// overlayAtParse), a package that does not load. The go command listed
// that import, which the overlay removes: make-HO's blanked generated
// files drop the import of compho, which a GOPATH tree may not have.
func droppedBroken(roots []*packages.Package, dropped map[string][]string) bool {
	if len(dropped) == 0 {
		return false
	}
	broken := false
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, name := range p.CompiledGoFiles {
			for _, path := range dropped[filepath.Clean(name)] {
				if ip := p.Imports[path]; ip == nil || len(ip.Errors) > 0 || ip.IllTyped {
					broken = true
				}
			}
		}
	})
	return broken
}

// constraints returns the //go:build and // +build lines before the
// package clause of f.
func constraints(f *ast.File) []string {
	var out []string
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") || strings.HasPrefix(c.Text, "// +build") {
				out = append(out, strings.TrimSpace(c.Text))
			}
		}
	}
	return out
}

// overlayParser returns a go/packages ParseFile function that parses the
// overlay's contents of the files it has, and the disk's of the others,
// in the mode of go/packages' own parser.
func overlayParser(overlay map[string][]byte) func(*token.FileSet, string, []byte) (*ast.File, error) {
	clean := make(map[string][]byte, len(overlay))
	for name, src := range overlay {
		clean[filepath.Clean(name)] = src
	}
	return func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
		if o, ok := clean[filepath.Clean(name)]; ok {
			src = o
		}
		return parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments)
	}
}

// withoutCompilerOutput returns the errors of p without the go command's
// report that compiling p failed ("# path" and the compiler's messages)
// when it says nothing that the type checker does not: go list -export
// compiles every package for its export data, and the compiler repeats
// the errors that the type checker reports with full positions. When p
// has a file of changed (an overlay applied at parse time), the compiler
// read the disk's version: its report is dropped if the overlay's text
// type-checks. Other reports, such as cgo's, are kept.
func withoutCompilerOutput(p *packages.Package, changed map[string]bool) []packages.Error {
	var checked []packages.Error
	for _, e := range p.Errors {
		if e.Kind == packages.TypeError || e.Kind == packages.ParseError {
			checked = append(checked, e)
		}
	}
	overlaid := slices.ContainsFunc(p.CompiledGoFiles, func(name string) bool { return changed[filepath.Clean(name)] })
	return slices.DeleteFunc(slices.Clone(p.Errors), func(e packages.Error) bool {
		if e.Kind != packages.ListError || !strings.HasPrefix(e.Msg, "# ") {
			return false
		}
		return overlaid && len(checked) == 0 || repeats(e.Msg, checked)
	})
}

// repeats reports whether every error line of the compiler's output out
// ("file:line:col: message", after the "# path" line) is the first line
// of one of the checked errors, at the same position.
func repeats(out string, checked []packages.Error) bool {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")[1:]
	if len(lines) == 0 {
		return false
	}
	for _, line := range lines {
		if strings.HasPrefix(line, "\t") || line == "too many errors" {
			continue // the rest of a message, or the compiler giving up
		}
		if !slices.ContainsFunc(checked, func(e packages.Error) bool { return sameError(line, e) }) {
			return false
		}
	}
	return true
}

// sameError reports whether the compiler's error line is e: the same file
// (the compiler's name is relative), line, column and first line of the
// message.
func sameError(line string, e packages.Error) bool {
	msg, _, _ := strings.Cut(e.Msg, "\n")
	pos, ok := strings.CutSuffix(line, ": "+msg)
	if !ok || pos == "" {
		return false
	}
	pos = strings.TrimPrefix(filepath.ToSlash(pos), "./")
	epos := filepath.ToSlash(e.Pos)
	return epos == pos || strings.HasSuffix(epos, "/"+pos)
}
