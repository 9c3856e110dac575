package tagflow2_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestTermsWrittenThroughSetters guards the copy on write of state.terms:
// states cloned from one another share the map until one writes it, so a
// write that bypasses setTerm or delTerm would change every state sharing
// it.
func TestTermsWrittenThroughSetters(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"setTerm": true, "delTerm": true, "ownTerms": true}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || allowed[fd.Name.Name] {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for _, lhs := range n.Lhs {
						if ix, ok := lhs.(*ast.IndexExpr); ok && isTerms(ix.X) {
							t.Errorf("%s: %s writes terms directly: use setTerm", fset.Position(n.Pos()), fd.Name.Name)
						}
					}
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "delete" || id.Name == "clear") && len(n.Args) > 0 && isTerms(n.Args[0]) {
						t.Errorf("%s: %s deletes from terms directly: use delTerm", fset.Position(n.Pos()), fd.Name.Name)
					}
				}
				return true
			})
		}
	}
}

func isTerms(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "terms"
}
