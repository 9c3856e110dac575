package tagflow2

import (
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"
	"honnef.co/go/tools/analysis/dfa/dense"
)

// maxCallDepth bounds the chain of package functions analysed for one
// call. Deeper chains are calls the analysis does not follow, which makes
// what they may do "cannot prove".
const maxCallDepth = 8

// followable returns the package function c calls when the analysis
// follows it: a static call of a function with a body in the package, not
// already being analysed (recursion) and within the depth bound.
func (la *loopAnalysis) followable(c *ssa.CallCommon) *ssa.Function {
	f := c.StaticCallee()
	if f == nil && !c.IsInvoke() {
		f = la.funcArgs[la.paramValue(c.Value)]
	}
	if f == nil || len(f.Blocks) == 0 || (pkgOf(f) != la.fn.Pkg && !la.wrapsPackageMethod(f)) {
		return nil
	}
	if slices.Contains(la.calls, f) || f == la.fn {
		return nil // recursion (see scc.go)
	}
	if len(la.calls) >= maxCallDepth {
		// What the call does is then cut off where it is reached: an
		// analysis of a caller that met it holds at this depth only
		// (see callFunction). Synthetic wrappers (an instance of a
		// generic method) count: not counting them makes generic code
		// followed twice as deep, at ten times the cost on dBFT.
		la.truncated++
		return nil
	}
	return f
}

// wrapsPackageMethod reports whether f is a synthetic wrapper (a bound
// method value h.isCurrent, a promoted method) around a method of the
// package: following it follows the method.
func (la *loopAnalysis) wrapsPackageMethod(f *ssa.Function) bool {
	if f.Synthetic == "" || f.Pkg != nil {
		return false
	}
	fn, ok := f.Object().(*types.Func)
	return ok && fn.Pkg() == la.fn.Pkg.Pkg
}

// pkgOf is the package whose source f comes from: its own, or for an
// instance of a generic function (built with InstantiateGenerics), the
// generic function's.
func pkgOf(f *ssa.Function) *ssa.Package {
	if f.Pkg == nil && f.Origin() != nil {
		return f.Origin().Pkg
	}
	return f.Pkg
}

// callFunction interprets a call of a package function by analysing its
// body in the caller's state: the tag, its relation to the last
// communication point, every term the caller holds and the pending jumps
// go in; what comes out at the callee's returns is the state after the
// call, and the returned message or collection, if any, the call's value.
// Each callee's analysis is kept per entry state, so a call visited again
// by the caller's fixpoint in the same state costs nothing; when checking
// (the last pass), the callee's code is checked where the call is.
func (la *loopAnalysis) callFunction(s *state, f *ssa.Function, c *ssa.CallCommon, instr *ssa.Call) {
	la.dropDead(s, instr)
	entry := s.clone()
	entry.regs = make(map[ssa.Value]ref)
	args := c.Args
	for i, p := range f.Params {
		if i < len(args) {
			// A parameter is the caller's value: what the callee learns
			// of it (a filter in a predicate helper) holds in the caller.
			if r, ok := s.regs[args[i]]; ok {
				entry.regs[p] = r
			} else if isPointer(args[i].Type()) && la.msgOf(args[i].Type()) != nil {
				// A pointer to a message (p.broadcast(&Msg{...})): the
				// message it points to.
				if r, ok := la.addrRef(entry, args[i]); ok && r.comp == wholeComp {
					entry.regs[p] = r
				}
			}
		}
	}
	binds := la.bindFuncArgs(f, args)
	consts := make(map[*ssa.Parameter]*ssa.Const)
	for i, p := range f.Params {
		if i < len(args) {
			if c, ok := args[i].(*ssa.Const); ok {
				consts[p] = c
			} else if c, ok := la.constArgs[la.paramValue(args[i])]; ok {
				consts[p] = c
			}
		}
	}
	for p, c := range consts {
		la.constArgs[p] = c
	}
	ptrs := la.bindPointees(f, args)
	defer func() {
		for p := range binds {
			delete(la.funcArgs, p)
		}
		for p := range ptrs {
			delete(la.pointees, p)
		}
		for p := range consts {
			delete(la.constArgs, p)
		}
	}()
	var out calleeExit
	found := false
	rec := la.recursionKey(f)
	if !la.reporting {
		for _, m := range la.memo[f] {
			if slices.Equal(m.rec, rec) && (m.depth < 0 || m.depth == len(la.calls)) && maps.Equal(m.binds, binds) && maps.Equal(m.ptrs, ptrs) && maps.Equal(m.consts, consts) && (lattice{}).Equals(m.entry, entry) {
				out, found = m.out, true
				break
			}
		}
	}
	if !found {
		cut := la.truncated
		out = la.analyseCallee(f, entry, instr)
		if !la.reporting {
			m := memoEntry{entry: entry, binds: binds, ptrs: ptrs, consts: consts, out: out, rec: rec, depth: -1}
			if la.truncated != cut {
				m.depth = len(la.calls)
			}
			la.memo[f] = append(la.memo[f], m)
		}
	}
	exit, result := out.exit, out.result
	if exit == nil {
		// The callee never returns (it panics or loops forever): what
		// follows the call is unreachable through it; keep the caller's
		// state, which over-approximates.
		return
	}
	regs := s.regs
	*s = *la.afterCall(exit, regs, instr, result)
	if out.ifTrue != nil || out.ifFalse != nil {
		la.predicates[instr] = predicate{
			after:   s.clone(),
			ifTrue:  la.afterCall(out.ifTrue, regs, instr, out.resultTrue),
			ifFalse: la.afterCall(out.ifFalse, regs, instr, out.resultFalse),
		}
	} else {
		delete(la.predicates, instr)
	}
}

