package annotations

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/objectpath"
	"golang.org/x/tools/go/types/typeutil"
)

// resolveMsg resolves //sync:msg, in a type's doc comment or naming its type.
func (r *resolver) resolveMsg(d *Directive, attached map[*ast.CommentGroup]attachment) {
	var tn *types.TypeName
	if d.Target != nil {
		obj := r.lookupTarget(d)
		if obj == nil {
			return
		}
		var ok bool
		if tn, ok = obj.(*types.TypeName); !ok {
			r.itemErrorf(d.Target, "%s is not a type", d.Target.Text)
			return
		}
	} else {
		a := attached[d.Group]
		if a.typeSpec == nil {
			r.errorf(d.Pos(), d.Comment.End(),
				"//sync:msg is attached to no type declaration: put it in the doc comment of the message type, or name the type (//sync:msg pkg.Type F1,F2)")
			return
		}
		tn, _ = r.pass.TypesInfo.Defs[a.typeSpec.Name].(*types.TypeName)
		if tn == nil {
			return // a type-checking error; the compiler reports it
		}
	}
	if tn.IsAlias() {
		n, ok := types.Unalias(tn.Type()).(*types.Named)
		if !ok {
			r.errorf(d.Pos(), d.Comment.End(), "message type %s is an alias of an unnamed type", tn.Name())
			return
		}
		tn = n.Obj()
	}
	if _, ok := tn.Type().Underlying().(*types.Struct); !ok {
		r.errorf(d.Pos(), d.Comment.End(), "message type %s is not a struct type", tn.Name())
		return
	}
	if prev, ok := r.ann.Msgs[tn]; ok && !prev.Imported {
		p := r.errorf(d.Pos(), d.Comment.End(), "message type %s already has a //sync:msg mapping", tn.Name())
		p.Related = append(p.Related, Related{Pos: prev.Pos, Message: "first mapping"})
		return
	}
	m := &Msg{Type: tn, Pos: d.Pos()}
	for _, it := range d.List {
		c, ok := r.resolveComponent(d, tn, it)
		if !ok {
			return
		}
		m.Components = append(m.Components, c)
	}
	r.ann.Msgs[tn] = m
	if tn.Pkg() != r.pass.Pkg {
		if path, err := objectpath.For(tn); err == nil {
			r.foreign.Msgs = append(r.foreign.Msgs, ForeignMsg{Pkg: tn.Pkg().Path(), Path: path, Fact: *msgFact(m)})
		}
	}
}

// resolveComponent resolves one element of a //sync:msg list: _, a field
// path of the message, or a constant.
func (r *resolver) resolveComponent(d *Directive, tn *types.TypeName, it *Item) (Component, bool) {
	c := Component{Text: it.Text}
	if it.Text == "_" {
		c.Kind = Absent
		return c, true
	}
	fields, index, ferr := fieldPath(tn.Type(), r.pass.Pkg, "", it.Path)
	if ferr == nil {
		t := fields[len(fields)-1].Type()
		if !isInteger(t) {
			r.itemErrorf(it, "field %s.%s has type %s: a tag component must have an integer type",
				typeString(tn.Type(), r.pass.Pkg), it.Text, typeString(t, r.pass.Pkg))
			return c, false
		}
		c.Kind, c.Fields, c.FieldIndex = Field, fields, index
		return c, true
	}
	if k := r.lookupConst(d, it); k != nil {
		if !isInteger(k.Type()) || k.Val().Kind() != constant.Int {
			r.itemErrorf(it, "constant %s is not an integer constant", it.Text)
			return c, false
		}
		c.Kind, c.Const, c.Value = Const, k, k.Val()
		return c, true
	}
	if strings.Contains(ferr.Error(), "is a method") {
		r.itemErrorf(it, "%v", ferr)
	} else {
		r.itemErrorf(it, "%v, and no constant %s is in scope (a component is a field path of the message, a constant of the round type, or _)", ferr, it.Text)
	}
	return c, false
}

