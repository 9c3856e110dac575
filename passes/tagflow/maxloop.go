package tagflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/ssa"
)

// Condition IV after a loop over the mailbox.
//
// A reception may store messages of later rounds; the process must then jump
// to the latest of them before it sends, receives or updates its state
// again, that is, its tag must be at least the tag of every stored message. Leaving a loop that
// merely assigns the tag does not show that: "if v.Round == p.round+1",
// "if v.Round > p.round && enough" or a break jump to some message, not to
// the latest. The rule is therefore a recogniser, syntactic but sound, of
// the loops that compute a bound of the mailbox's tags:
//
//	for _, m := range mbox { if m.T > x { x = m.T } }   // or x < m.T, m.T >= x, x <= m.T
//	for _, m := range mbox { x = max(x, m.T) }
//
// where mbox is the mailbox variable itself or a field of one (not a slice
// of it), m the range's value, m.T the field of one component k of the
// message's mapping, and x either the synchronization variable k or a
// local. The body is that one statement and nothing else: no other
// condition, no break, no call but the max builtin. Each iteration leaves x >= m.T and x never decreases, so
// after the loop x bounds component k of every element; a guard of any
// other shape may skip the largest element and is not accepted. A fully
// semantic check (an inductive invariant proved from the path facts at the
// back edge) would accept more shapes, but the path-by-path engine has no
// invariant to carry across iterations, and it does not count iterations
// (a path may leave the loop before it has seen every element).
//
// The loop exit records the bound (the term of x there: the tag itself, or
// the local's header phi) on the pending jump; the jump is settled at the
// next send or receive when the facts show the tag is at least the tag of
// every stored message, lexicographically: variable k at least the bound,
// the other components (constants of the message, or the relations the
// reception's filter established for the stored fields) not above the
// tag's, up to the first one below.
//
// Any other loop that assigns the tag and is not a reception (a conditional
// jump, a loop counting up to some round) leaves the jump unsure: a send or
// receive reached with it still pending is "cannot prove", since a path of
// the engine that leaves the loop without a jump may have seen fewer
// elements than there are. It is a violation when the path saw, inside such
// a loop (one that changes no collection), a stored message whose first tag
// component is above the first variable, which was not assigned since: the
// message is still there and the tag below it (seeLater).

// jumpBound is a term that bounds, from above, component k of the tag of
// every message of the mailbox.
type jumpBound struct {
	t  term
	k  int
	ei *elemInfo
}

// innerLoop returns the loop of fr containing b that is neither the tagged
// loop nor a reception, or nil.
func (e *engine) innerLoop(fr *frame, b *ssa.BasicBlock) *natLoop {
	var best *natLoop
	for _, l := range fr.loops {
		if !l.blocks[b] || fr.depth == 0 && l.header == e.header || e.hasReceive(l) {
			continue
		}
		if best == nil || len(l.blocks) < len(best.blocks) {
			best = l
		}
	}
	return best
}

// markUnsure notes on st's pending jump that the tag was assigned inside a
// loop the engine does not recognise as computing the mailbox's maximum.
func (st *pstate) markUnsure(pos token.Pos) {
	if st.pending == nil || st.pending.unsure.IsValid() {
		return
	}
	p := *st.pending
	p.unsure = pos
	st.pending = &p
}

// loopComputed is called where the tag is set from val with a jump
// pending: a struct an inner loop computed (hi after for ... { if
// hi.Before(m.Pos) { hi = m.Pos } }, a lexicographic maximum maxLoop does
// not recognise) may be the maximum the jump needs or not: unsure.
func (e *engine) loopComputed(fr *frame, st *pstate, val ssa.Value, pos token.Pos) {
	if st.pending == nil || st.pending.bound != nil || val == nil {
		return
	}
	for depth := 0; depth < 4; depth++ {
		switch v := val.(type) {
		case *ssa.Field:
			val = v.X
			continue
		case *ssa.UnOp:
			val = v.X
			continue
		case *ssa.Phi:
			if _, isStruct := v.Type().Underlying().(*types.Struct); !isStruct {
				// (A number: maxLoop knows the shapes of its maximum, and
				// one it rejects is not the tag's.)
				return
			}
			for _, l := range fr.loops {
				if l.header == v.Block() && !(fr.depth == 0 && l.header == e.header) && !e.hasReceive(l) {
					if st.pending.unsureOne && st.pending.unsure == pos {
						// Set from what the loop computed, not from
						// one message: say so.
						p := *st.pending
						p.unsure, p.unsureOne = token.NoPos, false
						st.pending = &p
					}
					st.markUnsure(pos)
					return
				}
			}
		}
		return
	}
}

