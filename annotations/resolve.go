package annotations

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/ccvet/ccvet/internal/srcpos"
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
	switch tn.Type().Underlying().(type) {
	case *types.Struct, *types.Interface:
	default:
		r.errorf(d.Pos(), d.Comment.End(), "message type %s is not a struct or interface type", tn.Name())
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
			r.failed[tn] = true // its //sync:local is not reported again
			return
		}
		m.Components = append(m.Components, c)
	}
	r.ann.Msgs[tn] = m
}

// resolveComponent resolves one element of a //sync:msg list: _, a field
// path of the message, a method Name(), a constant, or a field or method
// with an enum mapping.
func (r *resolver) resolveComponent(d *Directive, tn *types.TypeName, it *Item) (Component, bool) {
	c := Component{Text: it.Text}
	if it.Text == "_" {
		c.Kind = Absent
		return c, true
	}
	if it.Call {
		fn, ok := r.methodComponent(tn, it)
		if !ok {
			return c, false
		}
		c.Kind, c.Method = Method, fn
		return r.mapComponent(d, tn, it, c)
	}
	fields, index, ferr := fieldPath(tn.Type(), r.pass.Pkg, "", it.Path)
	if ferr == nil {
		t := fields[len(fields)-1].Type()
		if !isInteger(t) {
			r.itemErrorf(it, "field %s.%s has type %s: a tag component must have an integer type (for a pointer field, name its getter: Get%s())",
				typeString(tn.Type(), r.pass.Pkg), pathText(it), typeString(t, r.pass.Pkg), it.Path[len(it.Path)-1])
			return c, false
		}
		c.Kind, c.Fields, c.FieldIndex = Field, fields, index
		return r.mapComponent(d, tn, it, c)
	}
	if it.Map == nil {
		if k := r.lookupConst(d, it); k != nil {
			if !isInteger(k.Type()) || k.Val().Kind() != constant.Int {
				r.itemErrorf(it, "constant %s is not an integer constant", it.Text)
				return c, false
			}
			c.Kind, c.Const, c.Value = Const, k, k.Val()
			return c, true
		}
	}
	if _, ok := ferr.(errMethod); ok {
		r.itemErrorf(it, "%v: write %s() to read the tag through the method", ferr, pathText(it))
	} else {
		r.itemErrorf(it, "%v, and no constant %s is in scope (a component is a field path of the message, a method Name(), a constant of the round type, or _)", ferr, it.Text)
	}
	return c, false
}

// pathText is the dotted path of an item, without () and {...}.
func pathText(it *Item) string { return strings.Join(it.Path, ".") }

// methodComponent resolves the method of a component Name(): a method of
// the message type (or of a pointer to it) with no parameters and one
// integer result.
func (r *resolver) methodComponent(tn *types.TypeName, it *Item) (*types.Func, bool) {
	name := it.Path[0]
	obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, r.pass.Pkg, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		what := "no method"
		if obj != nil {
			what = "a field, not a method,"
		}
		r.itemErrorf(it, "%s has %s %s: a method component names a method of the message with no arguments and an integer result",
			typeString(tn.Type(), r.pass.Pkg), what, name)
		if obj != nil {
			r.ann.Problems[len(r.ann.Problems)-1].Message = fmt.Sprintf("%s.%s is a field, not a method: write %s without parentheses",
				typeString(tn.Type(), r.pass.Pkg), name, name)
		}
		return nil, false
	}
	sig := fn.Signature()
	if sig.Params().Len() != 0 || sig.Variadic() {
		r.itemErrorf(it, "method %s.%s has parameters: a method component must take no arguments", typeString(tn.Type(), r.pass.Pkg), name)
		return nil, false
	}
	if sig.Results().Len() != 1 || !isInteger(sig.Results().At(0).Type()) {
		r.itemErrorf(it, "method %s.%s returns %s: a method component must return one integer (or a defined type over one)",
			typeString(tn.Type(), r.pass.Pkg), name, typeString(sig.Results(), r.pass.Pkg))
		return nil, false
	}
	if sig.TypeParams().Len() > 0 {
		r.itemErrorf(it, "method %s.%s is generic", typeString(tn.Type(), r.pass.Pkg), name)
		return nil, false
	}
	return fn, true
}