// lookupConst resolves Name or pkg.Name to a constant, in the directive's
// file scope.
func (r *resolver) lookupConst(d *Directive, it *Item) *types.Const {
	scope := r.pass.TypesInfo.Scopes[r.fileOf[d]]
	if scope == nil {
		scope = r.pass.Pkg.Scope()
	}
	var obj types.Object
	switch len(it.Path) {
	case 1:
		_, obj = scope.LookupParent(it.Path[0], token.NoPos)
	case 2:
		if pn, ok := scope.Lookup(it.Path[0]).(*types.PkgName); ok {
			obj = pn.Imported().Scope().Lookup(it.Path[1])
		}
	}
	k, _ := obj.(*types.Const)
	return k
}

// resolveComm resolves //sync:send and //sync:recv.
func (r *resolver) resolveComm(d *Directive, attached map[*ast.CommentGroup]attachment) {
	kind := Send
	if d.Kind == KindRecv {
		kind = Recv
	}
	var fn *types.Func
	if d.Target != nil {
		obj := r.lookupTarget(d)
		if obj == nil {
			return
		}
		var ok bool
		if fn, ok = obj.(*types.Func); !ok {
			r.itemErrorf(d.Target, "%s is not a function or method", d.Target.Text)
			return
		}
	} else {
		a := attached[d.Group]
		var name *ast.Ident
		switch {
		case a.funcDecl != nil:
			name = a.funcDecl.Name
		case a.method != nil:
			name = a.method.Names[0]
		default:
			r.errorf(d.Pos(), d.Comment.End(),
				"%s is attached to no function: put it in the doc comment of a function, method or interface method, or name it (%s pkg.Func)", d.Kind, d.Kind)
			return
		}
		fn, _ = r.pass.TypesInfo.Defs[name].(*types.Func)
		if fn == nil {
			return
		}
	}
	fn = fn.Origin()
	if prev, ok := r.ann.Comms[fn]; ok && !prev.Imported {
		p := r.errorf(d.Pos(), d.Comment.End(), "%s is already annotated //sync:%s", fn.Name(), prev.Kind)
		p.Related = append(p.Related, Related{Pos: prev.Pos, Message: "first annotation"})
		return
	}
	sig := fn.Signature()
	tuple, what := sig.Params(), "parameter"
	if kind == Recv {
		tuple, what = sig.Results(), "result"
	}
	carries := false
	for i := 0; i < tuple.Len(); i++ {
		if r.ann.CanCarry(tuple.At(i).Type()) {
			carries = true
		}
	}
	if !carries {
		r.errorf(d.Pos(), d.Comment.End(),
			"%s: %s has no %s that can carry a message (a //sync:msg type, a pointer to one, an interface, or a struct, slice or channel holding one)",
			d.Kind, fn.Name(), what)
		return
	}
	c := &Comm{Func: fn, Kind: kind, Pos: d.Pos()}
	if res := sig.Results(); kind == Recv && res.Len() > 1 {
		last := res.At(res.Len() - 1).Type()
		c.HasOK = types.Identical(last.Underlying(), types.Typ[types.Bool]) || isError(last)
	}
	r.ann.Comms[fn] = c
	if fn.Pkg() != r.pass.Pkg {
		if path, err := objectpath.For(fn); err == nil {
			r.foreign.Comms = append(r.foreign.Comms, ForeignComm{Pkg: fn.Pkg().Path(), Path: path, Fact: CommFact{Kind: kind, HasOK: c.HasOK}})
		}
	}
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// loopSite is a for statement that a //sync:tag may annotate.
type loopSite struct {
	stmt      ast.Stmt
	body      *ast.BlockStmt
	fn        ast.Node
	outer     *loopSite // enclosing for statement of the same function
	forLine   int
	labelLine int
	loop      *Loop
}

// resolveLoops attaches each //sync:tag to its for statement and resolves
// its variables.
func (r *resolver) resolveLoops(tags []*Directive) {
	if len(tags) == 0 {
		return
	}
	fset := r.pass.Fset
	line := func(p token.Pos) int { return fset.File(p).PositionFor(p, false).Line }
	sitesByFile := make(map[*ast.File][]*loopSite)
	var all []*loopSite
	for _, d := range tags {
		f := r.fileOf[d]
		if _, ok := sitesByFile[f]; ok {
			continue
		}
		var sites []*loopSite
		collectLoops(f, line, &sites)
		sitesByFile[f] = sites
		all = append(all, sites...)
	}
	for _, d := range tags {
		site := attachTag(d, sitesByFile[r.fileOf[d]], line)
		if site == nil {
			r.errorf(d.Pos(), d.Comment.End(),
				"//sync:tag is attached to no for statement: put it on the line directly above the for, or at the end of the for line")
			continue
		}
		if site.loop != nil {
			p := r.errorf(d.Pos(), d.Comment.End(), "loop already has a //sync:tag")
			p.Related = append(p.Related, Related{Pos: site.loop.Directive.Pos(), Message: "first //sync:tag"})
			continue
		}
		vars, ok := r.resolveVars(d, site.body)
		if !ok {
			continue
		}
		site.loop = &Loop{Stmt: site.stmt, Body: site.body, Func: site.fn, Vars: vars, Directive: d}
	}
	for _, s := range all {
		if s.loop == nil {
			continue
		}
		for o := s.outer; o != nil; o = o.outer {
			if o.loop != nil {
				r.checkNested(s.loop, o.loop)
				break
			}
		}
		r.ann.Loops = append(r.ann.Loops, s.loop)
	}
	sort.Slice(r.ann.Loops, func(i, j int) bool { return r.ann.Loops[i].Pos() < r.ann.Loops[j].Pos() })
}

// collectLoops lists the for statements of f with their enclosing function
// and enclosing for statement of the same function.
func collectLoops(f *ast.File, line func(token.Pos) int, out *[]*loopSite) {
	type frame struct {
		fn    ast.Node
		loops []*loopSite
	}
	var frames []*frame
	labels := make(map[ast.Stmt]int)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case nil:
			return false
		case *ast.CommentGroup, *ast.Comment:
			// A doc comment lies outside its function's extent.
			return false
		}
		// Leave the functions and loops that n is not inside of.
		for len(frames) > 0 && !within(n, frames[len(frames)-1].fn) {
			frames = frames[:len(frames)-1]
		}
		var top *frame
		if len(frames) > 0 {
			top = frames[len(frames)-1]
			for len(top.loops) > 0 && !within(n, top.loops[len(top.loops)-1].stmt) {
				top.loops = top.loops[:len(top.loops)-1]
			}
		}
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			frames = append(frames, &frame{fn: n})
		case *ast.LabeledStmt:
			labels[n.Stmt] = line(n.Pos())
		case *ast.ForStmt, *ast.RangeStmt:
			if top == nil {
				return true
			}
			stmt := n.(ast.Stmt)
			s := &loopSite{stmt: stmt, fn: top.fn, forLine: line(n.Pos()), labelLine: labels[stmt]}
			if fs, ok := n.(*ast.ForStmt); ok {
				s.body = fs.Body
			} else {
				s.body = n.(*ast.RangeStmt).Body
			}
			if len(top.loops) > 0 {
				s.outer = top.loops[len(top.loops)-1]
			}
			top.loops = append(top.loops, s)
			*out = append(*out, s)
		}
		return true
	})
}

