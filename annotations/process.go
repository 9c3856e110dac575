package annotations

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/ccvet/ccvet/internal/srcpos"
	"golang.org/x/tools/go/types/objectpath"
)

// isProcessTag reports whether the //sync:tag d is of the process form:
// it names its type, or sits in the doc comment of a type declaration.
func isProcessTag(d *Directive, attached map[*ast.CommentGroup]attachment) bool {
	return d.Target != nil || attached[d.Group].typeSpec != nil
}

// namedType resolves the type a type-level directive (//sync:tag,
// //sync:local) names or is attached to, following an alias; nil after
// reporting why not.
func (r *resolver) namedType(d *Directive, attached map[*ast.CommentGroup]attachment, form string) *types.TypeName {
	var tn *types.TypeName
	if d.Target != nil {
		obj := r.lookupTarget(d)
		if obj == nil {
			return nil
		}
		var ok bool
		if tn, ok = obj.(*types.TypeName); !ok {
			r.itemErrorf(d.Target, "%s is not a type", d.Target.Text)
			return nil
		}
	} else {
		a := attached[d.Group]
		if a.typeSpec == nil {
			r.errorf(d.Pos(), d.Comment.End(), "%s is attached to no type declaration: put it in the doc comment of the type, or name the type (%s)", d.Kind, form)
			return nil
		}
		tn, _ = r.pass.TypesInfo.Defs[a.typeSpec.Name].(*types.TypeName)
		if tn == nil {
			return nil // a type-checking error; the compiler reports it
		}
	}
	if tn.IsAlias() {
		n, ok := types.Unalias(tn.Type()).(*types.Named)
		if !ok {
			r.errorf(d.Pos(), d.Comment.End(), "type %s is an alias of an unnamed type", tn.Name())
			return nil
		}
		tn = n.Obj()
	}
	return tn
}

// resolveProcess resolves a //sync:tag of the process form: the fields of
// a struct type that form the tag of each of its values.
func (r *resolver) resolveProcess(d *Directive, attached map[*ast.CommentGroup]attachment) {
	tn := r.namedType(d, attached, "//sync:tag pkg.T F1,F2")
	if tn == nil {
		return
	}
	if _, ok := tn.Type().Underlying().(*types.Struct); !ok {
		r.errorf(d.Pos(), d.Comment.End(), "process type %s is not a struct type: //sync:tag on a type names fields of a struct", tn.Name())
		return
	}
	if prev, ok := r.ann.Processes[tn]; ok && !prev.Imported {
		p := r.errorf(d.Pos(), d.Comment.End(), "process type %s already has a //sync:tag", tn.Name())
		p.Related = append(p.Related, Related{Pos: prev.Pos, Message: "first //sync:tag"})
		return
	}
	proc := &Process{Type: tn, Directive: d, Pos: d.Pos()}
	ok := true
	for _, it := range d.List {
		fields, index, err := fieldPath(tn.Type(), tn.Pkg(), "", it.Path)
		if err != nil {
			if _, isMethod := err.(errMethod); isMethod {
				r.itemErrorf(it, "%v: the tag of a process type is a list of its fields", err)
			} else {
				r.itemErrorf(it, "%v", err)
			}
			ok = false
			continue
		}
		t := fields[len(fields)-1].Type()
		if !isInteger(t) {
			r.itemErrorf(it, "field %s.%s has type %s: a synchronization variable must have an integer type (or a defined type over one)",
				typeString(tn.Type(), r.pass.Pkg), it.Text, typeString(t, r.pass.Pkg))
			ok = false
			continue
		}
		v := &SyncVar{Name: it.Text, Pos: it.Pos, Fields: fields, FieldIndex: index, Type: t, Enum: enumOf(t)}
		for _, w := range proc.Vars {
			if v.Same(w) {
				r.itemErrorf(it, "%s appears twice in the tag", it.Text)
				ok = false
			}
		}
		proc.Vars = append(proc.Vars, v)
	}
	if ok {
		r.ann.Processes[tn] = proc
	} else {
		r.failed[tn] = true
	}
}