// bindFuncArgs records the functions passed to f's parameters of
// function type (a function, a closure, or a function the caller was
// itself passed), so that f's calls of them are followed: a generic
// Select(pred) or a sort with a comparison closure.
func (la *loopAnalysis) bindFuncArgs(f *ssa.Function, args []ssa.Value) map[*ssa.Parameter]*ssa.Function {
	var binds map[*ssa.Parameter]*ssa.Function
	for i, p := range f.Params {
		if i >= len(args) {
			break
		}
		var g *ssa.Function
		switch a := args[i].(type) {
		case *ssa.Function:
			g = a
		case *ssa.MakeClosure:
			g, _ = a.Fn.(*ssa.Function)
		default:
			g = la.funcArgs[la.paramValue(a)]
		}
		if g == nil {
			continue
		}
		if binds == nil {
			binds = make(map[*ssa.Parameter]*ssa.Function)
		}
		binds[p] = g
	}
	for p, g := range binds {
		la.funcArgs[p] = g
	}
	return binds
}

// bindPointees records, for f's pointer parameters, the caller's
// location each argument points to (see accessPath). They are computed
// in the caller's frame before any is bound.
func (la *loopAnalysis) bindPointees(f *ssa.Function, args []ssa.Value) map[*ssa.Parameter]loc {
	var ptrs map[*ssa.Parameter]loc
	for i, p := range f.Params {
		if i >= len(args) || !isPointer(p.Type()) {
			continue
		}
		if to, ok := la.pointee(args[i]); ok {
			if ptrs == nil {
				ptrs = make(map[*ssa.Parameter]loc)
			}
			ptrs[p] = to
		}
	}
	for p, to := range ptrs {
		la.pointees[p] = to
	}
	return ptrs
}

// paramValue is the parameter v is, directly or loaded from the local
// naive SSA spills it to; nil if none.
func (la *loopAnalysis) paramValue(v ssa.Value) *ssa.Parameter {
	switch v := v.(type) {
	case *ssa.Parameter:
		return v
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if p, ok := la.paramOf(v.X); ok {
				return p
			}
		}
	}
	return nil
}