func within(n, outer ast.Node) bool { return outer.Pos() <= n.Pos() && n.End() <= outer.End() }

// attachTag finds the loop d annotates: one whose for keyword is on d's
// line before it, or on the line after d's comment group (possibly after a
// label).
func attachTag(d *Directive, sites []*loopSite, line func(token.Pos) int) *loopSite {
	dl := line(d.Pos())
	for _, s := range sites {
		if s.forLine == dl && s.stmt.Pos() < d.Pos() {
			return s
		}
	}
	next := line(d.Group.End()) + 1
	for _, s := range sites {
		if s.forLine == next || s.labelLine == next {
			return s
		}
	}
	return nil
}

// resolveVars resolves the variables of a //sync:tag in the scope of the
// loop body.
func (r *resolver) resolveVars(d *Directive, body *ast.BlockStmt) ([]*SyncVar, bool) {
	scope := r.pass.Pkg.Scope().Innermost(body.Lbrace)
	if scope == nil {
		return nil, false
	}
	var vars []*SyncVar
	ok := true
	for _, it := range d.List {
		v, vok := r.resolveVar(it, scope, body.Lbrace)
		if !vok {
			ok = false // go on, to report every bad variable at once
			continue
		}
		for _, w := range vars {
			if v.Same(w) {
				r.itemErrorf(it, "%s appears twice in the tag", it.Text)
				ok = false
			}
		}
		vars = append(vars, v)
	}
	return vars, ok
}