// recvType is the receiver type of method fn, or nil for a function.
func recvType(fn *types.Func) types.Type {
	if recv := fn.Signature().Recv(); recv != nil {
		return recv.Type()
	}
	return nil
}

// resolveHandler resolves //sync:handler, in a method's doc comment or
// naming the method.
func (r *resolver) resolveHandler(d *Directive, attached map[*ast.CommentGroup]attachment) {
	var fn *types.Func
	if d.Target != nil {
		obj := r.lookupTarget(d)
		if obj == nil {
			return
		}
		var ok bool
		if fn, ok = obj.(*types.Func); !ok {
			r.itemErrorf(d.Target, "%s is not a method", d.Target.Text)
			return
		}
	} else {
		a := attached[d.Group]
		switch {
		case a.funcDecl != nil:
			fn, _ = r.pass.TypesInfo.Defs[a.funcDecl.Name].(*types.Func)
			if fn == nil {
				return
			}
		case a.method != nil:
			r.errorf(d.Pos(), d.Comment.End(),
				"//sync:handler on interface method %s: a handler is a method declaration of a process type", a.method.Names[0].Name)
			return
		default:
			r.errorf(d.Pos(), d.Comment.End(),
				"//sync:handler is attached to no method: put it in the doc comment of a method of the process type, or name it (//sync:handler pkg.(*T).Method)")
			return
		}
	}
	fn = fn.Origin()
	recv := recvType(fn)
	if recv == nil {
		r.errorf(d.Pos(), d.Comment.End(),
			"//sync:handler on function %s, which is not a method: a handler is a method of a process type (a struct type with //sync:tag)", fn.Name())
		return
	}
	proc := r.ann.ProcessOf(recv)
	if proc == nil {
		if n, ok := types.Unalias(deref(recv)).(*types.Named); ok && r.failed[n.Origin().Obj()] {
			return // its //sync:tag is reported
		}
		r.errorf(d.Pos(), d.Comment.End(),
			"//sync:handler on method %s of type %s, which has no //sync:tag: put //sync:tag F1,F2 in the doc comment of the process type",
			fn.Name(), typeString(deref(recv), r.pass.Pkg))
		return
	}
	if prev, ok := r.ann.Handlers[fn]; ok && !prev.Imported {
		p := r.errorf(d.Pos(), d.Comment.End(), "%s is already annotated //sync:handler", fn.Name())
		p.Related = append(p.Related, Related{Pos: prev.Pos, Message: "first //sync:handler"})
		return
	}
	h := &Handler{Func: fn, Process: proc, Msg: -1, Pos: d.Pos()}
	params := fn.Signature().Params()
	for i := 0; i < params.Len(); i++ {
		if !r.receivable(params.At(i).Type()) {
			continue
		}
		if h.Msg >= 0 {
			r.errorf(d.Pos(), d.Comment.End(),
				"handler %s has two parameters that can carry a message, %s and %s: a handler receives at most one message",
				fn.Name(), params.At(h.Msg).Name(), params.At(i).Name())
			return
		}
		h.Msg = i
	}
	if d.List != nil {
		if h.Msg < 0 {
			r.errorf(d.Pos(), d.Comment.End(),
				"//sync:handler %s==%s on %s, which receives no message: a condition qualifies the message a handler receives", d.List[0].Text, d.List[1].Text, fn.Name())
			return
		}
		m := r.ann.MsgOf(params.At(h.Msg).Type())
		if m == nil {
			r.errorf(d.Pos(), d.Comment.End(),
				"//sync:handler %s==%s on %s, whose message is an interface: a condition qualifies a message type", d.List[0].Text, d.List[1].Text, fn.Name())
			return
		}
		if h.Pre = r.localCond(d, m.Type); h.Pre == nil {
			return
		}
	}
	r.ann.Handlers[fn] = h
}