// afterCall is the caller's state after the call instr, from the
// callee's state at its returns: the caller's registers, and the call's
// value.
func (la *loopAnalysis) afterCall(exit *state, regs map[ssa.Value]ref, instr *ssa.Call, result *term) *state {
	if exit == nil {
		return nil
	}
	s := exit.clone()
	s.regs = maps.Clone(regs)
	delete(s.regs, instr)
	for key := range s.pending {
		// A mailbox local to the callee that nothing read since a later
		// round's message went in ends with the call (what it returns is
		// the call's value).
		if a, ok := key.loc.base.(*ssa.Alloc); ok && !a.Heap && a.Parent() != instr.Parent() && !s.readPending[key] {
			delete(s.pending, key)
		}
	}
	for key := range s.terms {
		// The callee's registers (and its callees') are out of reach
		// once it returns, unless a frame still on the stack is of the
		// same function (recursion).
		v, ok := key.reg.(ssa.Instruction)
		if !ok || v.Parent() == la.fn || slices.Contains(la.calls, v.Parent()) {
			continue
		}
		if _, pending := s.pending[key]; !pending {
			s.delTerm(key)
		}
	}
	if result != nil {
		s.setTerm(regKey(instr), *result)
		s.regs[instr] = ref{key: regKey(instr), comp: wholeComp}
	}
	return s
}

// A predicate is what a call of a function returning a bool tells the
// caller's branch on its result: the state after the call, and the states
// at the callee's returns of true and of false.
type predicate struct {
	after, ifTrue, ifFalse *state
}

// A calleeExit is the result of analysing a call: the join of the states
// at the callee's returns, the message or collection it returns, and, for
// a function returning one bool, the joins of the returns of true and of
// false.
type calleeExit struct {
	exit, ifTrue, ifFalse *state
	result                *term
	// resultTrue and resultFalse are the results of the returns of true
	// and of false, for a function whose last result is a bool.
	resultTrue, resultFalse *term
}

// analyseCallee runs the fixpoint over f's body from entry and returns
// the join of the states at its returns, and of its returned message or
// collection.
func (la *loopAnalysis) analyseCallee(f *ssa.Function, entry *state, call *ssa.Call) calleeExit {
	outer := len(la.calls) == 0
	if outer {
		la.calledInRegion = la.inRegion(call)
		la.callSite = call.Pos()
		la.callInstr = call
	}
	la.calls = append(la.calls, f)
	if la.followed != nil {
		la.followed[f] = true
	}
	defer func() {
		la.calls = la.calls[:len(la.calls)-1]
	}()
	reporting := la.reporting
	la.reporting = false
	res := la.fixpoint(f, entry)
	la.reporting = reporting
	var out calleeExit
	// A function whose last result is a bool (a predicate, or m, ok :=
	// recv()) tells the caller's branch on it which returns it came from.
	results := f.Signature.Results()
	boolResult := results.Len() >= 1 && isBool(results.At(results.Len()-1).Type())
	for _, b := range f.Blocks {
		for _, in := range res.In(b.Index) {
			end := la.block(b, in) // checks the callee's code when reporting
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || end == nil {
				continue
			}
			out.exit = (lattice{}).Merge(out.exit, end)
			canTrue, canFalse := true, true
			if boolResult {
				last := ret.Results[len(ret.Results)-1]
				la.boolReturn(&out, res, b, last, end)
				if c, ok := la.boolConst(end, last); ok {
					canTrue, canFalse = c, !c
				}
			}
			for _, v := range ret.Results {
				if r, ok := end.regs[v]; ok && r.comp == wholeComp {
					t := end.terms[r.key]
					out.result = joinResult(out.result, t)
					if canTrue {
						out.resultTrue = joinResult(out.resultTrue, t)
					}
					if canFalse {
						out.resultFalse = joinResult(out.resultFalse, t)
					}
				}
			}
		}
	}
	return out
}

// boolConst reports the constant the boolean v is in s, if it is one: a
// constant, or a load of the local a constant was stored into (naive SSA
// returns through the results' locals when the function defers).
func (la *loopAnalysis) boolConst(s *state, v ssa.Value) (bool, bool) {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if l, ok := la.accessPath(ld.X); ok {
			if bv, ok := s.bools[l]; ok {
				v = bv
			}
		}
	}
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(c.Value), true
}

// joinResult is the join of a returned message or collection with the
// others returned, if any.
func joinResult(r *term, t term) *term {
	if r == nil {
		return &t
	}
	j := r.join(t)
	return &j
}

