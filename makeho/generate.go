package makeho

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// A refusal is why one loop gets no machine.
type refusal struct {
	pos token.Pos
	msg string
}

func (r *refusal) Error() string { return r.msg }

func refuse(pos token.Pos, format string, args ...any) *refusal {
	return &refusal{pos, fmt.Sprintf(format, args...)}
}

// generate builds the machines of the package's loops into files, and
// records why the others got none.
func (u *unit) generate(res *Result, findings []finding, opts Options, files map[string]*File) {
	outDir := opts.OutDir
	u.handlerNote(res)
	fset := u.pass.Fset
	diag := func(pos token.Pos, msg string) {
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Posn: fset.Position(pos), Message: msg})
	}
	// Machines per source file, in loop order.
	byFile := make(map[*ast.File][]machineSrc)
	var fileOrder []*ast.File
	used := make(map[string]bool) // machine type names taken in this package
	for _, loop := range u.ann.Loops {
		fn, ok := loop.Func.(*ast.FuncDecl)
		if !ok {
			diag(loop.Pos(), "not supported yet: a tagged loop in a function literal (make-HO needs a named function or method)")
			continue
		}
		name := annotations.FuncName(fn)
		if fs := findingsOf(findings, fset, fn, u.ann.Loops); len(fs) > 0 {
			f := fs[0]
			diag(loop.Pos(), fmt.Sprintf("loop of %s is not proven communication-closed: ccvet reports %d finding(s) (first: %s: %s (%s)); make-HO needs a clean loop",
				name, len(fs), relPosn(fset.Position(f.pos)), f.message, f.analyzer))
			continue
		}
		file := fileOf(u.pass.Files, fset, loop.Pos())
		g := &loopGen{u: u, loop: loop, fn: fn, file: file, taken: used}
		code, imps, err := g.run()
		if err != nil {
			r, ok := err.(*refusal)
			if !ok {
				r = &refusal{loop.Pos(), "internal error: " + err.Error()}
			}
			if r.pos == token.NoPos {
				r.pos = loop.Pos()
			}
			diag(r.pos, r.msg)
			continue
		}
		if byFile[file] == nil {
			fileOrder = append(fileOrder, file)
		}
		var dt string
		if opts.DiffTest {
			var why string
			if dt, why = g.diffTest(); why != "" {
				res.Notes = append(res.Notes, Diagnostic{Posn: fset.Position(loop.Pos()), Message: "no differential test for " + name + ": " + why})
			}
		}
		byFile[file] = append(byFile[file], machineSrc{name, code, imps, dt})
	}
	for _, file := range fileOrder {
		src := fset.File(file.Pos()).Name()
		path := strings.TrimSuffix(src, ".go") + Suffix
		if outDir != "" {
			path = filepath.Join(outDir, filepath.Base(path))
		}
		var body bytes.Buffer
		imps := map[string]string{comphoPath: "compho"}
		var loops []string
		for _, m := range byFile[file] {
			body.Write(m.code)
			body.WriteString("\n")
			for p, n := range m.imps {
				imps[p] = n
			}
			loops = append(loops, m.loop)
		}
		content, err := assemble(file.Name.Name, filepath.Base(src), imps, body.Bytes())
		if err != nil {
			diag(file.Pos(), "internal error: the generated code does not parse: "+err.Error())
			continue
		}
		// Keyed by source file: with -o, sources of two packages may map
		// to one path, which Main refuses (duplicatePaths).
		files[src] = &File{Path: path, Content: content, Loops: loops}
		if opts.DiffTest {
			u.diffFile(res, file, src, path, byFile[file], imps, files)
		}
	}
}

// diffFile adds the file of the differential tests of the machines ms of
// file, if any.
func (u *unit) diffFile(res *Result, file *ast.File, src, path string, ms []machineSrc, imps map[string]string, files map[string]*File) {
	var body bytes.Buffer
	var loops []string
	for _, m := range ms {
		if m.diff != "" {
			body.WriteString(m.diff)
			loops = append(loops, m.loop)
		}
	}
	if body.Len() == 0 {
		return
	}
	all := map[string]string{"cmp": "cmp", "context": "context", "fmt": "fmt", "testing": "testing", "time": "time", comphoPath + "/lockstep": "lockstep"}
	for p, n := range imps {
		all[p] = n
	}
	content, err := assemble(file.Name.Name, filepath.Base(src), all, body.Bytes())
	if err != nil {
		res.Notes = append(res.Notes, Diagnostic{Posn: u.pass.Fset.Position(file.Pos()), Message: "internal error: the differential test does not parse: " + err.Error()})
		return
	}
	content = bytes.Replace(content, []byte("// Round-based (CompHO) machines of the tagged loops of"), []byte("// Differential tests of the round-based (CompHO) machines of the tagged loops of"), 1)
	// testing/synctest needs the timers of Go 1.23, which a module of an
	// older go version (or GOPATH mode) does not have by default.
	content = append([]byte("//go:debug asynctimerchan=0\n\n"), content...)
	files[src+DiffSuffix] = &File{Path: strings.TrimSuffix(path, Suffix) + DiffSuffix, Content: content, Loops: loops}
}

