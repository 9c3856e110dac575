package tagflow

import (
	"go/constant"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// Synchronization variables that only ever hold constants.
//
// An event loop sets the step from its cases (nd.step = Lead on a
// leader's heartbeat) with the step the loop was in unknown: condition I
// cannot order the two. When every store to the variable anywhere in the
// package is a constant, and nothing else can write it (an unexported
// field whose address does not escape, never written whole with the
// struct holding it), the variable holds one of those constants or its
// zero value at all times: setting it to the largest of them never lowers
// it.

// constRange returns the smallest and largest values variable i may hold,
// when it only ever holds constants.
func (e *engine) constRange(i int) (lo, hi int64, ok bool) {
	if e.ranges == nil {
		e.ranges = make(map[int]*[3]int64)
		for j := range e.vars {
			if l, h, ok := e.computeRange(j); ok {
				e.ranges[j] = &[3]int64{l, h, 1}
			} else {
				e.ranges[j] = &[3]int64{}
			}
		}
	}
	r := e.ranges[i]
	if r == nil || r[2] == 0 {
		return 0, 0, false
	}
	return r[0], r[1], true
}

func (e *engine) computeRange(i int) (lo, hi int64, ok bool) {
	v := e.vars[i]
	if v.lifted || len(v.sv.Fields) == 0 {
		return 0, 0, false
	}
	field := v.sv.Fields[len(v.sv.Fields)-1]
	if field.Exported() {
		return 0, 0, false // other packages may write it
	}
	if b, isBasic := field.Type().Underlying().(*types.Basic); !isBasic || b.Info()&types.IsInteger == 0 {
		return 0, 0, false
	}
	k, ok := lastFieldKey(v.sv)
	if !ok || e.sum.escaped[k] {
		return 0, 0, false
	}
	parent := k.strct
	lo, hi = 0, 0 // the zero value
	for _, f := range e.sum.all {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				st, isStore := instr.(*ssa.Store)
				if !isStore {
					continue
				}
				if fa, isField := st.Addr.(*ssa.FieldAddr); isField {
					// (Compared by origin: a generic struct's field is
					// another object in each instance.)
					if s, isStruct := derefType(fa.X.Type()).Underlying().(*types.Struct); isStruct && sameField(s.Field(fa.Field), field) {
						c, isConst := st.Val.(*ssa.Const)
						if !isConst || c.Value == nil || c.Value.Kind() != constant.Int {
							return 0, 0, false
						}
						x, exact := constant.Int64Val(c.Value)
						if !exact {
							return 0, 0, false
						}
						lo, hi = min(lo, x), max(hi, x)
						continue
					}
				}
				// The struct holding it written whole (*p = Proc{...},
				// p.st = state{...}): its value comes from elsewhere.
				if holds(derefType(st.Addr.Type()), parent, 0) {
					return 0, 0, false
				}
			}
		}
	}
	return lo, hi, true
}

// sameField reports whether a and b are the same field declaration (of a
// generic struct's instances too).
func sameField(a, b *types.Var) bool {
	return a == b || a.Origin() == b.Origin() || a.Pos().IsValid() && a.Pos() == b.Pos() && a.Name() == b.Name()
}

// holds reports whether a value of type t contains a struct s (is one, or
// has one in a field or an array), a few levels deep.
func holds(t types.Type, s *types.Struct, depth int) bool {
	if depth > 4 {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		if types.Identical(u, s) || u.NumFields() == s.NumFields() && u.NumFields() > 0 && sameField(u.Field(0), s.Field(0)) {
			return true // (an instance of the same generic struct too)
		}
		for i := range u.NumFields() {
			if holds(u.Field(i).Type(), s, depth+1) {
				return true
			}
		}
	case *types.Array:
		return holds(u.Elem(), s, depth+1)
	}
	return false
}

// rangeCmp compares cur and old of variable i by its constant range, when
// the facts do not: a constant at the top of the range is at least
// whatever the variable held.
func (e *engine) rangeCmp(st *pstate, i int) (rel, bool) {
	lo, hi, ok := e.constRange(i)
	if !ok {
		return relUnknown, false
	}
	cur, old := st.cur[i], st.old[i]
	if c, isConst := constInt(cur); isConst {
		switch {
		case c > hi:
			return relGT, true
		case c == hi:
			return relGE, true
		}
	}
	if c, isConst := constInt(old); isConst && c <= lo {
		return relGE, true
	}
	return relUnknown, false
}

// constInt returns the integer a constant term names.
func constInt(t term) (int64, bool) {
	if !t.isConst() {
		return 0, false
	}
	x, err := strconv.ParseInt(string(t)[2:], 10, 64)
	return x, err == nil
}