// boolReturn adds the return of the boolean v at the end of b, in the
// state end, to the states of the returns of true and of false.
func (la *loopAnalysis) boolReturn(out *calleeExit, res *dense.Analysis[parts, int], b *ssa.BasicBlock, v ssa.Value, end *state) {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		// Naive SSA returns through the result's local: each path
		// into the return block stored its own value there (a
		// constant, or a comparison), which the join of the paths
		// forgets; take each incoming edge's state on its own.
		if l, ok := la.accessPath(ld.X); ok {
			if bv, ok := end.bools[l]; ok {
				v = bv
			} else if len(b.Preds) > 0 {
				for _, pred := range b.Preds {
					for _, in := range res.Edge(pred.Index, b.Index) {
						e := la.block(b, in)
						out.ifTrue = (lattice{}).Merge(out.ifTrue, la.returning(e, v, true))
						out.ifFalse = (lattice{}).Merge(out.ifFalse, la.returning(e, v, false))
					}
				}
				return
			}
		}
	}
	phi, ok := v.(*ssa.Phi)
	if !ok || phi.Block() != b {
		out.ifTrue = (lattice{}).Merge(out.ifTrue, la.returning(end, v, true))
		out.ifFalse = (lattice{}).Merge(out.ifFalse, la.returning(end, v, false))
		return
	}
	la.phiOutcomes(out, res, phi, nil, 0)
}

// phiOutcomes adds the returns of the boolean phi: a && b and a || b
// return a phi, and each incoming edge returns its own operand, in the
// state of that edge carried through the blocks after (from the phi's
// block to the return). An operand that is itself the phi of the
// incoming block (a || b && c) is followed the same way.
func (la *loopAnalysis) phiOutcomes(out *calleeExit, res *dense.Analysis[parts, int], phi *ssa.Phi, after []*ssa.BasicBlock, depth int) {
	pb := phi.Block()
	for i, pred := range pb.Preds {
		op := phi.Edges[i]
		if inner, ok := op.(*ssa.Phi); ok && inner.Block() == pred && depth < 4 {
			la.phiOutcomes(out, res, inner, append([]*ssa.BasicBlock{pb}, after...), depth+1)
			continue
		}
		for _, in := range res.Edge(pred.Index, pb.Index) {
			e := la.block(pb, in)
			for _, next := range after {
				e = la.block(next, e)
			}
			out.ifTrue = (lattice{}).Merge(out.ifTrue, la.returning(e, op, true))
			out.ifFalse = (lattice{}).Merge(out.ifFalse, la.returning(e, op, false))
		}
	}
}

// returning restricts the state at a return of the boolean v to the
// executions that return want: a constant that is not want is none, a
// comparison is assumed to hold (or not).
func (la *loopAnalysis) returning(s *state, v ssa.Value, want bool) *state {
	if s == nil {
		return nil
	}
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if l, ok := la.accessPath(ld.X); ok {
			if bv, ok := s.bools[l]; ok {
				v = bv
			}
		}
	}
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
		if constant.BoolVal(c.Value) != want {
			return nil
		}
		return s
	}
	return la.branch(s, v, want)
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// paramOf returns the parameter whose spill addr is: in naive form a
// function's entry stores each parameter in a local, and when nothing
// else stores there, a load of it is the parameter.
func (la *loopAnalysis) paramOf(addr ssa.Value) (*ssa.Parameter, bool) {
	a, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	f := a.Parent()
	spills, ok := la.spills[f]
	if !ok {
		spills = make(map[*ssa.Alloc]*ssa.Parameter)
		stores := make(map[*ssa.Alloc]int)
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if al, ok := st.Addr.(*ssa.Alloc); ok {
					stores[al]++
					if p, ok := st.Val.(*ssa.Parameter); ok && b.Index == 0 {
						spills[al] = p
					}
				}
			}
		}
		for al := range spills {
			if stores[al] != 1 {
				delete(spills, al)
			}
		}
		la.spills[f] = spills
	}
	p, ok := spills[a]
	return p, ok
}
