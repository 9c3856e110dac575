package tagflow

import (
	"fmt"
	"go/token"
	"go/types"
	"math/big"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// atomicOp is a call of package sync/atomic on the integer (or other)
// value at addr: a function (atomic.AddUint64(&p.term, 1)) or a method of
// one of its types (p.term.Add(1) on an atomic.Uint64), whose receiver is
// the address.
type atomicOp struct {
	// kind is Load, Store, Add, Swap, CompareAndSwap, And or Or.
	kind string
	addr ssa.Value
	// args are the operands after the address.
	args []ssa.Value
}

var atomicKinds = []string{"CompareAndSwap", "Load", "Store", "Add", "Swap", "And", "Or"}

// atomicCallOf recognises a call of sync/atomic.
func atomicCallOf(c *ssa.CallCommon) *atomicOp {
	if c.IsInvoke() {
		return nil
	}
	fn := calleeObj(c)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" || len(c.Args) == 0 {
		return nil
	}
	for _, k := range atomicKinds {
		if strings.HasPrefix(fn.Name(), k) {
			return &atomicOp{kind: k, addr: c.Args[0], args: c.Args[1:]}
		}
	}
	return nil
}

// writes reports whether the operation may change the value at its
// address.
func (op *atomicOp) writes() bool { return op.kind != "Load" }

// atomicCall interprets a call of sync/atomic. An operation on a
// synchronization variable reads or writes it as a load or a store would;
// on other memory, a write is a store (a message field written into the
// process state is stored, inside a reception it is a write of the
// process state).
func (e *engine) atomicCall(fr *frame, b *ssa.BasicBlock, st *pstate, in *ssa.Call, op *atomicOp) []*pstate {
	t := e.term(fr, st, in)
	i := e.varAt(fr, st, op.addr)
	pos := in.Pos()
	switch op.kind {
	case "Load":
		if i >= 0 && !st.addFact(t, token.EQL, st.cur[i]) {
			return nil
		}
	case "Store":
		if len(op.args) == 1 {
			e.store(fr, b, st, op.addr, op.args[0], pos)
		}
	case "Swap":
		if i >= 0 && !st.addFact(t, token.EQL, st.cur[i]) {
			return nil
		}
		if len(op.args) == 1 {
			e.store(fr, b, st, op.addr, op.args[0], pos)
		}
	case "Add":
		// Add returns the new value.
		if len(op.args) != 1 {
			break
		}
		delta := op.args[0]
		if i >= 0 {
			if c, ok := delta.(*ssa.Const); ok && c.Value != nil && isIntegerType(delta.Type()) {
				e.offset(st, t, st.cur[i], e.signedDelta(c))
			}
		}
		if _, info := st.tainted(e.term(fr, st, delta)); info != nil {
			st.mutTaint()[t] = info
		}
		e.storeTerm(fr, b, st, op.addr, t, nil, in.Type(), false, pos)
	case "CompareAndSwap":
		if len(op.args) != 2 {
			break
		}
		old, nw := op.args[0], op.args[1]
		var out []*pstate
		swapped := st.clone()
		if swapped.addFact(t, token.EQL, term("c:true")) &&
			(i < 0 || swapped.addFact(swapped.cur[i], token.EQL, e.term(fr, swapped, old))) {
			e.store(fr, b, swapped, op.addr, nw, pos)
			out = append(out, swapped)
		}
		if st.addFact(t, token.EQL, term("c:false")) &&
			(i < 0 || st.addFact(st.cur[i], token.NEQ, e.term(fr, st, old))) {
			out = append(out, st)
		}
		return out
	case "And", "Or":
		// They return the old value; the new one is known only to be
		// no larger (And) or no smaller (Or) when unsigned.
		if len(op.args) != 1 {
			break
		}
		if i >= 0 && !st.addFact(t, token.EQL, st.cur[i]) {
			return nil
		}
		nv := term(fmt.Sprintf("s:%s@%d", strings.ToLower(op.kind), pos))
		if i >= 0 && isUnsigned(in.Type()) {
			if op.kind == "Or" {
				st.add(mkFact(st.cur[i], token.LEQ, nv))
			} else {
				st.add(mkFact(nv, token.LEQ, st.cur[i]))
			}
		}
		if _, info := st.tainted(e.term(fr, st, op.args[0])); info != nil {
			st.mutTaint()[nv] = info
		}
		e.storeTerm(fr, b, st, op.addr, nv, nil, in.Type(), false, pos)
	}
	return []*pstate{st}
}

// signedDelta is the value an atomic Add adds, as a decimal string: an
// unsigned constant of the upper half of its type is the documented way
// to subtract (AddUint64(&x, ^uint64(c-1)) subtracts c).
func (e *engine) signedDelta(c *ssa.Const) string {
	v := new(big.Int)
	v.SetString(c.Value.ExactString(), 10)
	if isUnsigned(c.Type()) {
		bits := uint(8 * e.pass.TypesSizes.Sizeof(c.Type()))
		half := new(big.Int).Lsh(big.NewInt(1), bits-1)
		if v.Cmp(half) >= 0 {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), bits))
		}
	}
	return v.String()
}

func isUnsigned(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}