// leaveInner is called on an edge leaving loop l (not a reception, not the
// tagged loop) with a jump pending: a loop computing the maximum of the
// mailbox's tags records its bound.
func (e *engine) leaveInner(fr *frame, st *pstate, l *natLoop) {
	bd := e.maxLoop(fr, st, l)
	if bd == nil {
		// A loop that sets the tag in a shape not recognised: the jump
		// cannot be told settled, nor (the engine does not count
		// iterations: it may take a path that runs the loop fewer times
		// than the mailbox has elements) missing.
		if pos := e.assignsPhase(fr, l); pos.IsValid() {
			st.markUnsure(pos)
		}
		return
	}
	p := *st.pending
	p.bound = bd
	p.unsure = token.NoPos // the bound decides
	st.pending = &p
}

// maxLoop recognises loop l as a loop over the pending jump's mailbox
// computing a bound of one component of its messages' tags (see above), and
// returns the bound's term at the loop exit.
func (e *engine) maxLoop(fr *frame, st *pstate, l *natLoop) *jumpBound {
	r := e.maxLoop1(fr, st, l)
	if debug {
		fmt.Printf("maxLoop %s block %d: %v\n", fr.fn, l.header.Index, r)
	}
	return r
}

func (e *engine) maxLoop1(fr *frame, st *pstate, l *natLoop) *jumpBound {
	p := st.pending
	if fr.fn.Syntax() == nil || fr.fn.Pkg == nil || fr.fn.Pkg.Pkg != e.pass.Pkg || len(e.vars) == 0 {
		return nil
	}
	info := e.pass.TypesInfo
	var rs *ast.RangeStmt
	ast.Inspect(fr.fn.Syntax(), func(n ast.Node) bool {
		if rs != nil {
			return false
		}
		if r, ok := n.(*ast.RangeStmt); ok && loopOf(fr.loops, r) == l {
			rs = r
		}
		return true
	})
	if rs == nil || rs.Tok != token.DEFINE || len(rs.Body.List) != 1 {
		return nil
	}
	if !pureRef(info, rs.X) {
		return nil // a part of the mailbox (mbox[1:]), or a call's result
	}
	val, ok := rs.Value.(*ast.Ident)
	if !ok || val.Name == "_" {
		return nil
	}
	elemObj := info.Defs[val]
	if elemObj == nil {
		return nil
	}
	// The collection the loop goes over: every element access of the loop
	// reads the same value, a mailbox of the pending message type.
	var coll ssa.Value
	stores := make(map[int]int) // synchronization variable -> stores
	// helperCall is the one function of the package the loop calls: a
	// helper computing the maximum (p.stepDown(m.Term)), checked below.
	var helperCall *ssa.Function
	for b := range l.blocks {
		for _, instr := range b.Instrs {
			var x ssa.Value
			switch in := instr.(type) {
			case *ssa.Next:
				if r, ok := in.Iter.(*ssa.Range); ok {
					x = r
				} else {
					return nil
				}
			case *ssa.IndexAddr:
				x = in.X
			case *ssa.Index:
				x = in.X
			case *ssa.Lookup:
				x = in.X
			case *ssa.Store:
				if i := e.varAt(fr, nil, in.Addr); i >= 0 {
					stores[i]++
				}
				continue
			case *ssa.DebugRef:
				if id, ok := ast.Unparen(in.Expr).(*ast.Ident); ok && e.writeIdents[id] {
					for i, v := range e.vars {
						if v.lifted && in.Object() == v.obj {
							stores[i]++
						}
					}
				}
				continue
			case *ssa.Call:
				if b, ok := in.Call.Value.(*ssa.Builtin); ok && b.Name() == "max" {
					continue
				}
				if helperCall == nil {
					if f := in.Call.StaticCallee(); f != nil && f.Pkg == fr.fn.Pkg {
						helperCall = f
						continue
					}
				}
				return nil
			case *ssa.Go, *ssa.Defer, *ssa.Send, *ssa.Select:
				return nil
			default:
				continue
			}
			if coll != nil && coll != x {
				return nil
			}
			coll = x
		}
	}
	if coll == nil {
		return nil
	}
	ti := st.taint[e.term(fr, st, coll)]
	if ti == nil {
		return nil
	}
	ei := ti.elem
	if _, isIter := coll.(*ssa.Range); isIter {
		ei = ti.iter
	}
	if ei == nil || ei.msg == nil || ei.msg.Name(e.pass.Pkg) != p.msg || ei.plain || ei.data {
		return nil
	}
	// It is the only live mailbox of that message type in the function
	// (values of callees that returned are left out): the jump may be
	// pending for a message stored in another one.
	for k, o := range st.taint {
		if !strings.HasPrefix(string(k), fr.ctx+"/") {
			continue
		}
		for _, oe := range []*elemInfo{o.elem, o.iter} {
			if oe != nil && oe != ei && oe.msg != nil && oe.msg.Name(e.pass.Pkg) == p.msg {
				if debug {
					fmt.Printf("maxLoop: another mailbox %s of %s\n", k, p.msg)
				}
				return nil
			}
		}
	}
	// elemComp: the tag component of the range's value that expression x
	// is, or -1.
	elemComp := func(x ast.Expr) int {
		var idx []int
		x = ast.Unparen(x)
		for {
			sel, ok := x.(*ast.SelectorExpr)
			if !ok {
				break
			}
			s := info.Selections[sel]
			if s == nil || s.Kind() != types.FieldVal {
				return -1
			}
			idx = append(append([]int(nil), s.Index()...), idx...)
			x = ast.Unparen(sel.X)
		}
		id, ok := x.(*ast.Ident)
		if !ok || info.Uses[id] != elemObj {
			return -1
		}
	comps:
		for k, c := range ei.msg.Components {
			if c.Kind != annotations.Field || len(c.FieldIndex) != len(idx) || k >= len(e.vars) {
				continue
			}
			for i := range idx {
				if idx[i] != c.FieldIndex[i] {
					continue comps
				}
			}
			return k
		}
		return -1
	}
	k := -1 // the component bounded
	isElem := func(x ast.Expr) bool {
		c := elemComp(x)
		if c >= 0 && (k < 0 || c == k) {
			k = c
			return true
		}
		return false
	}
	// The bound and the statement updating it.
	var bound ast.Expr
	switch s := rs.Body.List[0].(type) {
	case *ast.IfStmt:
		if s.Init != nil || s.Else != nil || len(s.Body.List) != 1 {
			return nil
		}
		as, ok := s.Body.List[0].(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isElem(as.Rhs[0]) {
			return nil
		}
		bound = as.Lhs[0]
		cond, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
		if !ok {
			return nil
		}
		var el, bx ast.Expr
		switch cond.Op {
		case token.GTR, token.GEQ: // m.T > x
			el, bx = cond.X, cond.Y
		case token.LSS, token.LEQ: // x < m.T
			el, bx = cond.Y, cond.X
		default:
			return nil
		}
		if !isElem(el) || !sameRef(info, bx, bound) {
			return nil
		}
	case *ast.AssignStmt:
		if s.Tok != token.ASSIGN || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return nil
		}
		call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return nil
		}
		fn, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return nil
		}
		if b, ok := info.Uses[fn].(*types.Builtin); !ok || b.Name() != "max" {
			return nil
		}
		bound = s.Lhs[0]
		a0, a1 := call.Args[0], call.Args[1]
		if !(isElem(a0) && sameRef(info, a1, bound) || isElem(a1) && sameRef(info, a0, bound)) {
			return nil
		}
	case *ast.ExprStmt:
		// p.stepDown(m.Term), whose body is the maximum's statement on
		// its parameter, the bound a synchronization variable reached
		// from the receiver.
		if helperCall == nil || len(stores) > 0 {
			return nil
		}
		c, ok := e.helperMax(fr, helperCall, s.X, elemComp)
		if !ok {
			return nil
		}
		return e.newBound(fr, st, l, c, st.cur[c], ei)
	default:
		return nil
	}
	if helperCall != nil || !pureRef(info, bound) {
		return nil
	}
	// The bound is the tag's first variable (a store or a lifted local
	// assignment to it is the loop's only write), or a local whose value
	// at the exit is its phi in the loop's header.
	if len(stores) > 0 {
		if len(stores) != 1 || stores[k] == 0 {
			return nil
		}
		return e.newBound(fr, st, l, k, st.cur[k], ei)
	}
	id, ok := ast.Unparen(bound).(*ast.Ident)
	if !ok {
		return nil
	}
	obj, ok := info.Uses[id].(*types.Var)
	if !ok || obj.IsField() || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
		return nil
	}
	for _, v := range e.vars {
		if v.obj == obj {
			return nil
		}
	}
	var phi *ssa.Phi
	for _, instr := range l.header.Instrs {
		ph, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if ph.Comment == obj.Name() {
			if phi != nil {
				return nil
			}
			phi = ph
		}
	}
	if phi == nil || !isTracked(phi.Type()) {
		return nil
	}
	return e.newBound(fr, st, l, k, e.term(fr, st, phi), ei)
}