func (r *resolver) resolveVar(it *Item, scope *types.Scope, pos token.Pos) (*SyncVar, bool) {
	path := it.Path
	_, obj := scope.LookupParent(path[0], pos)
	if pn, ok := obj.(*types.PkgName); ok && len(path) > 1 {
		obj = pn.Imported().Scope().Lookup(path[1])
		path = path[1:]
		if obj == nil || !obj.Exported() {
			r.itemErrorf(it, "undefined: %s.%s", pn.Name(), path[0])
			return nil, false
		}
	}
	root, ok := obj.(*types.Var)
	if !ok {
		switch obj := obj.(type) {
		case nil:
			r.itemErrorf(it, "undefined: %s (a synchronization variable must be in scope at the loop)", path[0])
		case *types.Const:
			r.itemErrorf(it, "%s is a constant, not addressable: a synchronization variable must be a variable the loop updates", obj.Name())
		default:
			r.itemErrorf(it, "%s is not addressable: a synchronization variable must be a variable, not a %s", obj.Name(), objectKind(obj))
		}
		return nil, false
	}
	v := &SyncVar{Name: it.Text, Pos: it.Pos, Root: root, Type: root.Type()}
	if len(path) > 1 {
		fields, _, err := fieldPath(root.Type(), r.pass.Pkg, path[0], path[1:])
		if err != nil {
			r.itemErrorf(it, "%v", err)
			return nil, false
		}
		v.Fields = fields
		v.Type = fields[len(fields)-1].Type()
	}
	if !isInteger(v.Type) {
		r.itemErrorf(it, "%s has type %s: a synchronization variable must have an integer type (or a defined type over one)",
			it.Text, typeString(v.Type, r.pass.Pkg))
		return nil, false
	}
	v.Enum = enumOf(v.Type)
	return v, true
}

func objectKind(obj types.Object) string {
	switch obj.(type) {
	case *types.Func:
		return "function"
	case *types.TypeName:
		return "type"
	case *types.PkgName:
		return "package"
	case *types.Builtin:
		return "builtin"
	case *types.Nil:
		return "nil"
	case *types.Label:
		return "label"
	}
	return "non-variable"
}

// checkNested checks that inner repeats outer's variables and adds its own.
func (r *resolver) checkNested(inner, outer *Loop) {
	inner.Parent = outer
	ok := len(inner.Vars) > len(outer.Vars)
	for i := 0; ok && i < len(outer.Vars); i++ {
		ok = inner.Vars[i].Same(outer.Vars[i])
	}
	if !ok {
		p := r.errorf(inner.Directive.Pos(), inner.Directive.Comment.End(),
			"nested //sync:tag %s does not extend its enclosing loop's tag %s: list the enclosing variables first, then the inner loop's own",
			inner.TagString(), outer.TagString())
		p.Related = append(p.Related, Related{Pos: outer.Directive.Pos(), Message: "enclosing //sync:tag"})
	}
}

// checkUses checks that each message type sent or received in a tagged
// loop, directly or in a function of this package that the loop calls, has
// one tag component per synchronization variable of the loop.
func (r *resolver) checkUses() {
	if len(r.ann.Loops) == 0 || len(r.ann.Msgs) == 0 {
		return
	}
	decls := make(map[*types.Func]*ast.FuncDecl)
	for _, f := range r.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := r.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	tagged := make(map[ast.Stmt]bool)
	for _, l := range r.ann.Loops {
		tagged[l.Stmt] = true
	}
	info := r.pass.TypesInfo
	for _, l := range r.ann.Loops {
		reported := make(map[*Msg]bool)
		seen := make(map[*ast.FuncDecl]bool)
		use := func(pos token.Pos, t types.Type) {
			m := r.ann.MsgOf(t)
			if m == nil || reported[m] {
				return
			}
			if p := r.checkUse(l, m, pos); p != nil {
				reported[m] = true
			}
		}
		var walk func(n ast.Node)
		walk = func(n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					if tagged[n.(ast.Stmt)] && n.(ast.Stmt) != l.Stmt {
						return false // checked against its own tag
					}
					if rs, ok := n.(*ast.RangeStmt); ok {
						if ch, ok := types.Unalias(info.TypeOf(rs.X)).Underlying().(*types.Chan); ok {
							use(rs.X.Pos(), ch.Elem())
						}
					}
				case *ast.SendStmt:
					use(n.Value.Pos(), info.TypeOf(n.Value))
				case *ast.UnaryExpr:
					if n.Op == token.ARROW {
						use(n.Pos(), info.TypeOf(n))
					}
				case *ast.TypeAssertExpr:
					if n.Type != nil {
						use(n.Type.Pos(), info.TypeOf(n.Type))
					}
				case *ast.CaseClause:
					for _, e := range n.List {
						if tv, ok := info.Types[e]; ok && tv.IsType() {
							use(e.Pos(), tv.Type)
						}
					}
				case *ast.CallExpr:
					fn, _ := typeutil.Callee(info, n).(*types.Func)
					if fn == nil {
						return true
					}
					if c := r.ann.CommOf(fn); c != nil {
						if c.Kind == Send {
							for _, a := range n.Args {
								use(a.Pos(), info.TypeOf(a))
							}
						} else if t := info.TypeOf(n); t != nil {
							if tup, ok := t.(*types.Tuple); ok {
								for i := 0; i < tup.Len(); i++ {
									use(n.Pos(), tup.At(i).Type())
								}
							} else {
								use(n.Pos(), t)
							}
						}
					} else if fd := decls[fn.Origin()]; fd != nil && !seen[fd] {
						seen[fd] = true
						walk(fd.Body)
					}
				}
				return true
			})
		}
		walk(l.Body)
	}
}