// mapComponent resolves the enum mapping of it, if any, onto the field or
// method component c of the message type tn: every constant of the
// message's enum must be mapped, once, onto constants of one round type,
// but those whose messages a //sync:local declares local (see
// checkUnmapped).
func (r *resolver) mapComponent(d *Directive, tn *types.TypeName, it *Item, c Component) (Component, bool) {
	if it.Map == nil {
		return c, true
	}
	src := c.SourceType()
	enum := enumOf(src)
	if enum == nil {
		r.itemErrorf(it, "%s has type %s, which is not an enum (a defined integer type with constants): only an enum can be mapped",
			pathText(it), typeString(src, r.pass.Pkg))
		return c, false
	}
	m := &EnumMap{From: enum.Type}
	// seen maps each value mapped to the constant that maps it: two names
	// of one value (an alias constant) are one constant.
	seen := make(map[string]*types.Const)
	ok := true
	for _, p := range it.Map {
		from := r.lookupConst(d, p.From)
		switch {
		case from == nil:
			r.itemErrorf(p.From, "undefined: %s (a key of the mapping is a constant of %s)", p.From.Text, typeString(enum.Type, r.pass.Pkg))
			ok = false
			continue
		case !types.Identical(from.Type(), enum.Type):
			r.itemErrorf(p.From, "%s has type %s, not the message's enum %s", p.From.Text, typeString(from.Type(), r.pass.Pkg), typeString(enum.Type, r.pass.Pkg))
			ok = false
			continue
		case seen[from.Val().ExactString()] == from:
			r.itemErrorf(p.From, "%s is mapped twice", p.From.Text)
			ok = false
			continue
		case seen[from.Val().ExactString()] != nil:
			r.itemErrorf(p.From, "%s is mapped twice: it has the value of %s", p.From.Text, seen[from.Val().ExactString()].Name())
			ok = false
			continue
		}
		seen[from.Val().ExactString()] = from
		to := r.lookupConst(d, p.To)
		switch {
		case to == nil:
			r.itemErrorf(p.To, "undefined: %s (a value of the mapping is a constant of the round's enum)", p.To.Text)
			ok = false
			continue
		case !isInteger(to.Type()) || to.Val().Kind() != constant.Int:
			r.itemErrorf(p.To, "%s is not an integer constant", p.To.Text)
			ok = false
			continue
		case m.To == nil:
			m.To = to.Type()
		case !types.Identical(to.Type(), m.To):
			r.itemErrorf(p.To, "%s has type %s but %s maps onto %s: every value must be a constant of the round's type",
				p.To.Text, typeString(to.Type(), r.pass.Pkg), pathText(it), typeString(m.To, r.pass.Pkg))
			ok = false
			continue
		}
		m.Pairs = append(m.Pairs, EnumPair{From: p.From.Text, To: p.To.Text, FromConst: from, ToConst: to, FromValue: from.Val(), ToValue: to.Val()})
	}
	if !ok {
		return c, false
	}
	var missing []*types.Const
	for _, k := range enum.Consts {
		// (An unexported constant of another package cannot be named.)
		if seen[k.Val().ExactString()] == nil && (k.Exported() || k.Pkg() == r.pass.Pkg) {
			missing = append(missing, k)
			seen[k.Val().ExactString()] = k // an alias is listed once
		}
	}
	c.Kind, c.Map = Mapped, m
	if len(missing) > 0 {
		r.unmapped = append(r.unmapped, unmappedConsts{tn: tn, it: it, comp: c, enum: enum.Type, missing: missing})
	}
	return c, true
}

// checkUnmapped reports each enum mapping that leaves out a constant
// whose messages no //sync:local of the type declares local (Type ==
// MsgHup): a network message needs a round. The type's mapping is then
// dropped, as for any other mistake in it.
func (r *resolver) checkUnmapped() {
	for _, u := range r.unmapped {
		m := r.ann.Msgs[u.tn]
		if m == nil || u.tn == nil {
			continue
		}
		var names []string
		for _, k := range u.missing {
			if !declaredLocal(m, u.comp, k) {
				names = append(names, k.Name())
			}
		}
		if len(names) == 0 {
			continue
		}
		r.itemErrorf(u.it, "enum mapping of %s misses %s of %s: every constant of the message's enum must be mapped, or its messages declared local (//sync:local %s==%s)",
			pathText(u.it), strings.Join(names, ", "), typeString(u.enum, r.pass.Pkg), pathText(u.it), names[0])
		delete(r.ann.Msgs, u.tn)
		r.failed[u.tn] = true
	}
}