// helperMax recognises call, the body of a loop over the mailbox, as a call
// to helper whose body is one statement computing the maximum of a tag
// component into a synchronization variable:
//
//	func (p *Node) stepDown(t int) { if t > p.term { p.term = t } }   // or p.term = max(p.term, t)
//
// called as p.stepDown(m.Term) on the process whose variable it is: the
// argument for t is component c of the range's value (elemComp), and the
// bound p.term is the synchronization variable c itself, reached from the
// receiver by the same fields. It returns c.
func (e *engine) helperMax(fr *frame, helper *ssa.Function, x ast.Expr, elemComp func(ast.Expr) int) (int, bool) {
	info := e.pass.TypesInfo
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return -1, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	decl, _ := helper.Syntax().(*ast.FuncDecl)
	if !ok || decl == nil || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 ||
		decl.Body == nil || len(decl.Body.List) != 1 || len(call.Args) != helper.Signature.Params().Len() {
		return -1, false
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.MethodVal || s.Obj() != helper.Object() {
		return -1, false
	}
	if r := helper.Signature.Recv(); r == nil || !isPointer(r.Type()) {
		return -1, false // a value receiver assigns a copy
	}
	// The caller's receiver is a variable of the loop's function.
	recvID, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return -1, false
	}
	recvObj, _ := info.Uses[recvID].(*types.Var)
	calleeRecv, _ := info.Defs[decl.Recv.List[0].Names[0]].(*types.Var)
	if recvObj == nil || calleeRecv == nil {
		return -1, false
	}
	// The parameter that gets a tag component of the message.
	var param *types.Var
	comp := -1
	for i, a := range call.Args {
		if c := elemComp(a); c >= 0 {
			if param != nil {
				return -1, false
			}
			param, comp = helper.Signature.Params().At(i), c
		}
	}
	if param == nil {
		return -1, false
	}
	isParam := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && info.Uses[id] == param
	}
	// varOf: the synchronization variable that bound is, reached from the
	// callee's receiver as the variable is from the caller's.
	varOf := func(bound ast.Expr) int {
		var fields []*types.Var
		b := ast.Unparen(bound)
		for {
			s, ok := b.(*ast.SelectorExpr)
			if !ok {
				break
			}
			sl := info.Selections[s]
			if sl == nil || sl.Kind() != types.FieldVal || len(sl.Index()) != 1 {
				return -1
			}
			fields = append([]*types.Var{sl.Obj().(*types.Var)}, fields...)
			b = ast.Unparen(s.X)
		}
		id, ok := b.(*ast.Ident)
		if !ok || info.Uses[id] != calleeRecv || len(fields) == 0 {
			return -1
		}
	vars:
		for i, v := range e.vars {
			if v.lifted || v.obj != recvObj || len(v.sv.Fields) != len(fields) {
				continue
			}
			for j := range fields {
				if v.sv.Fields[j] != fields[j] {
					continue vars
				}
			}
			return i
		}
		return -1
	}
	var bound ast.Expr
	switch s := decl.Body.List[0].(type) {
	case *ast.IfStmt:
		if s.Init != nil || s.Else != nil || len(s.Body.List) != 1 {
			return -1, false
		}
		as, ok := s.Body.List[0].(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isParam(as.Rhs[0]) {
			return -1, false
		}
		bound = as.Lhs[0]
		cond, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
		if !ok {
			return -1, false
		}
		var el, bx ast.Expr
		switch cond.Op {
		case token.GTR, token.GEQ:
			el, bx = cond.X, cond.Y
		case token.LSS, token.LEQ:
			el, bx = cond.Y, cond.X
		default:
			return -1, false
		}
		if !isParam(el) || !sameRef(info, bx, bound) {
			return -1, false
		}
	case *ast.AssignStmt:
		if s.Tok != token.ASSIGN || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return -1, false
		}
		mc, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
		if !ok || len(mc.Args) != 2 {
			return -1, false
		}
		fn, ok := ast.Unparen(mc.Fun).(*ast.Ident)
		if !ok {
			return -1, false
		}
		if b, ok := info.Uses[fn].(*types.Builtin); !ok || b.Name() != "max" {
			return -1, false
		}
		bound = s.Lhs[0]
		a0, a1 := mc.Args[0], mc.Args[1]
		if !(isParam(a0) && sameRef(info, a1, bound) || isParam(a1) && sameRef(info, a0, bound)) {
			return -1, false
		}
	default:
		return -1, false
	}
	// The bound is the synchronization variable of the argument's
	// component.
	if c := varOf(bound); c < 0 || c != comp {
		return -1, false
	}
	return comp, true
}

