package synclex

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/analysisdoc"
	"github.com/ccvet/ccvet/internal/report"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docSource string

// doc is the analyzer's section of the package comment of doc.go.
var doc = analysisdoc.MustExtract(docSource, "synclex")

// Analyzer reports non-lexicographic comparisons of message tags.
var Analyzer = &analysis.Analyzer{
	Name:       "synclex",
	Doc:        doc,
	URL:        annotations.DocsURL + "#synclex",
	Requires:   []*analysis.Analyzer{annotations.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*report.Used](),
}

// A tag is the synchronization variables of one loop together with the
// fields that hold them.
type tag struct {
	vars   []*annotations.SyncVar
	fields []*types.Var // last field of each variable, nil for a plain variable
}

// A side is what one operand of a comparison denotes.
type side struct {
	msg  *annotations.Msg // non-nil for a message's component
	comp int              // component index
	proc bool             // the process's variable of component comp
}

func run(pass *analysis.Pass) (any, error) {
	ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
	rep := report.New(pass, ann)
	if len(ann.Loops) == 0 || len(ann.Msgs) == 0 {
		return rep.Used(), nil
	}
	var tags []tag
	for _, l := range ann.Loops {
		t := tag{vars: l.Vars}
		for _, v := range l.Vars {
			var f *types.Var
			if len(v.Fields) > 0 {
				f = v.Fields[len(v.Fields)-1]
			}
			t.fields = append(t.fields, f)
		}
		tags = append(tags, t)
	}
	decls := make(map[*types.Func]*ast.FuncDecl)
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	c := &checker{pass: pass, ann: ann, decls: decls}
	// Checked in source order, so that diagnostics do not depend on map
	// iteration.
	var fds []*ast.FuncDecl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				fds = append(fds, fd)
			}
		}
	}
	for _, t := range tags {
		c.tag = t
		for _, fd := range fds {
			c.checkFunc(rep, fd)
		}
	}
	return rep.Used(), nil
}

type checker struct {
	pass  *analysis.Pass
	ann   *annotations.Annotations
	decls map[*types.Func]*ast.FuncDecl
	tag   tag
	// recv is computed on the first candidate comparison.
	recv *received
}

// received reports whether the comparison e reads a received message.
func (c *checker) received(e *ast.BinaryExpr) bool {
	if c.recv == nil {
		c.recv = newReceived(c.pass, c.ann)
	}
	return c.recv.compares(e)
}

// checkFunc reports the non-lexicographic comparisons of fd's body.
func (c *checker) checkFunc(rep *report.Reporter, fd *ast.FuncDecl) {
	type cmp struct {
		e   *ast.BinaryExpr
		msg *annotations.Msg
		k   int
	}
	var ordered []cmp
	equal := make(map[*annotations.Msg]map[int]bool)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok {
			return true
		}
		x, y := c.side(b.X), c.side(b.Y)
		if x.msg == nil {
			x, y = y, x
		}
		if x.msg == nil || !y.proc || x.comp != y.comp {
			return true
		}
		switch b.Op {
		case token.EQL, token.NEQ:
			if equal[x.msg] == nil {
				equal[x.msg] = make(map[int]bool)
			}
			equal[x.msg][x.comp] = true
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			if x.comp > 0 {
				ordered = append(ordered, cmp{b, x.msg, x.comp})
			}
		}
		return true
	})
	for _, o := range ordered {
		for j := 0; j < o.k; j++ {
			if equal[o.msg][j] {
				continue
			}
			if o.msg.Components[j].Kind != annotations.Field {
				continue // a constant or absent component cannot be compared
			}
			if !c.received(o.e) {
				break // not a filter of received messages
			}
			lower, higher := c.tag.vars[o.k].Name, c.tag.vars[j].Name
			rep.Report(analysis.Diagnostic{
				Pos: o.e.Pos(),
				End: o.e.End(),
				Message: fmt.Sprintf("advisory: %s filter compares %s without %s: messages of a later %s with a lower %s are dropped (liveness; compare %s for equality first)",
					o.msg.Name(c.pass.Pkg), lower, higher, higher, lower, higher),
			})
			break
		}
	}
}

// side says whether e is a component of a message's tag, or the process's
// variable of a component of c.tag.
func (c *checker) side(e ast.Expr) side {
	e = ast.Unparen(e)
	if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 {
		if tv, ok := c.pass.TypesInfo.Types[conv.Fun]; ok && tv.IsType() {
			return c.side(conv.Args[0]) // a conversion
		}
	}
	if s := c.msgComponent(e); s.msg != nil {
		return s
	}
	if k := c.procComponent(e, 0); k >= 0 {
		return side{comp: k, proc: true}
	}
	return side{}
}

// msgComponent matches e against the field path of a component of a
// message's mapping, rooted at a value of the message type.
func (c *checker) msgComponent(e ast.Expr) side {
	var path []*types.Var
	for {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			break
		}
		s := c.pass.TypesInfo.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			break
		}
		f := s.Obj().(*types.Var)
		path = append([]*types.Var{f}, path...)
		if msg := c.ann.MsgOf(c.pass.TypesInfo.TypeOf(sel.X)); msg != nil && len(msg.Components) == len(c.tag.vars) {
			for k, comp := range msg.Components {
				if comp.Kind == annotations.Field && endsWith(comp.Fields, path) && len(path) == len(nonEmbedded(comp.Fields)) {
					return side{msg: msg, comp: k}
				}
			}
		}
		e = sel.X
	}
	return side{}
}

// procComponent returns the index of the synchronization variable that e
// reads (a selector ending with its field, or a call of a getter of the
// package returning one), or -1.
func (c *checker) procComponent(e ast.Expr, depth int) int {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if s := c.pass.TypesInfo.Selections[e]; s != nil && s.Kind() == types.FieldVal {
			if c.msgComponent(e).msg != nil {
				return -1
			}
			for k, f := range c.tag.fields {
				if f != nil && s.Obj() == f {
					return k
				}
			}
		}
	case *ast.Ident:
		for k, v := range c.tag.vars {
			if len(v.Fields) == 0 && c.pass.TypesInfo.Uses[e] == v.Root {
				return k
			}
		}
	case *ast.CallExpr:
		if depth > 0 || len(e.Args) != 0 {
			return -1
		}
		var id *ast.Ident
		switch fun := ast.Unparen(e.Fun).(type) {
		case *ast.Ident:
			id = fun
		case *ast.SelectorExpr:
			id = fun.Sel
		}
		fn, _ := c.pass.TypesInfo.Uses[id].(*types.Func)
		fd := c.decls[fn]
		if fd == nil {
			return -1
		}
		// A getter: every return statement returns the same component.
		k := -1
		ok := true
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) != 1 {
					ok = false
					return false
				}
				r := c.procComponent(n.Results[0], depth+1)
				if r < 0 || k >= 0 && r != k {
					ok = false
				}
				k = r
			}
			return true
		})
		if ok {
			return k
		}
	}
	return -1
}

// endsWith reports whether the non-embedded fields of full end with path.
func endsWith(full, path []*types.Var) bool {
	full = nonEmbedded(full)
	if len(path) > len(full) {
		return false
	}
	off := len(full) - len(path)
	for i, f := range path {
		if full[off+i] != f {
			return false
		}
	}
	return true
}

func nonEmbedded(fs []*types.Var) []*types.Var {
	var out []*types.Var
	for _, f := range fs {
		if !f.Embedded() {
			out = append(out, f)
		}
	}
	return out
}