// declaredLocal reports whether a //sync:local of m says that the
// messages whose component c holds k are local.
func declaredLocal(m *Msg, c Component, k *types.Const) bool {
	for _, lc := range m.Locals {
		if lc.Value == nil || !constant.Compare(lc.Value, token.EQL, k.Val()) {
			continue
		}
		l := lc.Left
		if l.Kind == Field && len(c.FieldIndex) > 0 && slices.Equal(l.FieldIndex, c.FieldIndex) {
			return true
		}
		if l.Kind == Method && l.Method != nil && c.Method != nil && l.Method.Name() == c.Method.Name() {
			return true
		}
	}
	return false
}

// lookupConst resolves Name or pkg.Name to a constant, in the directive's
// file scope.
func (r *resolver) lookupConst(d *Directive, it *Item) *types.Const {
	scope := r.pass.TypesInfo.Scopes[r.fileOf[d]]
	if scope == nil {
		scope = r.pass.Pkg.Scope()
	}
	if it.Path == nil {
		return nil
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
	if d.Stamps && r.ann.ProcessOf(recvType(fn)) == nil {
		r.errorf(d.Pos(), d.Comment.End(),
			"//sync:send stamps: %s is not a method of a process type (a struct type with //sync:tag): ccvet cannot tell whose tag it stamps", fn.Name())
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
	c := &Comm{Func: fn, Kind: kind, Pos: d.Pos(), Stamps: d.Stamps}
	if res := sig.Results(); kind == Recv && res.Len() > 1 {
		last := res.At(res.Len() - 1).Type()
		c.HasOK = types.Identical(last.Underlying(), types.Typ[types.Bool]) || isError(last)
	}
	r.ann.Comms[fn] = c
	if fn.Pkg() != r.pass.Pkg {
		if path, err := objectpath.For(fn); err == nil {
			r.foreign.Comms = append(r.foreign.Comms, ForeignComm{Pkg: fn.Pkg().Path(), Path: path, Fact: CommFact{Kind: kind, HasOK: c.HasOK, Stamps: c.Stamps}})
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
				"//sync:tag is attached to no for statement: put it on the line directly above the for, or at the end of the for line (or, for the process form, in the doc comment of the process type)")
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
	srcpos.SortFunc(r.pass.Fset, r.ann.Loops, (*Loop).Pos)
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
			if _, ok := err.(errMethod); ok {
				r.itemErrorf(it, "%v: a synchronization variable must be a variable or a field path", err)
			} else {
				r.itemErrorf(it, "%v", err)
			}
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

// tagSite is what messages are checked against: a tagged loop, or the
// handlers of a process.
type tagSite struct {
	vars []*SyncVar
	tag  string
	// what names the site in messages: "a loop tagged" or "process T,
	// tagged"; dir is the position of its //sync:tag.
	what string
	dir  token.Pos
	// loop is the loop's statement, nil for a process.
	loop ast.Stmt
	// bodies are where the site sends and receives: the loop's body, or
	// the bodies of the process's handlers.
	bodies []*ast.BlockStmt
	// params are the types and positions of the handlers' received
	// messages.
	params []typeAt
}

type typeAt struct {
	pos token.Pos
	t   types.Type
}

// checkUses checks that each message type sent or received in a tagged
// loop or a handler, directly or in a function of this package that it
// calls, has one tag component per synchronization variable of its tag.
func (r *resolver) checkUses() {
	if len(r.ann.Msgs) == 0 {
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
	var sites []*tagSite
	for _, l := range r.ann.Loops {
		tagged[l.Stmt] = true
		sites = append(sites, &tagSite{vars: l.Vars, tag: l.TagString(), what: "a loop tagged", dir: l.Directive.Pos(), loop: l.Stmt, bodies: []*ast.BlockStmt{l.Body}})
	}
	sites = append(sites, r.processSites(decls)...)
	for _, s := range sites {
		r.checkSite(s, decls, tagged)
	}
}

// processSites returns a site per process type with handlers declared in
// this package, in the order of their first handler.
func (r *resolver) processSites(decls map[*types.Func]*ast.FuncDecl) []*tagSite {
	var hs []*Handler
	for _, h := range r.ann.Handlers {
		if !h.Imported && h.Process != nil {
			hs = append(hs, h)
		}
	}
	srcpos.SortFunc(r.pass.Fset, hs, func(h *Handler) token.Pos { return h.Pos })
	var sites []*tagSite
	byProc := make(map[*Process]*tagSite)
	for _, h := range hs {
		p := h.Process
		s := byProc[p]
		if s == nil {
			s = &tagSite{vars: p.Vars, tag: p.TagString(), what: "process " + p.Type.Name() + ", tagged", dir: p.Pos}
			byProc[p] = s
			sites = append(sites, s)
		}
		if fd := decls[h.Func]; fd != nil {
			s.bodies = append(s.bodies, fd.Body)
		}
		if h.Msg >= 0 {
			v := h.Func.Signature().Params().At(h.Msg)
			s.params = append(s.params, typeAt{v.Pos(), v.Type()})
		}
	}
	return sites
}

// checkSite checks the messages that site s sends and receives.
func (r *resolver) checkSite(s *tagSite, decls map[*types.Func]*ast.FuncDecl, tagged map[ast.Stmt]bool) {
	info := r.pass.TypesInfo
	reported := make(map[*Msg]bool)
	seen := make(map[*ast.FuncDecl]bool)
	use := func(pos token.Pos, t types.Type) {
		m := r.ann.MsgOf(t)
		if m == nil || reported[m] {
			return
		}
		if p := r.checkUse(s, m, pos); p != nil {
			reported[m] = true
		}
	}
	for _, p := range s.params {
		use(p.pos, p.t)
	}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if tagged[n.(ast.Stmt)] && n.(ast.Stmt) != s.loop {
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
	for _, b := range s.bodies {
		walk(b)
	}
}

// checkUse checks message m, used at pos, against site s's tag.
func (r *resolver) checkUse(s *tagSite, m *Msg, pos token.Pos) *Problem {
	name := m.Name(r.pass.Pkg)
	related := func(p *Problem) *Problem {
		switch {
		case !m.Imported:
			p.Related = append(p.Related, Related{Pos: m.Pos, Message: "//sync:msg of " + name})
		case m.Pos.IsValid():
			p.Related = append(p.Related, Related{Pos: m.Pos, Message: name + " is declared here"})
		}
		what := "//sync:tag of the loop"
		if s.loop == nil {
			what = "//sync:tag of the process"
		}
		p.Related = append(p.Related, Related{Pos: s.dir, Message: what})
		return p
	}
	if len(m.Components) != len(s.vars) {
		return related(r.errorf(pos, pos,
			"message %s maps %d tag component(s) but is used in %s %s (%d variables): give one component per variable, _ for one it does not carry",
			name, len(m.Components), s.what, s.tag, len(s.vars)))
	}
	for i, c := range m.Components {
		ct, vt := c.Type(), s.vars[i].Type
		if ct == nil {
			continue
		}
		if c.Kind == Mapped && !types.Identical(ct, vt) {
			return related(r.errorf(pos, pos,
				"component %s of message %s maps onto constants of type %s but the variable it maps to, %s, has type %s: map onto the round's own constants",
				strings.TrimSpace(c.Text[:strings.IndexByte(c.Text, '{')]), name, typeString(ct, r.pass.Pkg), s.vars[i].Name, typeString(vt, r.pass.Pkg)))
		}
		cn, cNamed := types.Unalias(ct).(*types.Named)
		_, vNamed := types.Unalias(vt).(*types.Named)
		if cNamed && vNamed && !types.Identical(ct, vt) {
			return related(r.errorf(pos, pos,
				"component %s of message %s has type %s but the variable it maps to, %s, has type %s",
				c.Text, name, typeString(cn, r.pass.Pkg), s.vars[i].Name, typeString(vt, r.pass.Pkg)))
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
			r.pass.ExportObjectFact(fn, &CommFact{Kind: c.Kind, HasOK: c.HasOK, Stamps: c.Stamps})
		}
	}
	for tn, p := range r.ann.Processes {
		if tn.Pkg() == r.pass.Pkg && !p.Imported {
			r.pass.ExportObjectFact(tn, processFact(p))
		}
	}
	for fn, h := range r.ann.Handlers {
		if fn.Pkg() == r.pass.Pkg && !h.Imported {
			r.pass.ExportObjectFact(fn, &HandlerFact{Msg: h.Msg})
		}
	}
	r.foreignFacts()
	if len(r.foreign.Msgs)+len(r.foreign.Comms)+len(r.foreign.Processes)+len(r.foreign.Handlers) > 0 {
		r.pass.ExportPackageFact(&r.foreign)
	}
}