// checkUse checks message m, used at pos, against loop l's tag.
func (r *resolver) checkUse(l *Loop, m *Msg, pos token.Pos) *Problem {
	name := m.Name(r.pass.Pkg)
	related := func(p *Problem) *Problem {
		switch {
		case !m.Imported:
			p.Related = append(p.Related, Related{Pos: m.Pos, Message: "//sync:msg of " + name})
		case m.Pos.IsValid():
			p.Related = append(p.Related, Related{Pos: m.Pos, Message: name + " is declared here"})
		}
		p.Related = append(p.Related, Related{Pos: l.Directive.Pos(), Message: "//sync:tag of the loop"})
		return p
	}
	if len(m.Components) != len(l.Vars) {
		return related(r.errorf(pos, pos,
			"message %s maps %d tag component(s) but is used in a loop tagged %s (%d variables): give one component per variable, _ for one it does not carry",
			name, len(m.Components), l.TagString(), len(l.Vars)))
	}
	for i, c := range m.Components {
		ct, vt := c.Type(), l.Vars[i].Type
		if ct == nil {
			continue
		}
		cn, cNamed := types.Unalias(ct).(*types.Named)
		_, vNamed := types.Unalias(vt).(*types.Named)
		if cNamed && vNamed && !types.Identical(ct, vt) {
			return related(r.errorf(pos, pos,
				"component %s of message %s has type %s but the variable it maps to, %s, has type %s",
				c.Text, name, typeString(cn, r.pass.Pkg), l.Vars[i].Name, typeString(vt, r.pass.Pkg)))
		}
	}
	return nil
}

// resolveIgnore checks a //sync:ignore and records it.
func (r *resolver) resolveIgnore(d *Directive) {
	var names []string
	for _, it := range d.List {
		if !isAnalyzerName(it.Text) {
			r.itemErrorf(it, "unknown analyzer %s in //sync:ignore (known: %s)", it.Text, strings.Join(AnalyzerNames, ", "))
			return
		}
		names = append(names, it.Text)
	}
	f := r.pass.Fset.File(d.Pos())
	r.ann.Ignores = append(r.ann.Ignores, &Ignore{
		Directive: d,
		Analyzers: names,
		Reason:    d.Reason,
		File:      f.Name(),
		Line:      f.PositionFor(d.Pos(), false).Line,
	})
}

// exportFacts publishes this package's annotations to its importers.
func (r *resolver) exportFacts() {
	for tn, m := range r.ann.Msgs {
		if tn.Pkg() == r.pass.Pkg && !m.Imported {
			r.pass.ExportObjectFact(tn, msgFact(m))
		}
	}
	for fn, c := range r.ann.Comms {
		if fn.Pkg() == r.pass.Pkg && !c.Imported {
			r.pass.ExportObjectFact(fn, &CommFact{Kind: c.Kind, HasOK: c.HasOK})
		}
	}
	if len(r.foreign.Msgs)+len(r.foreign.Comms) > 0 {
		r.pass.ExportPackageFact(&r.foreign)
	}
}
