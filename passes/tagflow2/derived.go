package tagflow2

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/ssa"
)

// Concrete implementations of interface messages. When //sync:msg maps
// an interface through methods (Height(),ViewNumber()), the values sent
// are of concrete struct types that implement it, unannotated. Where each
// such method is a getter (it returns a field of its receiver, through
// embedded structs and conversions), the concrete type is a message type
// too, with the fields the getters return as its components: building
// one sets its tag, and sending it is checked. A type whose getters are
// not all plain field reads gets no mapping (its sends stay "cannot
// prove").

// derivedMsg returns the mapping of t (or *t) derived from an interface
// message it implements, nil if there is none.
func (la *loopAnalysis) derivedMsg(t types.Type) *annotations.Msg {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok || n.TypeParams().Len() > 0 {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok || n.Obj().Pkg() != la.fn.Pkg.Pkg {
		return nil
	}
	if m, ok := la.sum.derived[n.Obj()]; ok {
		return m
	}
	la.sum.derived[n.Obj()] = nil // a cycle (a getter returning another message) derives nothing
	var out *annotations.Msg
	for _, im := range la.ann.Msgs {
		if !im.Interface() {
			continue
		}
		iface, ok := im.Type.Type().Underlying().(*types.Interface)
		if !ok || !(types.Implements(n, iface) || types.Implements(types.NewPointer(n), iface)) {
			continue
		}
		if m := la.deriveFrom(n, im); m != nil {
			out = m
			la.sum.ifaceOf[m] = im
			// A send of the type puts a message of the interface on
			// the wire: witnesses are the interface's.
			la.sum.witness.origin[m] = im
			break
		}
	}
	la.sum.derived[n.Obj()] = out
	return out
}

// deriveFrom maps n's fields onto the components of the interface
// message im, through n's getters.
func (la *loopAnalysis) deriveFrom(n *types.Named, im *annotations.Msg) *annotations.Msg {
	comps := make([]annotations.Component, len(im.Components))
	for i, c := range im.Components {
		if c.Kind != annotations.Method {
			comps[i] = c
			continue
		}
		obj, path, _ := types.LookupFieldOrMethod(types.NewPointer(n), true, n.Obj().Pkg(), c.Method.Name())
		fn, ok := obj.(*types.Func)
		if !ok {
			return nil
		}
		f := la.fn.Prog.FuncValue(fn)
		if f == nil {
			return nil
		}
		if k, ok := constResult(f); ok {
			// A method returning a constant (func (Prepare) Kind() Kind
			// { return KindPrepare }): the type's constant round.
			comps[i] = annotations.Component{Kind: annotations.Const, Text: c.Text, Value: k.Value}
			continue
		}
		comp := annotations.Component{Kind: annotations.Field, Text: c.Text}
		if fields, index, ok := la.getterPath(f); ok {
			comp.Fields, comp.FieldIndex = fields, index
		} else if mc, ok := kindMapping(f, c); ok {
			// A method computed from the type's kind (see methodmap.go).
			comp = mc
		} else {
			return nil
		}
		// A method promoted from an embedded struct (a common header):
		// the path goes through the embedded fields first.
		embedded, ok := embeddedFields(n, path[:len(path)-1])
		if !ok {
			return nil
		}
		comp.Fields = append(embedded, comp.Fields...)
		comp.FieldIndex = append(slices.Clone(path[:len(path)-1]), comp.FieldIndex...)
		comps[i] = comp
	}
	return &annotations.Msg{Type: n.Obj(), Components: comps, Pos: token.NoPos}
}

// getterPath recognises f as a getter: it returns a field of its receiver
// (possibly converted), in one block, or, in the protobuf style, in the
// branch where the receiver is not nil, and a zero constant in the other
// (a nil message reads as zero). It returns the field path.
func (la *loopAnalysis) getterPath(f *ssa.Function) ([]*types.Var, []int, bool) {
	if len(f.Params) == 0 || len(f.Blocks) == 0 {
		return nil, nil, false
	}
	var ret *ssa.Return
	for _, b := range f.Blocks {
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(r.Results) != 1 {
			return nil, nil, false
		}
		if len(f.Blocks) > 1 && isZeroConst(throughLocal(r.Results[0])) {
			continue
		}
		if ret != nil {
			return nil, nil, false
		}
		ret = r
	}
	if ret == nil || len(f.Blocks) > 1 && !guardsNil(f) {
		return nil, nil, false
	}
	v := throughLocal(ret.Results[0])
	for {
		switch c := v.(type) {
		case *ssa.Convert:
			v = c.X
			continue
		case *ssa.ChangeType:
			v = c.X
			continue
		}
		break
	}
	var fields []*types.Var
	var index []int
	var x ssa.Value
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		// h.V through the address: &t.V, loaded.
		x = ld.X
		for {
			fa, ok := x.(*ssa.FieldAddr)
			if !ok {
				break
			}
			fv := fieldOf(fa)
			if fv == nil {
				return nil, nil, false
			}
			fields = append([]*types.Var{fv}, fields...)
			index = append([]int{fa.Field}, index...)
			x = fa.X
		}
	} else {
		// h.V of a value: field selections of the loaded receiver.
		x = v
		for {
			fd, ok := x.(*ssa.Field)
			if !ok {
				break
			}
			st, ok := fd.X.Type().Underlying().(*types.Struct)
			if !ok {
				return nil, nil, false
			}
			fields = append([]*types.Var{st.Field(fd.Field)}, fields...)
			index = append([]int{fd.Field}, index...)
			x = fd.X
		}
	}
	if len(fields) == 0 {
		return nil, nil, false
	}
	// The base is the receiver: its spill (a value receiver), or the
	// pointer loaded from its spill (a pointer receiver).
	if p, ok := la.paramOf(x); ok && p == f.Params[0] {
		return fields, index, true
	}
	if l, ok := x.(*ssa.UnOp); ok && l.Op == token.MUL {
		if p, ok := la.paramOf(l.X); ok && p == f.Params[0] {
			return fields, index, true
		}
	}
	if p, ok := x.(*ssa.Parameter); ok && p == f.Params[0] {
		return fields, index, true
	}
	return nil, nil, false
}

