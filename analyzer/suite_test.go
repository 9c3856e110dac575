package analyzer_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/testenv"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestNames checks that the suite and the names //sync:ignore accepts
// agree, and that the suite is valid for every driver.
func TestNames(t *testing.T) {
	var names []string
	for _, a := range analyzer.Suite {
		names = append(names, a.Name)
		if a.URL == "" || a.Doc == "" {
			t.Errorf("%s: missing Doc or URL", a.Name)
		}
	}
	if !slices.Equal(names, annotations.AnalyzerNames) {
		t.Errorf("suite %v, //sync:ignore names %v", names, annotations.AnalyzerNames)
	}
	if err := analysis.Validate(analyzer.Suite); err != nil {
		t.Error(err)
	}
}

// TestStdlib runs the whole suite over a large slice of the standard
// library: no panic, no error, no diagnostic on un-annotated code.
func TestStdlib(t *testing.T) {
	testenv.SkipUnlessSlow(t, "analyses the whole standard library")
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "std")
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(analyzer.Suite, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for act := range graph.All() {
		n++
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			t.Errorf("%s: %s: %s", act, act.Package.Fset.Position(d.Pos), d.Message)
		}
	}
	t.Logf("%d packages, %d actions", len(pkgs), n)
}

// TestStdlibAnnotated runs the suite over standard library packages whose
// loops, struct types and functions have been given directives (through an
// overlay, in memory): most cannot resolve, which exercises every error
// path of the resolver on real code. It checks only that nothing panics
// and no analysis fails.
func TestStdlibAnnotated(t *testing.T) {
	testenv.SkipUnlessSlow(t, "analyses much of the standard library, annotated")
	patterns := []string{"go/...", "net/http", "encoding/...", "text/template/...", "sync/...", "container/..."}
	listed, err := packages.Load(&packages.Config{Mode: packages.NeedFiles}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	overlay := make(map[string][]byte)
	for _, p := range listed {
		for _, name := range p.GoFiles {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			overlay[name] = annotate(t, name, src)
			if d := os.Getenv("CCVET_DUMP"); d != "" {
				os.WriteFile(filepath.Join(d, filepath.Base(name)), overlay[name], 0o644)
			}
		}
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Overlay: overlay}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(analyzer.Suite, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	diags := 0
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		diags += len(act.Diagnostics)
		if os.Getenv("CCVET_DUMP") != "" {
			for _, d := range act.Diagnostics {
				t.Logf("%s: %s", act.Package.Fset.Position(d.Pos), d.Message)
			}
		}
	}
	if diags == 0 {
		t.Fatal("no diagnostic at all: the directives were not seen")
	}
	t.Logf("%d packages, %d files annotated, %d diagnostics", len(pkgs), len(overlay), diags)
}

// annotate inserts a //sync:tag line above each for statement, a
// //sync:msg above each struct type and a //sync:send above each function.
// The variables named are common loop variables, so some resolve.
func annotate(t *testing.T, name string, src []byte) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	insert := make(map[int]string) // line -> directive
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			insert[fset.Position(n.Pos()).Line] = "//sync:tag i,n"
		case *ast.GenDecl:
			if len(n.Specs) == 1 {
				if ts, ok := n.Specs[0].(*ast.TypeSpec); ok {
					if _, ok := ts.Type.(*ast.StructType); ok {
						insert[fset.Position(n.Pos()).Line] = "//sync:msg _,_"
					}
				}
			}
		case *ast.FuncDecl:
			insert[fset.Position(n.Pos()).Line] = "//sync:send"
		}
		return true
	})
	lines := strings.SplitAfter(string(src), "\n")
	var b strings.Builder
	for i, l := range lines {
		if d, ok := insert[i+1]; ok {
			b.WriteString(d + "\n")
		}
		b.WriteString(l)
	}
	return []byte(b.String())
}
