package tagflow2

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/ssa"
)

// Tag methods computed from the message's kind. A component written as a
// method (//sync:msg Level,Round,Step()) is often a function of one enum
// field of the message:
//
//	func (m Msg) Step() Step {
//		switch m.Kind {
//		case KindPreattestation:
//			return StepPreattest
//		case KindAttestation:
//			return StepAttest
//		}
//		return StepPropose
//	}
//
// Evaluating the method once per constant of the field's enum, with every
// other input unknown, gives the round constant each kind stands for when
// every evaluation ends in a constant: the component is then the enum
// mapping Kind{KindProposal:StepPropose, KindPreattestation:StepPreattest,
// ...} over the field, read as a mapping the user wrote is (a literal
// Msg{Kind: KindAttestation} carries StepAttest, a test of m.Kind tells
// the component). A method that reads other fields to decide, calls
// anything, writes anything or may panic for some kind keeps its opaque
// reading.

// maxEvalSteps bounds one evaluation of a method: the methods mapped are
// a few comparisons long.
const maxEvalSteps = 256

// kindMapped returns m with each method component that is a function of
// one enum field of the message (see above) replaced by the enum mapping
// over that field, and each that is a getter of a field by that field;
// m itself when there is none. The result is cached, so
// that a message type has one mapping for the whole package.
func (la *loopAnalysis) kindMapped(m *annotations.Msg) *annotations.Msg {
	if out, ok := la.sum.kindMapped[m]; ok {
		return out
	}
	la.sum.kindMapped[m] = m // a cycle derives nothing
	out := m
	for i, c := range m.Components {
		if c.Kind != annotations.Method || c.Method == nil {
			continue
		}
		f := la.fn.Prog.FuncValue(c.Method)
		if f == nil || pkgOf(f) != la.fn.Pkg {
			continue
		}
		mc, ok := kindMapping(f, c)
		if k, isConst := constResult(f); !ok && isConst && !m.Interface() {
			// A method returning a constant (func (*VoteMsg) Kind()
			// Step { return StepVote }): the type's constant round.
			mc, ok = annotations.Component{Kind: annotations.Const, Text: c.Text, Value: k.Value}, true
		}
		if fields, index, isGetter := la.getterPath(f); !ok && isGetter && !m.Interface() {
			// A getter (GetRound() returning m.Round): a read of the
			// field is a read of the component too.
			mc, ok = annotations.Component{Kind: annotations.Field, Text: c.Text, Fields: fields, FieldIndex: index}, true
		}
		if !ok {
			continue
		}
		if out == m {
			cp := *m
			cp.Components = append([]annotations.Component(nil), m.Components...)
			out = &cp
		}
		out.Components[i] = mc
	}
	la.sum.kindMapped[m] = out
	if out != m {
		la.sum.witness.origin[out] = m
	}
	return out
}

// kindMapping evaluates the method f of component c once per constant of
// the enum field its result depends on, and returns the enum mapping over
// that field.
func kindMapping(f *ssa.Function, c annotations.Component) (annotations.Component, bool) {
	if len(f.Params) != 1 || f.Signature.Results().Len() != 1 {
		return annotations.Component{}, false
	}
	to, ok := types.Unalias(f.Signature.Results().At(0).Type()).(*types.Named)
	if !ok {
		return annotations.Component{}, false
	}
	path, ok := decidingField(f)
	if !ok {
		return annotations.Component{}, false
	}
	fields, ok := fieldPath(f.Params[0].Type(), path)
	if !ok {
		return annotations.Component{}, false
	}
	from, ok := types.Unalias(fields[len(fields)-1].Type()).(*types.Named)
	if !ok {
		return annotations.Component{}, false
	}
	fromConsts, toConsts := enumConsts(from), enumConsts(to)
	if len(fromConsts) == 0 || len(toConsts) == 0 {
		return annotations.Component{}, false
	}
	em := &annotations.EnumMap{From: from, To: to}
	for _, k := range fromConsts {
		v, ok := evalMethod(f, path, k.Val())
		if !ok {
			return annotations.Component{}, false
		}
		target := constNamed(toConsts, v)
		if target == nil {
			return annotations.Component{}, false
		}
		em.Pairs = append(em.Pairs, annotations.EnumPair{From: k.Name(), To: target.Name(), FromConst: k, ToConst: target, FromValue: k.Val(), ToValue: target.Val()})
	}
	return annotations.Component{Kind: annotations.Mapped, Text: c.Text, Fields: fields, FieldIndex: path, Map: em}, true
}

// enumConsts are the constants of the package of n declared with type n.
func enumConsts(n *types.Named) []*types.Const {
	if e := annotations.EnumOf(n); e != nil {
		return e.Consts
	}
	return nil
}

// constNamed is the constant of cs whose value is v (the first by name).
func constNamed(cs []*types.Const, v constant.Value) *types.Const {
	for _, c := range cs {
		if constant.Compare(c.Val(), token.EQL, v) {
			return c
		}
	}
	return nil
}

// fieldPath resolves the struct field indices path from the receiver type
// t (a struct or a pointer to one).
func fieldPath(t types.Type, path []int) ([]*types.Var, bool) {
	var out []*types.Var
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
	return out, len(out) > 0
}