// newBound names the bound t at the exit of loop l with a term of its
// own, equal to t: t may be a value that dies or a name the engine gives
// to other values later, and the bound must keep its value until the next
// communication point. The name is the loop's, so that the paths that
// leave it merge; facts about a previous exit are dropped.
func (e *engine) newBound(fr *frame, st *pstate, l *natLoop, k int, t term, ei *elemInfo) *jumpBound {
	name := term("jb:" + strings.ReplaceAll(fr.ctx, ".", "_") + "/" + strconv.Itoa(l.header.Index))
	nfs := make(facts, 0, len(st.fs)+1)
	for _, f := range st.fs {
		if f.a != name && f.b != name {
			nfs = append(nfs, f)
		}
	}
	st.fs, st.fsOwned = nfs, true
	st.add(mkFact(name, token.EQL, t))
	return &jumpBound{t: name, k: k, ei: ei}
}

// pureRef reports whether x is a variable or a chain of field selections
// from one (no call, index or dereference of a computed pointer).
func pureRef(info *types.Info, x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		_, ok := info.Uses[x].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		s := info.Selections[x]
		return s != nil && s.Kind() == types.FieldVal && pureRef(info, x.X)
	}
	return false
}

// sameRef reports whether a and b are the same pure reference.
func sameRef(info *types.Info, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	switch a := a.(type) {
	case *ast.Ident:
		b, ok := b.(*ast.Ident)
		return ok && info.Uses[a] != nil && info.Uses[a] == info.Uses[b]
	case *ast.SelectorExpr:
		b, ok := b.(*ast.SelectorExpr)
		return ok && a.Sel.Name == b.Sel.Name && info.Selections[a] != nil && info.Selections[b] != nil &&
			info.Selections[a].Obj() == info.Selections[b].Obj() && sameRef(info, a.X, b.X)
	}
	return false
}