const comphoPath = "github.com/ccvet/ccvet/compho"

// A machineSrc is the generated code of one loop.
type machineSrc struct {
	loop string
	code []byte
	imps map[string]string
	diff string // its differential test (Options.DiffTest)
}

// findingsOf returns the findings that concern the loops of fn: those in
// fn, and those outside every function with a tagged loop (which make-HO
// cannot attribute, so they count against every loop).
func findingsOf(fs []finding, fset *token.FileSet, fn *ast.FuncDecl, loops []*annotations.Loop) []finding {
	var out []finding
	for _, f := range fs {
		if fn.Pos() <= f.pos && f.pos < fn.End() {
			out = append(out, f)
			continue
		}
		inLoopFunc := false
		for _, l := range loops {
			if l.Func.Pos() <= f.pos && f.pos < l.Func.End() {
				inLoopFunc = true
			}
		}
		if !inLoopFunc {
			out = append(out, f)
		}
	}
	return out
}

func fileOf(files []*ast.File, fset *token.FileSet, pos token.Pos) *ast.File {
	for _, f := range files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// assemble writes the generated file: header, package clause, the imports
// the code uses, the code; gofmt'd.
func assemble(pkg, src string, imps map[string]string, code []byte) ([]byte, error) {
	// Keep only the imports the code refers to: the rewriting drops
	// statements (timeouts) whose packages may then be unused.
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+string(code), parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	refs := make(map[string]bool)
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				refs[id.Name] = true
			}
		}
		return true
	})
	var paths []string
	for p, n := range imps {
		if refs[n] {
			paths = append(paths, p)
		}
	}
	// Standard library first, then the others, as goimports groups them.
	sort.Slice(paths, func(i, j int) bool {
		si, sj := isStd(paths[i]), isStd(paths[j])
		if si != sj {
			return si
		}
		return paths[i] < paths[j]
	})
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n\n// Round-based (CompHO) machines of the tagged loops of %s.\n\npackage %s\n\n", Header, src, pkg)
	if len(paths) > 0 {
		b.WriteString("import (\n")
		for i, p := range paths {
			if i > 0 && isStd(p) != isStd(paths[i-1]) {
				b.WriteString("\n")
			}
			if n := imps[p]; n != defaultName(p) {
				fmt.Fprintf(&b, "%s %q\n", n, p)
			} else {
				fmt.Fprintf(&b, "%q\n", p)
			}
		}
		b.WriteString(")\n\n")
	}
	b.Write(code)
	return format.Source(b.Bytes())
}

// isStd reports whether an import path is of the standard library (no
// dot in its first element). The corpus' GOPATH packages count as such.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// defaultName is the name an import path gets without an explicit name
// (the last element; good enough to decide whether to write the name).
func defaultName(path string) string {
	return path[strings.LastIndex(path, "/")+1:]
}

// fileContent reads the source of a file of the package.
func fileContent(fset *token.FileSet, f *ast.File) ([]byte, error) {
	return os.ReadFile(fset.File(f.Pos()).Name())
}

// zeroValue renders the zero value of t.
func zeroValue(t types.Type, q types.Qualifier) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		var lit string
		switch {
		case u.Info()&types.IsBoolean != 0:
			lit = "false"
		case u.Info()&types.IsString != 0:
			lit = `""`
		case u.Info()&types.IsNumeric != 0:
			lit = "0"
		default:
			return "nil"
		}
		if _, named := types.Unalias(t).(*types.Named); named {
			return types.TypeString(t, q) + "(" + lit + ")"
		}
		return lit
	case *types.Struct, *types.Array:
		return types.TypeString(t, q) + "{}"
	}
	return "nil"
}

// exported capitalizes the first letter of s.
func exported(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// quoteRange renders a position range for comments, as "file.go:12".
func lineOf(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// handlerNote notes a package of //sync:handler methods without tagged
// loops, which would otherwise get nothing, silently.
func (u *unit) handlerNote(res *Result) {
	if len(u.ann.Loops) > 0 {
		return
	}
	var first *types.Func
	n := 0
	for fn := range u.ann.Handlers {
		if fn.Pkg() != u.pass.Pkg {
			continue
		}
		n++
		if first == nil || fn.Pos() < first.Pos() {
			first = fn
		}
	}
	if first == nil {
		return
	}
	res.Notes = append(res.Notes, Diagnostic{Posn: u.pass.Fset.Position(first.Pos()), Message: fmt.Sprintf(
		"no machine for package %s: it has no //sync:tag loop, and make-HO does not translate its %d //sync:handler method(s) (handler style, the first %s); write the protocol as a loop tagged //sync:tag to get a machine",
		u.pass.Pkg.Name(), n, first.Name())})
}