// receivable reports whether a handler's parameter of type t is a received
// message: a //sync:msg type, a pointer to one, or an interface that some
// message type implements.
func (r *resolver) receivable(t types.Type) bool {
	if r.ann.MsgOf(t) != nil {
		return true
	}
	iface, ok := types.Unalias(t).Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for tn := range r.ann.Msgs {
		mt := tn.Type()
		if n, ok := mt.(*types.Named); ok && n.TypeParams().Len() > 0 {
			continue // Implements is unspecified for a generic type
		}
		if types.Implements(mt, iface) || !types.IsInterface(mt) && types.Implements(types.NewPointer(mt), iface) {
			return true
		}
	}
	return false
}

// checkProcesses reports each process type tagged in this package that no
// handler of this package belongs to: nothing of it is checked.
func (r *resolver) checkProcesses() {
	has := make(map[*Process]bool)
	for _, h := range r.ann.Handlers {
		has[h.Process] = true
	}
	var procs []*Process
	for _, p := range r.ann.Processes {
		if !p.Imported && !has[p] {
			procs = append(procs, p)
		}
	}
	srcpos.SortFunc(r.pass.Fset, procs, func(p *Process) token.Pos { return p.Pos })
	for _, p := range procs {
		r.errorf(p.Pos, p.Directive.Comment.End(),
			"process type %s has no //sync:handler: nothing is checked; annotate its entry points (the methods the driver calls) with //sync:handler", p.Type.Name())
	}
}

// resolveLocal resolves //sync:local F==C on a message type.
func (r *resolver) resolveLocal(d *Directive, attached map[*ast.CommentGroup]attachment) {
	tn := r.namedType(d, attached, "//sync:local pkg.T F==C")
	if tn == nil {
		return
	}
	m := r.ann.Msgs[tn]
	if m == nil {
		if r.failed[tn] {
			return // its //sync:msg is reported
		}
		r.errorf(d.Pos(), d.Comment.End(),
			"//sync:local on %s, which has no //sync:msg: a local condition qualifies a message type", tn.Name())
		return
	}
	lc := r.localCond(d, tn)
	if lc == nil {
		return
	}
	for _, prev := range m.Locals {
		if prev.Text == lc.Text {
			p := r.errorf(d.Pos(), d.Comment.End(), "%s already has //sync:local %s", tn.Name(), lc.Text)
			p.Related = append(p.Related, Related{Pos: prev.Pos, Message: "first //sync:local"})
			return
		}
	}
	m.Locals = append(m.Locals, lc)
	m.localsHere = true
}