// boundSettled reports whether the pending jump's bound shows the tag is at
// least the tag of every message of the mailbox.
func (e *engine) boundSettled(st *pstate, p *pendingJump) bool {
	bd := p.bound
	if bd == nil || bd.k >= len(st.cur) {
		return false
	}
	// Lexicographically, component by component: every message is below
	// the tag once a component is below, and the next one decides while
	// they may be equal.
	comps := bd.ei.msg.Components
	for j := 0; j < len(comps) && j < len(st.cur); j++ {
		c := comps[j]
		var r rel
		switch {
		case j == bd.k:
			// Every message's component is at most the bound.
			r = composeLE(relLE, st.fs.cmp(bd.t, st.cur[j]))
		case c.Kind == annotations.Absent:
			continue
		case c.Kind == annotations.Const:
			r = st.fs.cmp(constTerm(c.Value), st.cur[j])
		case c.Kind == annotations.Field:
			if j >= len(bd.ei.rels) || j >= len(bd.ei.curs) {
				return false
			}
			r = composeLE(bd.ei.rels[j], st.fs.cmp(bd.ei.curs[j], st.cur[j]))
		}
		switch r {
		case relLT:
			return true
		case relEQ, relLE:
		default:
			return false
		}
	}
	return true
}

// composeLE composes a r1 b and b r2 c into the relation of a to c, when
// both are among <, <=, ==; relUnknown otherwise.
func composeLE(r1, r2 rel) rel {
	le := func(r rel) bool { return r == relLT || r == relLE || r == relEQ }
	switch {
	case !le(r1) || !le(r2):
		return relUnknown
	case r1 == relLT || r2 == relLT:
		return relLT
	case r1 == relEQ && r2 == relEQ:
		return relEQ
	}
	return relLE
}