// decidingField is the one field path of the receiver of f that f
// compares with a constant; false if there is none or more than one.
func decidingField(f *ssa.Function) ([]int, bool) {
	var found []int
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			bin, ok := instr.(*ssa.BinOp)
			if !ok || !isComparison(bin.Op) {
				continue
			}
			for _, side := range []ssa.Value{bin.X, bin.Y} {
				path, ok := receiverField(f, side)
				if !ok {
					continue
				}
				if found != nil && !slices.Equal(found, path) {
					return nil, false
				}
				found = path
			}
		}
	}
	return found, found != nil
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// receiverField is the field path of f's receiver that v loads (through
// the receiver's local copy in naive form), if it is one.
func receiverField(f *ssa.Function, v ssa.Value) ([]int, bool) {
	var path []int
	for {
		switch x := v.(type) {
		case *ssa.Convert:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, false
			}
			v = x.X
			continue
		case *ssa.Field:
			path = append([]int{x.Field}, path...)
			v = x.X
			continue
		case *ssa.FieldAddr:
			path = append([]int{x.Field}, path...)
			v = x.X
			continue
		case *ssa.Alloc:
			// The receiver's local copy: the only store into it is of
			// the parameter.
			if stored := onlyStore(x); stored != f.Params[0] {
				return nil, false
			}
		case *ssa.Parameter:
			if x != f.Params[0] {
				return nil, false
			}
		default:
			return nil, false
		}
		return path, len(path) > 0
	}
}

// onlyStore is the value of the only store into a, or nil.
func onlyStore(a *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == ssa.Value(a) {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// evalMethod runs f with the receiver's field path equal to k and every
// other input unknown, and returns the constant it returns; false if a
// branch depends on something unknown, the method calls, writes memory
// other than its locals, panics, or runs too long.
func evalMethod(f *ssa.Function, path []int, k constant.Value) (constant.Value, bool) {
	vals := make(map[ssa.Value]constant.Value) // nil: unknown
	mem := make(map[*ssa.Alloc]constant.Value)
	var prev *ssa.BasicBlock
	b := f.Blocks[0]
	for range maxEvalSteps {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Phi:
				if prev == nil {
					return nil, false
				}
				for i, p := range b.Preds {
					if p == prev {
						vals[in] = vals[in.Edges[i]]
					}
				}
			case *ssa.Alloc, *ssa.DebugRef:
			case *ssa.Store:
				a, ok := in.Addr.(*ssa.Alloc)
				if !ok || a.Heap {
					return nil, false
				}
				mem[a] = valueOf(f, path, k, vals, in.Val)
			case *ssa.UnOp:
				if a, ok := in.X.(*ssa.Alloc); ok && in.Op == token.MUL {
					if v := mem[a]; v != nil {
						vals[in] = v
						continue
					}
				}
				vals[in] = valueOf(f, path, k, vals, in)
			case *ssa.If:
				c := valueOf(f, path, k, vals, in.Cond)
				if c == nil || c.Kind() != constant.Bool {
					return nil, false
				}
				prev, b = b, b.Succs[1]
				if constant.BoolVal(c) {
					b = prev.Succs[0]
				}
			case *ssa.Jump:
				prev, b = b, b.Succs[0]
			case *ssa.Return:
				if len(in.Results) != 1 {
					return nil, false
				}
				v := valueOf(f, path, k, vals, in.Results[0])
				return v, v != nil && v.Kind() == constant.Int
			case *ssa.RunDefers:
				// Nothing deferred: a Defer is a call, refused below.
			case *ssa.Call:
				if b, ok := in.Call.Value.(*ssa.Builtin); !ok || b.Name() != "ssa:deferstack" {
					return nil, false
				}
			case ssa.CallInstruction, *ssa.Panic, *ssa.MapUpdate, *ssa.Send:
				return nil, false
			case ssa.Value:
				vals[in] = valueOf(f, path, k, vals, in)
			}
		}
	}
	return nil, false
}

// valueOf is the constant v holds in the evaluation, nil if unknown.
func valueOf(f *ssa.Function, path []int, k constant.Value, vals map[ssa.Value]constant.Value, v ssa.Value) constant.Value {
	if p, ok := receiverField(f, v); ok && slices.Equal(p, path) {
		return k
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value == nil {
			return nil
		}
		return x.Value
	case *ssa.Convert:
		return valueOf(f, path, k, vals, x.X)
	case *ssa.ChangeType:
		return valueOf(f, path, k, vals, x.X)
	case *ssa.UnOp:
		if x.Op == token.NOT {
			if c := valueOf(f, path, k, vals, x.X); c != nil && c.Kind() == constant.Bool {
				return constant.MakeBool(!constant.BoolVal(c))
			}
			return nil
		}
		return vals[v]
	case *ssa.BinOp:
		if isNilCheckOfReceiver(f, x) {
			// The receiver of a component's method is the message: not nil.
			return constant.MakeBool(x.Op == token.NEQ)
		}
		a, c := valueOf(f, path, k, vals, x.X), valueOf(f, path, k, vals, x.Y)
		if a == nil || c == nil || a.Kind() == constant.Bool || c.Kind() == constant.Bool {
			return nil
		}
		if isComparison(x.Op) {
			return constant.MakeBool(constant.Compare(a, x.Op, c))
		}
		switch x.Op {
		case token.ADD, token.SUB, token.MUL:
			return constant.BinaryOp(a, x.Op, c)
		}
		return nil
	}
	return vals[v]
}

// isNilCheckOfReceiver reports whether bin compares f's pointer receiver
// with nil (the protobuf getter's guard).
func isNilCheckOfReceiver(f *ssa.Function, bin *ssa.BinOp) bool {
	if bin.Op != token.EQL && bin.Op != token.NEQ {
		return false
	}
	isRecv := func(v ssa.Value) bool {
		if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if a, ok := ld.X.(*ssa.Alloc); ok && onlyStore(a) == f.Params[0] {
				return true
			}
		}
		return v == f.Params[0]
	}
	isNil := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && c.IsNil()
	}
	_, ptr := f.Params[0].Type().Underlying().(*types.Pointer)
	return ptr && (isRecv(bin.X) && isNil(bin.Y) || isNil(bin.X) && isRecv(bin.Y))
}