// localCond resolves the condition F==C of d (//sync:local, or
// //sync:handler F==C) on the message type tn; nil after reporting a
// problem.
func (r *resolver) localCond(d *Directive, tn *types.TypeName) *LocalCond {
	left, right := d.List[0], d.List[1]
	lc := &LocalCond{Text: left.Text + "==" + right.Text, Pos: d.Pos()}
	if left.Call {
		fn, ok := r.methodComponent(tn, left)
		if !ok {
			return nil
		}
		lc.Left = Component{Kind: Method, Text: left.Text, Method: fn}
	} else {
		fields, index, err := fieldPath(tn.Type(), r.pass.Pkg, "", left.Path)
		if err != nil {
			if _, isMethod := err.(errMethod); isMethod {
				r.itemErrorf(left, "%v: write %s() to test the method's result", err, left.Text)
			} else {
				r.itemErrorf(left, "%v", err)
			}
			return nil
		}
		if t := fields[len(fields)-1].Type(); !isInteger(t) {
			r.itemErrorf(left, "field %s.%s has type %s: //sync:local tests an integer (for a pointer field, name its getter: Get%s())",
				typeString(tn.Type(), r.pass.Pkg), left.Text, typeString(t, r.pass.Pkg), left.Path[len(left.Path)-1])
			return nil
		}
		lc.Left = Component{Kind: Field, Text: left.Text, Fields: fields, FieldIndex: index}
	}
	lt := lc.Left.Type()
	if right.Path == nil {
		lc.Value = parseInt(strings.ReplaceAll(right.Text, "_", ""))
		if lc.Value.Kind() != constant.Int {
			r.itemErrorf(right, "%s is not an integer literal", right.Text)
			return nil
		}
	} else {
		k := r.lookupConst(d, right)
		if k == nil || !isInteger(k.Type()) || k.Val().Kind() != constant.Int {
			r.itemErrorf(right, "%s is not an integer constant in scope", right.Text)
			return nil
		}
		_, kNamed := types.Unalias(k.Type()).(*types.Named)
		if kNamed && !types.Identical(k.Type(), lt) {
			r.itemErrorf(right, "constant %s has type %s but %s has type %s", right.Text,
				typeString(k.Type(), r.pass.Pkg), left.Text, typeString(lt, r.pass.Pkg))
			return nil
		}
		lc.Const, lc.Value = k, k.Val()
	}
	if b, ok := lt.Underlying().(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 && constant.Sign(lc.Value) < 0 {
		r.itemErrorf(right, "%s is negative but %s has the unsigned type %s: the condition never holds", right.Text, left.Text, typeString(lt, r.pass.Pkg))
		return nil
	}
	return lc
}

// foreignFacts collects the annotations made here on declarations of
// other packages, for the ForeignFact.
func (r *resolver) foreignFacts() {
	for tn, m := range r.ann.Msgs {
		if tn.Pkg() == r.pass.Pkg || m.Imported && !m.localsHere {
			continue
		}
		if path, err := objectpath.For(tn); err == nil {
			r.foreign.Msgs = append(r.foreign.Msgs, ForeignMsg{Pkg: tn.Pkg().Path(), Path: path, Fact: *msgFact(m)})
		}
	}
	for tn, p := range r.ann.Processes {
		if tn.Pkg() == r.pass.Pkg || p.Imported {
			continue
		}
		if path, err := objectpath.For(tn); err == nil {
			r.foreign.Processes = append(r.foreign.Processes, ForeignProcess{Pkg: tn.Pkg().Path(), Path: path, Fact: *processFact(p)})
		}
	}
	for fn, h := range r.ann.Handlers {
		if fn.Pkg() == r.pass.Pkg || h.Imported {
			continue
		}
		if path, err := objectpath.For(fn); err == nil {
			r.foreign.Handlers = append(r.foreign.Handlers, ForeignHandler{Pkg: fn.Pkg().Path(), Path: path, Fact: HandlerFact{Msg: h.Msg}})
		}
	}
	// Deterministic facts: the maps above iterate in random order.
	sort.Slice(r.foreign.Msgs, func(i, j int) bool {
		return foreignKey(r.foreign.Msgs[i].Pkg, r.foreign.Msgs[i].Path) < foreignKey(r.foreign.Msgs[j].Pkg, r.foreign.Msgs[j].Path)
	})
	sort.Slice(r.foreign.Processes, func(i, j int) bool {
		return foreignKey(r.foreign.Processes[i].Pkg, r.foreign.Processes[i].Path) < foreignKey(r.foreign.Processes[j].Pkg, r.foreign.Processes[j].Path)
	})
	sort.Slice(r.foreign.Handlers, func(i, j int) bool {
		return foreignKey(r.foreign.Handlers[i].Pkg, r.foreign.Handlers[i].Path) < foreignKey(r.foreign.Handlers[j].Pkg, r.foreign.Handlers[j].Path)
	})
}

func foreignKey(pkg string, path objectpath.Path) string { return pkg + " " + string(path) }

// lookupIndex follows the struct field indices index from a value of type
// t; nil when they do not fit it.
func lookupIndex(t types.Type, index []int) []*types.Var {
	var fields []*types.Var
	for _, k := range index {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok || k >= st.NumFields() {
			return nil
		}
		f := st.Field(k)
		fields = append(fields, f)
		t = f.Type()
	}
	return fields
}