// dropBounds forgets the bounds of the loops computing the mailbox's
// maximum (at a communication point, where the pending jump is settled or
// reported, and at the back edge).
func (st *pstate) dropBounds() {
	has := false
	for _, f := range st.fs {
		if strings.HasPrefix(string(f.a), "jb:") || strings.HasPrefix(string(f.b), "jb:") {
			has = true
			break
		}
	}
	if !has {
		return
	}
	nfs := make(facts, 0, len(st.fs))
	for _, f := range st.fs {
		if !strings.HasPrefix(string(f.a), "jb:") && !strings.HasPrefix(string(f.b), "jb:") {
			nfs = append(nfs, f)
		}
	}
	st.fs, st.fsOwned = nfs, true
}

// assignsPhase returns the first position where loop l of fr's function
// assigns a synchronization variable, or NoPos.
func (e *engine) assignsPhase(fr *frame, l *natLoop) token.Pos {
	first := token.NoPos
	note := func(p token.Pos) {
		if !first.IsValid() || p.IsValid() && p < first {
			first = p
		}
	}
	for b := range l.blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				if e.varAt(fr, nil, in.Addr) >= 0 {
					note(in.Pos())
				}
			case *ssa.DebugRef:
				for _, v := range e.vars {
					if id, ok := ast.Unparen(in.Expr).(*ast.Ident); ok && v.lifted && in.Object() == v.obj && e.writeIdents[id] {
						note(in.Pos())
					}
				}
			case ssa.CallInstruction:
				// A helper that assigns the tag (p.stepDown(m.Term)).
				if f := in.Common().StaticCallee(); f != nil && e.sum.writes[originOf(f)] {
					note(in.Pos())
				}
			}
		}
	}
	if !first.IsValid() {
		for b := range l.blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok && e.varAt(fr, nil, st.Addr) >= 0 {
					return l.header.Parent().Pos() // a store without a position
				}
			}
		}
	}
	return first
}

// seeLater is called on an edge inside loop l (not a reception) with a
// jump pending: when the facts show an element of the mailbox whose tag is
// above the tag (its first component above the first variable), and the
// loop does not change the mailbox, that element stays there until the
// tag is assigned again: a witness that the tag is below a stored message.
func (e *engine) seeLater(fr *frame, st *pstate, l *natLoop, pos token.Pos) {
	p := st.pending
	if p.witness.IsValid() || len(st.cur) == 0 || !e.keepsMailbox(fr, l) {
		return
	}
	for _, f := range st.fs {
		for _, t := range [2]term{f.a, f.b} {
			_, ei, idx := st.elementOf(t)
			if ei == nil || idx != 0 || ei.msg.Name(e.pass.Pkg) != p.msg {
				continue
			}
			if st.fs.cmp(t, st.cur[0]) == relGT {
				q := *p
				q.witness = pos
				st.pending = &q
				return
			}
		}
	}
}

// keepsMailbox reports whether loop l certainly leaves every collection as
// it is: no store but to the synchronization variables, no map update, no
// call but to builtins that do not change their argument.
func (e *engine) keepsMailbox(fr *frame, l *natLoop) bool {
	if v, ok := e.keeps[l]; ok {
		return v
	}
	ok := true
	for b := range l.blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				if a, isAlloc := in.Addr.(*ssa.Alloc); isAlloc && l.blocks[a.Block()] {
					continue // a variable of the iteration (the range's value)
				}
				if e.varAt(fr, nil, in.Addr) < 0 {
					ok = false
				}
			case *ssa.MapUpdate, *ssa.Go, *ssa.Defer, *ssa.Send, *ssa.Select:
				ok = false
			case *ssa.Call:
				bi, isBuiltin := in.Call.Value.(*ssa.Builtin)
				if !isBuiltin || bi.Name() == "delete" || bi.Name() == "clear" || bi.Name() == "copy" {
					ok = false
				}
			}
		}
	}
	if e.keeps == nil {
		e.keeps = make(map[*natLoop]bool)
	}
	e.keeps[l] = ok
	return ok
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}