// isZeroConst reports whether v is the zero constant of its type.
func isZeroConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	switch {
	case c.Value == nil:
		return true
	case c.Value.Kind() == constant.Int || c.Value.Kind() == constant.Float:
		return constant.Sign(c.Value) == 0
	case c.Value.Kind() == constant.String:
		return constant.StringVal(c.Value) == ""
	case c.Value.Kind() == constant.Bool:
		return !constant.BoolVal(c.Value)
	}
	return false
}

// guardsNil reports whether f's entry block ends in a test of its receiver
// against nil (if m != nil, or m == nil), the only branch of a protobuf
// getter.
func guardsNil(f *ssa.Function) bool {
	if len(f.Blocks) > 3 {
		return false
	}
	iff, ok := f.Blocks[0].Instrs[len(f.Blocks[0].Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := iff.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL {
		return false
	}
	x, y := cmp.X, cmp.Y
	if isNilOrZero(x) {
		x, y = y, x
	}
	if !isNilOrZero(y) {
		return false
	}
	if ld, ok := x.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if p, ok := paramSpilled(ld.X); ok {
			return p == f.Params[0]
		}
	}
	p, ok := x.(*ssa.Parameter)
	return ok && p == f.Params[0]
}

// paramSpilled is the parameter stored into the local a at the entry.
func paramSpilled(a ssa.Value) (*ssa.Parameter, bool) {
	al, ok := a.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	for _, r := range *al.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a {
			if p, ok := st.Val.(*ssa.Parameter); ok {
				return p, true
			}
		}
	}
	return nil, false
}

// constResult is the constant f returns, if its body is one return of a
// constant.
func constResult(f *ssa.Function) (*ssa.Const, bool) {
	if len(f.Blocks) != 1 {
		return nil, false
	}
	instrs := f.Blocks[0].Instrs
	ret, ok := instrs[len(instrs)-1].(*ssa.Return)
	if !ok || len(ret.Results) != 1 {
		return nil, false
	}
	c, ok := throughLocal(ret.Results[0]).(*ssa.Const)
	return c, ok && c.Value != nil
}

// embeddedFields are the fields of the struct n selected by the indices
// of an embedding path.
func embeddedFields(n *types.Named, path []int) ([]*types.Var, bool) {
	var out []*types.Var
	var t types.Type = n
	for _, i := range path {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil, false
		}
		out = append(out, st.Field(i))
		t = st.Field(i).Type()
	}
	return out, true
}

// throughLocal is what v, a load of a local that one store wrote, holds:
// naive SSA returns a function's result through such a local.
func throughLocal(v ssa.Value) ssa.Value {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return v
	}
	a, ok := ld.X.(*ssa.Alloc)
	if !ok || a.Comment != "" {
		return v
	}
	// The store just before the load in its block (a result local written
	// on each path, then returned), or else the only store.
	instrs := ld.Block().Instrs
	for i := slices.Index(instrs, ssa.Instruction(ld)) - 1; i >= 0; i-- {
		if st, ok := instrs[i].(*ssa.Store); ok && st.Addr == ssa.Value(a) {
			return st.Val
		}
	}
	var val ssa.Value
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == ssa.Value(a) {
			if val != nil {
				return v
			}
			val = st.Val
		}
	}
	if val == nil {
		return v
	}
	return val
}
