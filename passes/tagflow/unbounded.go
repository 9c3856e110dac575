package tagflow

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/ssa"
)

// Refuting condition I when the tag held a received value that nothing
// bounds above.
//
// The facts of a path say what the path implies; "cur < old" merely
// consistent with them is not a violation, since facts are dropped along
// the way (memory between blocks, what filters said once a message is in a
// mailbox) and the dropped ones may rule it out. One case is decided
// without them: the old value of variable i is a tag component x of a
// received message, every constraint of the path on x is one that holds
// again when x is made larger (x >= y, x > y, x != y with y independent of
// x, anything about x % k), and the new value does not depend on x. Then
// the same path, with the message carrying a large enough x, sets the
// variable lower (the Multi-Paxos replica that numbers its ballots
// attempt*n+id after it joined a later leader's ballot).
//
// To know that, the engine follows, along each path, which values depend
// on received tag components (their "form"), and gives up (poison) where
// such a value goes somewhere it does not follow: memory other than the
// synchronization variables and messages being built, calls it does not
// interpret. A root is a received message (its taintInfo's xid) or a
// mailbox (its elemInfo's xid); a message stored into a mailbox passes on
// its constraints, and every element read from a mailbox has the
// mailbox's root: if one element is bounded, none can serve.
//
// A root is one tag component of a received message or of a mailbox's
// elements (xroot): the witness changes that component only, so the
// path's tests of the others (m.Step == Estimate) bound nothing it needs.
// A message or a mailbox handed to a call is bounded in every component
// (its whole root).

// xroot is the root of component i of the message or mailbox numbered
// xid. Components past the fourteenth share one root, which only bounds
// more.
func xroot(xid, i int) int {
	if xid <= 0 {
		return -1
	}
	return xid<<4 | (min(i, 14) + 1)
}

// xwhole is the root standing for every component of root r's message or
// mailbox.
func xwhole(r int) int {
	if r <= 0 {
		return r
	}
	return r &^ 15
}

// isCapped reports whether root r is bounded on the path.
func (x *xstate) isCapped(r int) bool {
	return x.capped[r] || x.capped[xwhole(r)] || r > 0 && r>>4 <= x.lossy
}

// xkind is how a value depends on its root's value x.
type xkind uint8

const (
	xNone     xkind = iota // independent of every root
	xSame                  // x + c, c independent of x
	xPeriodic              // (x + c) % k, k independent of x
	xResidue               // (x + c) % k with x + c of unknown sign (see xSign)
	xOther                 // computed from x otherwise (or from several roots)
)

// xform is the dependence of a value: its kind and its root (-1: unknown
// or several, which no refutation uses).
type xform struct {
	kind xkind
	root int
	// at is, for a variable's value, where it was assigned.
	at token.Pos
}

// xstate is the part of pstate that follows the forms (never modified:
// replaced, see mutX). It is not part of the state's key: of two states
// that differ only there, the engine explores one, which stands for a path
// all the same; a refutation found on it holds, and one it misses is a
// "cannot prove". (In the key, it made the corpus 65% slower.)
type xstate struct {
	// d holds the forms of the values computed from roots (registers, and
	// fields of messages being built), by term.
	d map[term]xform
	// cur and old are the forms of the synchronization variables' values
	// now and at the last communication point.
	cur, old []xform
	// capped are the roots bounded above (or constrained otherwise) on
	// the path.
	capped map[int]bool
	// into maps a message's root to the mailboxes it was stored in.
	into map[int][]int
	// poison is set when a dependent value went where the engine does
	// not follow it: nothing is refuted on the path.
	poison bool
	// written maps the locations of the process state the path wrote to
	// the root counter at the time (lossy.go); every root numbered up to
	// lossy is bounded.
	written map[term]int
	lossy   int
	// regions are the branches on received values whose ways have not
	// met again; implicit the values merged where they did (lossy.go).
	regions  []xregion
	implicit map[term]bool
}

// writeKey writes the part of x that is part of the state's key: which
// variables hold, now or at the last communication point, a value that may
// serve a refutation. The rest is not (see xstate), but without this a
// path that jumped to a received round and one that did not were one
// state, and the one explored decided whether the later fall was refuted.
func (x *xstate) writeKey(b *strings.Builder) {
	if x == nil || x.poison {
		return
	}
	for i := range x.cur {
		for _, f := range [2]xform{x.cur[i], x.old[i]} {
			if f.kind == xSame && f.root > 0 && !x.isCapped(f.root) {
				b.WriteString("|X")
				b.WriteString(strconv.Itoa(i))
			}
		}
	}
}

func (e *engine) newXID() int {
	e.xids++
	return e.xids
}

// mutX returns a copy of st.xs (a new one if there is none) for writing,
// installed in st.
func (st *pstate) mutX() *xstate {
	n := &xstate{cur: make([]xform, len(st.cur)), old: make([]xform, len(st.cur))}
	if o := st.xs; o != nil {
		copy(n.cur, o.cur)
		copy(n.old, o.old)
		n.poison = o.poison
		n.lossy = o.lossy
		n.regions = o.regions // (copied on write)
		if len(o.implicit) > 0 {
			n.implicit = make(map[term]bool, len(o.implicit)+1)
			for k, v := range o.implicit {
				n.implicit[k] = v
			}
		}
		if len(o.written) > 0 {
			n.written = make(map[term]int, len(o.written)+1)
			for k, v := range o.written {
				n.written[k] = v
			}
		}
		if len(o.d) > 0 {
			n.d = make(map[term]xform, len(o.d)+1)
			for k, v := range o.d {
				n.d[k] = v
			}
		}
		if len(o.capped) > 0 {
			n.capped = make(map[int]bool, len(o.capped)+1)
			for k, v := range o.capped {
				n.capped[k] = v
			}
		}
		if len(o.into) > 0 {
			n.into = make(map[int][]int, len(o.into)+1)
			for k, v := range o.into {
				n.into[k] = v
			}
		}
	}
	st.xs = n
	return n
}

// xPoison gives up refuting on st's path.
func (e *engine) xPoison(st *pstate, why string) {
	if st.xs != nil && st.xs.poison {
		return
	}
	if debug {
		fmt.Printf("xpoison: %s (near %v)\n", why, e.pass.Fset.Position(e.xpos))
	}
	st.mutX().poison = true
}

// xActive reports whether some value of the path depends on a root.
func (st *pstate) xActive() bool {
	x := st.xs
	if x == nil {
		return false
	}
	if len(x.d) > 0 {
		return true
	}
	for i := range x.cur {
		if x.cur[i].kind != xNone || x.old[i].kind != xNone {
			return true
		}
	}
	return false
}

// xRootOf returns the root of term t when t is a tag component of a
// received message or of a mailbox's element, or 0.
func (e *engine) xRootOf(st *pstate, t term) int {
	if !strings.ContainsAny(string(t), ".*#[") {
		return 0
	}
	for k, info := range st.taint {
		for _, ei := range [3]*elemInfo{info.elem, info.iter, info.nextOf} {
			if ei == nil || ei.data {
				continue
			}
			elem, ok := element(t, k, ei)
			if !ok && ei == info.nextOf {
				elem, ok = yieldedElement(t, k)
			}
			if !ok {
				continue
			}
			for ci, c := range ei.msg.Components {
				if c.Kind == annotations.Field && componentTerm(elem, ei.ptr, c) == t {
					return xroot(ei.xid, ci)
				}
			}
		}
	}
	if mt, info := st.message(t); info != nil && info.elem == nil && info.xid != 0 {
		for ci, c := range info.msg.Components {
			if c.Kind == annotations.Field && componentTerm(mt, info.ptr, c) == t {
				return xroot(info.xid, ci)
			}
		}
	}
	return 0
}

// xFormOf returns the form of the value named t.
func (e *engine) xFormOf(st *pstate, t term) xform {
	if t.isConst() {
		return xform{}
	}
	if st.xs != nil {
		if f, ok := st.xs.d[t]; ok {
			return f
		}
	}
	if id := e.xRootOf(st, t); id != 0 {
		return xform{kind: xSame, root: id}
	}
	return xform{}
}

func (e *engine) xForm(fr *frame, st *pstate, v ssa.Value) xform {
	if _, ok := v.(*ssa.Const); ok {
		return xform{}
	}
	return e.xFormOf(st, e.term(fr, st, v))
}

// xSet records the form of the value named t.
func (e *engine) xSet(st *pstate, t term, f xform) {
	if f.kind == xNone {
		if st.xs != nil {
			if _, ok := st.xs.d[t]; ok {
				delete(st.mutX().d, t)
			}
		}
		return
	}
	if st.xs != nil {
		if g, ok := st.xs.d[t]; ok && g == f {
			return
		}
	}
	x := st.mutX()
	if x.d == nil {
		x.d = make(map[term]xform)
	}
	x.d[t] = f
}

// other is the form of a value computed from values of forms fs otherwise
// than xSame and xPeriodic allow.
func other(fs ...xform) xform {
	out := xform{}
	for _, f := range fs {
		if f.kind == xNone {
			continue
		}
		switch {
		case out.kind == xNone:
			out = xform{kind: xOther, root: f.root}
		case out.root != f.root:
			out.root = -1
		}
	}
	return out
}

// xCap records that root id is bounded on the path.
func (e *engine) xCap(st *pstate, id int, why string) {
	if id <= 0 {
		e.xPoison(st, why+" (unknown root)")
		return
	}
	if st.xs != nil && st.xs.isCapped(id) {
		return
	}
	if debug {
		fmt.Printf("xcap %d: %s (near %v)\n", id, why, e.pass.Fset.Position(e.xpos))
	}
	x := st.mutX()
	if x.capped == nil {
		x.capped = make(map[int]bool)
	}
	x.capped[id] = true
	for _, m := range x.into[xwhole(id)] {
		x.capped[m|id&15] = true
	}
}

// xConstraint records what the path condition a op b, with a and b of
// forms fa and fb, bounds.
func (e *engine) xConstraint(st *pstate, fa fact, fx, fy xform) {
	op := fa.op
	fx, fy = xSign(st, fa.a, fx), xSign(st, fa.b, fy)
	if fx.kind == xNone && fy.kind == xNone {
		return
	}
	lower := func(op token.Token) bool { return op == token.GTR || op == token.GEQ || op == token.NEQ }
	why := fmt.Sprintf("%s %s %s", fa.a, op, fa.b)
	switch {
	case fx.kind == xPeriodic && (fy.kind == xNone || fy.kind == xPeriodic && fy.root != fx.root),
		fy.kind == xPeriodic && fx.kind == xNone:
		return
	case fx.kind == xSame && fy.kind == xNone:
		if !lower(op) {
			e.xCap(st, fx.root, why)
		}
	case fy.kind == xSame && fx.kind == xNone:
		if !lower(swapOp(op)) {
			e.xCap(st, fy.root, why)
		}
	case fx.kind == xSame && fy.kind == xSame && fx.root == fy.root && fx.root > 0:
		// Both shift alike: the witness moves every value of a root by
		// the same amount, so comparisons among them do not change
		// (m.Round == latest, with latest the largest round of the
		// mailbox m is read from).
		return
	case fx.kind == xSame && fy.kind == xSame && fx.root != fy.root && fx.root > 0 && fy.root > 0:
		// Each is independent of the other.
		if !lower(op) {
			e.xCap(st, fx.root, why)
		}
		if !lower(swapOp(op)) {
			e.xCap(st, fy.root, why)
		}
	default:
		for _, f := range [2]xform{fx, fy} {
			if f.kind != xNone {
				e.xCap(st, f.root, why)
			}
		}
	}
}

// xSign returns the form f of the value t as a constraint sees it: a
// remainder of unknown sign, v = (x + c) % k, is periodic where the path
// knows v >= 0 (it indexed a slice: p.peers[leaderOf(b, n)]): then either
// x + c >= 0, and shifting x by a multiple of k keeps v, or v == 0 and x +
// c is a multiple of k, which the shift keeps too. Otherwise the shift may
// turn a negative v into v + k, and the value bounds its root.
func xSign(st *pstate, t term, f xform) xform {
	if f.kind != xResidue {
		return f
	}
	switch st.fs.cmp(t, term("c:0")) {
	case relEQ, relGT, relGE:
		f.kind = xPeriodic
	default:
		f.kind = xOther
	}
	return f
}

// swapOp returns op with its operands swapped (a < b is b > a).
func swapOp(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// xBranch records what taking a branch on cond bounds.
func (e *engine) xBranch(fr *frame, st *pstate, cond ssa.Value, holds bool) {
	if debug {
		e.xpos = cond.Pos()
	}
	if bin, ok := cond.(*ssa.BinOp); ok && isCompare(bin.Op) {
		op := bin.Op
		if !holds {
			op = negate(op)
		}
		x, y := e.term(fr, st, bin.X), e.term(fr, st, bin.Y)
		fx, fy := e.xFormOf(st, x), e.xFormOf(st, y)
		if e.xBind(fr, st, bin, op, fx, fy) {
			return
		}
		e.xConstraint(st, fact{x, y, op}, fx, fy)
		return
	}
	t := e.term(fr, st, cond)
	if c, ok := st.conds[t]; ok {
		op := c.op
		if !holds {
			op = negate(op)
		}
		e.xConstraint(st, fact{c.a, c.b, op}, e.xFormOf(st, c.a), e.xFormOf(st, c.b))
		return
	}
	if f := e.xFormOf(st, t); f.kind != xNone {
		e.xCap(st, f.root, "branch on "+string(t))
	}
}

// xFlow follows instr's value (or store) on st.
func (e *engine) xFlow(fr *frame, st *pstate, instr ssa.Instruction) {
	if debug {
		e.xpos = instr.Pos()
	}
	switch in := instr.(type) {
	case *ssa.BinOp:
		fx, fy := e.xForm(fr, st, in.X), e.xForm(fr, st, in.Y)
		if fx.kind == xNone && fy.kind == xNone {
			return
		}
		e.xSet(st, e.term(fr, st, in), binForm(in.Op, fx, fy, e.nonneg(st, in.X, e.term(fr, st, in.X))))
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			if i := e.varAt(fr, st, in.X); i >= 0 {
				if st.xs != nil {
					f := st.xs.cur[i]
					f.at = token.NoPos
					e.xSet(st, e.term(fr, st, in), f)
				}
			} else if st.xs != nil && len(e.heldVars(fr, st, in)) > 0 && st.xActive() {
				e.xPoison(st, "a struct holding a synchronization variable is copied")
			}
		case token.ARROW:
		default:
			if f := e.xForm(fr, st, in.X); f.kind != xNone {
				e.xSet(st, e.term(fr, st, in), other(f))
			}
		}
	case *ssa.ChangeType:
		if f := e.xForm(fr, st, in.X); f.kind != xNone {
			e.xSet(st, e.term(fr, st, in), f)
		}
	case *ssa.Store:
		e.xStore(fr, st, in.Addr, in.Val)
		e.xWrite(fr, st, in.Addr, true, in.Val)
	case *ssa.MapUpdate:
		e.xWrite(fr, st, in.Map, false, in.Key, in.Value)
		for _, v := range [2]ssa.Value{in.Key, in.Value} {
			if f := e.xForm(fr, st, v); f.kind != xNone {
				e.xPoison(st, "a dependent value is put in a map")
			}
		}
	case *ssa.Send:
		if f := e.xForm(fr, st, in.X); f.kind != xNone && !e.isMessageValue(in.X) {
			e.xPoison(st, "a dependent value is sent on a channel")
		}
	case *ssa.Select:
		for _, s := range in.States {
			if s.Dir == types.SendOnly {
				if f := e.xForm(fr, st, s.Send); f.kind != xNone && !e.isMessageValue(s.Send) {
					e.xPoison(st, "a dependent value is sent on a channel")
				}
			}
		}
	case *ssa.IndexAddr:
		if _, isMap := in.X.Type().Underlying().(*types.Map); !isMap {
			e.xIndex(fr, st, in.Index)
		}
	case *ssa.Index:
		e.xIndex(fr, st, in.Index)
	case *ssa.Slice:
		for _, v := range []ssa.Value{in.Low, in.High, in.Max} {
			if v != nil {
				e.xIndex(fr, st, v)
			}
		}
	case *ssa.MakeSlice:
		e.xIndex(fr, st, in.Len)
		e.xIndex(fr, st, in.Cap)
	case *ssa.MakeChan:
		e.xIndex(fr, st, in.Size)
	case *ssa.MakeClosure:
		for _, v := range in.Bindings {
			if f := e.xForm(fr, st, v); f.kind != xNone {
				e.xPoison(st, "a closure captures a dependent value")
			}
		}
	case *ssa.Go, *ssa.Defer:
		if st.xActive() {
			e.xPoison(st, "a goroutine or deferred call")
		}
	case *ssa.Call:
		if f := in.Call.StaticCallee(); f != nil {
			// A call that returns indexed with some of its arguments
			// (p.send(leaderOf(b, n), m) indexing the peers).
			for i, ok := range e.indexedParams(f) {
				if ok && i < len(in.Call.Args) {
					e.xIndex(fr, st, in.Call.Args[i])
				}
			}
		}
		if bi, ok := in.Call.Value.(*ssa.Builtin); ok {
			var fs []xform
			for _, a := range in.Call.Args {
				fs = append(fs, e.xForm(fr, st, a))
			}
			switch bi.Name() {
			case "max", "min":
				e.xSet(st, e.term(fr, st, in), e.xMinMax(fr, st, in, bi.Name() == "max", fs))
			case "len", "cap", "append", "copy", "delete", "clear", "panic":
				// (append's values are stored into its argument's
				// array, followed there.)
			case "print", "println":
				if f := other(fs...); f.kind != xNone {
					e.xPoison(st, "a dependent value is printed")
				}
			default:
				if f := other(fs...); f.kind != xNone {
					e.xSet(st, e.term(fr, st, in), f)
				}
			}
		}
	case *ssa.Phi, *ssa.Alloc:
	default:
		// Any other value computed from dependent ones (a conversion, a
		// map lookup with a dependent key and its comma-ok, an extract,
		// an interface or a struct holding one) depends on them, how the
		// engine does not follow.
		v, ok := instr.(ssa.Value)
		if !ok {
			return
		}
		own := e.term(fr, st, v)
		var fs []xform
		for _, op := range instr.Operands(nil) {
			if *op == nil {
				continue
			}
			if e.term(fr, st, *op) == own {
				// Named as its operand (an integer conversion, an
				// interface holding it): the same value, of the same
				// form.
				return
			}
			fs = append(fs, e.xHeld(fr, st, *op))
		}
		if f := other(fs...); f.kind != xNone {
			e.xSet(st, own, f)
		}
	}
}

// xMinMax is the form of max(args) (or min), the args of forms fs: a
// witness shifts values of one root alike, so the largest of them shifts
// as they do, and so does one known to be at least every independent
// argument (max(0, m.Round) with m.Round >= 1).
func (e *engine) xMinMax(fr *frame, st *pstate, in *ssa.Call, isMax bool, fs []xform) xform {
	var root int
	var dep []term
	var ind []term
	for i, a := range in.Call.Args {
		switch f := fs[i]; {
		case f.kind == xNone:
			ind = append(ind, e.term(fr, st, a))
		case f.kind == xSame && f.root > 0 && (root == 0 || root == f.root):
			root = f.root
			dep = append(dep, e.term(fr, st, a))
		default:
			return other(fs...)
		}
	}
	if root == 0 {
		return xform{}
	}
	// For max, every independent argument must be below a dependent
	// one (which stays the largest).
	for _, y := range ind {
		ok := false
		for _, x := range dep {
			switch st.fs.cmp(x, y) {
			case relEQ, relGT, relGE:
				ok = true
			}
		}
		if !ok {
			return other(fs...)
		}
	}
	if !isMax && len(ind) > 0 {
		return other(fs...)
	}
	return xform{kind: xSame, root: root}
}

// xHeld is the form of v, or, for a struct, pointer or interface, of what
// it holds that depends on a root.
func (e *engine) xHeld(fr *frame, st *pstate, v ssa.Value) xform {
	if _, ok := v.(*ssa.Const); ok {
		return xform{}
	}
	t := e.term(fr, st, v)
	f := e.xFormOf(st, t)
	if f.kind != xNone || st.xs == nil || isTracked(v.Type()) {
		return f
	}
	var fs []xform
	for k, g := range st.xs.d {
		if k != t && (within(k, t) || within(k, derefOf(t))) {
			fs = append(fs, g)
		}
	}
	return other(fs...)
}

// xIndex records that v is used as an index or a size: a panic bounds it.
func (e *engine) xIndex(fr *frame, st *pstate, v ssa.Value) {
	if v == nil {
		return
	}
	switch f := e.xForm(fr, st, v); f.kind {
	case xSame, xOther:
		e.xCap(st, f.root, "index or size "+string(e.term(fr, st, v)))
	case xResidue:
		// Not negative from here on (or the path panicked): periodic,
		// and below the length as it was (see xSign).
		st.add(mkFact(term("c:0"), token.LEQ, e.term(fr, st, v)))
	}
}

// indexedParams reports, for each parameter of f, whether f indexes a
// slice, an array or a string with it in its entry block, deferring
// nothing: a call that returns did so without panicking, so the argument
// was in range.
func (e *engine) indexedParams(f *ssa.Function) []bool {
	if r, ok := e.indexed[f]; ok {
		return r
	}
	var r []bool
	if len(f.Blocks) > 0 {
		deferred := false
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Defer); ok {
					deferred = true
				}
			}
		}
		for _, instr := range f.Blocks[0].Instrs {
			var idx ssa.Value
			switch in := instr.(type) {
			case *ssa.IndexAddr:
				idx = in.Index
			case *ssa.Index:
				idx = in.Index
			}
			p, ok := idx.(*ssa.Parameter)
			if !ok || deferred {
				continue
			}
			if r == nil {
				r = make([]bool, len(f.Params))
			}
			r[slices.Index(f.Params, p)] = true
		}
	}
	if e.indexed == nil {
		e.indexed = make(map[*ssa.Function][]bool)
	}
	e.indexed[f] = r
	return r
}

// xStore follows a store of val to addr: a synchronization variable (see
// xAssign) and a field of a message being built are followed; any other
// memory is not.
func (e *engine) xStore(fr *frame, st *pstate, addr, val ssa.Value) {
	if e.varAt(fr, st, addr) >= 0 {
		return
	}
	f := e.xHeld(fr, st, val)
	if f.kind == xNone {
		return
	}
	if inComplit(addr) {
		// A value being built (a message, an envelope): followed in
		// the fields it is built with.
		e.xSet(st, loadOf(e.term(fr, st, addr)), f)
		return
	}
	e.xPoison(st, "a dependent value is stored to memory at "+string(e.term(fr, st, addr)))
}

// inComplit reports whether addr is a field or an element of a value
// allocated by a composite literal (a message or an envelope being built).
func inComplit(addr ssa.Value) bool {
	var x ssa.Value
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		x = a.X
	case *ssa.IndexAddr:
		x = a.X
	default:
		return false
	}
	a, ok := x.(*ssa.Alloc)
	return ok && a.Comment == "complit"
}

// isMessageValue reports whether v is a message, or an interface or a
// struct that may hold one (an envelope): sending it is communication.
func (e *engine) isMessageValue(v ssa.Value) bool {
	return !isTracked(v.Type())
}

// xCall is called for a call the engine does not interpret: it may keep
// or bound what it is handed, and a function of the package (or reached
// dynamically) may read the process state.
func (e *engine) xCall(fr *frame, st *pstate, in *ssa.Call, c *ssa.CallCommon) {
	if st.xs == nil && len(st.taint) == 0 {
		return
	}
	if f := c.StaticCallee(); f != nil && pureExpr(f) {
		// A function computing its result from its arguments only
		// (leaderOf(b, n) = b % n): the result's form.
		var fs []xform
		for _, a := range c.Args {
			g := e.xForm(fr, st, a)
			if !isTracked(a.Type()) && e.xHeld(fr, st, a).kind != xNone {
				e.xPoison(st, "a value holding dependent ones is passed to "+calleeName(c))
				return
			}
			fs = append(fs, g)
		}
		var nn []bool
		for _, a := range c.Args {
			nn = append(nn, e.nonneg(st, a, e.term(fr, st, a)))
		}
		ret := f.Blocks[0].Instrs[len(f.Blocks[0].Instrs)-1].(*ssa.Return)
		e.xSet(st, e.term(fr, st, in), e.exprForm(ret.Results[0], f, fs, nn, 0))
		return
	}
	if st.xActive() {
		// Code of the package may read the synchronization variables
		// (or memory the engine does not follow); code of other
		// packages may read them only through what it is handed.
		var outside bool
		switch f := c.StaticCallee(); {
		case f != nil:
			if o := f.Origin(); o != nil {
				f = o // an instantiation (maps.Clone[...]) has no package
			}
			outside = f.Pkg != nil && f.Pkg != e.fn.Pkg
		case c.IsInvoke():
			outside = !e.pkgMethod(c.Method.Name(), c.Signature())
		}
		reaches := false
		for _, a := range c.Args {
			reaches = reaches || e.reachesState(a.Type(), 0)
		}
		if c.IsInvoke() {
			reaches = reaches || e.reachesState(c.Value.Type(), 0)
		}
		if (!outside || reaches) && !e.xBlind(c) {
			e.xPoison(st, "a call that is not followed: "+calleeName(c))
			return
		}
	}
	for _, a := range c.Args {
		t := e.term(fr, st, a)
		if g := e.xHeld(fr, st, a); g.kind != xNone {
			e.xPoison(st, "a dependent value is passed to "+calleeName(c))
			return
		}
		// Received messages (and mailboxes) handed to the call: it may
		// test their tags.
		for k, info := range st.taint {
			if !within(k, t) && !within(k, derefOf(t)) {
				continue
			}
			for _, ei := range [2]*elemInfo{info.elem, info.iter} {
				if ei != nil {
					e.xCap(st, xwhole(xroot(ei.xid, 0)), "mailbox passed to "+calleeName(c))
				}
			}
			if info.msg != nil && info.xid != 0 {
				e.xCap(st, xwhole(xroot(info.xid, 0)), "message passed to "+calleeName(c))
			}
		}
	}
}

// xBlind reports whether the function call c makes cannot see a value
// that depends on a root but through its arguments (checked by the
// caller): a function of the package that reads no synchronization
// variable and no memory but plain data (summaries.sees), none of whose
// synchronization variables' address escaped. (p.transition(vals), which
// updates the estimate from the values handed to it.) Dependent values
// are in synchronization variables, messages (received or being built)
// and the mailboxes holding them: a value stored anywhere else gives up.
func (e *engine) xBlind(c *ssa.CallCommon) bool {
	f := c.StaticCallee()
	if f == nil || c.IsInvoke() || len(e.sum.escaped) > 0 {
		return false
	}
	if o := f.Origin(); o != nil {
		f = o
	}
	return f.Pkg == e.fn.Pkg && f.Blocks != nil && !e.sum.sees[f]
}

// xAssign records the form of the value t assigned to variable i.
func (e *engine) xAssign(st *pstate, i int, t term, pos token.Pos) {
	f := e.xFormOf(st, t)
	if debug {
		fmt.Printf("xassign %d := %s form %v\n", i, t, f)
	}
	if f.kind == xNone && (st.xs == nil || st.xs.cur[i].kind == xNone) {
		return
	}
	f.at = pos
	st.mutX().cur[i] = f
}

// xHavoc records that variable i got a value the engine does not know.
func (e *engine) xHavoc(st *pstate, i int) {
	st.mutX().cur[i] = xform{kind: xOther, root: -1}
}

// xStoreMsg records that the message numbered msg is stored in the
// mailbox numbered mbox: the mailbox's elements are bounded in each
// component the message is.
func (e *engine) xStoreMsg(st *pstate, msg, mbox int) {
	if msg <= 0 || mbox <= 0 || msg == mbox {
		return
	}
	msg, mbox = xwhole(xroot(msg, 0)), xwhole(xroot(mbox, 0))
	x := st.mutX()
	if debug {
		fmt.Printf("xstoremsg %d -> %d (capped %v)\n", msg, mbox, x.capped)
	}
	if x.into == nil {
		x.into = make(map[int][]int)
	}
	if !slices.Contains(x.into[msg], mbox) {
		x.into[msg] = append(slices.Clone(x.into[msg]), mbox)
	}
	for r := range x.capped {
		if xwhole(r) == msg {
			x.capped[mbox|r&15] = true
		}
	}
}

// xCP records a communication point.
func (e *engine) xCP(st *pstate) {
	if st.xs == nil || slices.Equal(st.xs.old, st.xs.cur) {
		return
	}
	x := st.mutX()
	copy(x.old, x.cur)
}

// xRedefine forgets the forms of the values about to be renamed.
func (st *pstate) xRedefine(base, primed string) {
	if st.xs == nil || len(st.xs.d) == 0 {
		return
	}
	var drop []term
	for k := range st.xs.d {
		if b := k.value(); b == base || b == primed {
			drop = append(drop, k)
		}
	}
	if len(drop) == 0 {
		return
	}
	n := *st.xs
	n.d = make(map[term]xform, len(st.xs.d))
	for k, v := range st.xs.d {
		n.d[k] = v
	}
	for _, k := range drop {
		delete(n.d, k)
	}
	st.xs = &n
}

// xProject forgets the forms of values project dropped, and the roots
// nothing names any more.
func (st *pstate) xProject(keep func(term) bool) {
	x := st.xs
	if x == nil {
		return
	}
	dropD := false
	for k := range x.d {
		if !keep(k) {
			dropD = true
			break
		}
	}
	used := make(map[int]bool) // by whole root
	for i := range x.cur {
		used[xwhole(x.cur[i].root)], used[xwhole(x.old[i].root)] = true, true
	}
	for k, f := range x.d {
		if keep(k) {
			used[xwhole(f.root)] = true
		}
	}
	for _, info := range st.taint {
		for _, id := range [5]int{info.xid, info.dxid, xidOf(info.elem), xidOf(info.iter), xidOf(info.nextOf)} {
			used[xwhole(xroot(id, 0))] = true
		}
	}
	dropC := false
	for id := range x.capped {
		if !used[xwhole(id)] {
			dropC = true
		}
	}
	for id := range x.into {
		if !used[id] {
			dropC = true
		}
	}
	if !dropD && !dropC {
		return
	}
	n := *x
	if dropD {
		n.d = make(map[term]xform, len(x.d))
		for k, v := range x.d {
			if keep(k) {
				n.d[k] = v
			}
		}
	}
	if dropC {
		n.capped = make(map[int]bool, len(x.capped))
		for id := range x.capped {
			if used[xwhole(id)] {
				n.capped[id] = true
			}
		}
		n.into = make(map[int][]int, len(x.into))
		for id, v := range x.into {
			if used[id] {
				n.into[id] = v
			}
		}
	}
	st.xs = &n
}

func xidOf(ei *elemInfo) int {
	if ei == nil {
		return 0
	}
	return ei.xid
}

// xJoin gives j, the join of a and b (a copy of b, with the same key's
// skeleton), the forms of both: a value dependent on one path is
// dependent, a root bounded on one is bounded. The roots of a are renamed
// to b's where they play the same part (a variable's value, a mailbox or
// message of the same term): they are different messages, but the joined
// state stands for either path.
func xJoin(j, a, b *pstate) {
	if a.xs == nil && b.xs == nil {
		return
	}
	ax, bx := a.xs, b.xs
	if ax == nil {
		ax = &xstate{cur: make([]xform, len(a.cur)), old: make([]xform, len(a.cur))}
	}
	if bx == nil {
		bx = &xstate{cur: make([]xform, len(b.cur)), old: make([]xform, len(b.cur))}
	}
	ren := make(map[int]int) // by whole root
	pair := func(ra, rb int) {
		ra, rb = xwhole(ra), xwhole(rb)
		if ra <= 0 || rb <= 0 || ra == rb {
			return
		}
		if r, ok := ren[ra]; ok && r != rb {
			ren[ra] = -1
			return
		}
		ren[ra] = rb
	}
	for i := range ax.cur {
		if ax.cur[i].kind == bx.cur[i].kind {
			pair(ax.cur[i].root, bx.cur[i].root)
		}
		if ax.old[i].kind == bx.old[i].kind {
			pair(ax.old[i].root, bx.old[i].root)
		}
	}
	for k, ia := range a.taint {
		if ib := b.taint[k]; ib != nil {
			pair(xroot(ia.xid, 0), xroot(ib.xid, 0))
			pair(ia.dxid<<4, ib.dxid<<4)
			pair(xroot(xidOf(ia.elem), 0), xroot(xidOf(ib.elem), 0))
			pair(xroot(xidOf(ia.iter), 0), xroot(xidOf(ib.iter), 0))
		}
	}
	mapf := func(f xform) xform {
		if r, ok := ren[xwhole(f.root)]; ok {
			if r < 0 {
				f.root = -1
			} else {
				f.root = r | f.root&15
			}
		}
		return f
	}
	x := j.mutX()
	*x = xstate{cur: slices.Clone(bx.cur), old: slices.Clone(bx.old), poison: ax.poison || bx.poison, lossy: max(ax.lossy, bx.lossy)}
	if len(ax.written)+len(bx.written) > 0 {
		x.written = make(map[term]int, len(ax.written)+len(bx.written))
		for _, w := range [2]map[term]int{ax.written, bx.written} {
			for k, v := range w {
				x.written[k] = max(x.written[k], v)
			}
		}
	}
	for i := range x.cur {
		if f := mapf(ax.cur[i]); f.kind != x.cur[i].kind || f.root != x.cur[i].root {
			x.cur[i] = xform{kind: xOther, root: -1}
		}
		if f := mapf(ax.old[i]); f.kind != x.old[i].kind || f.root != x.old[i].root {
			x.old[i] = xform{kind: xOther, root: -1}
		}
	}
	x.d = make(map[term]xform, len(bx.d)+len(ax.d))
	for k, v := range bx.d {
		x.d[k] = v
	}
	for k, v := range ax.d {
		v = mapf(v)
		if w, ok := x.d[k]; ok && (w.kind != v.kind || w.root != v.root) {
			v = xform{kind: xOther, root: -1}
		}
		x.d[k] = v
	}
	x.capped = make(map[int]bool)
	for id := range bx.capped {
		x.capped[id] = true
	}
	for ra, rb := range ren {
		if rb > 0 && ra>>4 <= ax.lossy {
			x.capped[rb] = true // bounded on a by its watermark
		}
	}
	for id := range ax.capped {
		if r, ok := ren[xwhole(id)]; ok {
			if r < 0 {
				if debug {
					fmt.Println("xpoison: join")
				}
				x.poison = true
				continue
			}
			id = r | id&15
		}
		x.capped[id] = true
	}
	x.into = make(map[int][]int)
	for k, v := range bx.into {
		x.into[k] = slices.Clone(v)
	}
	for k, v := range ax.into {
		k = mapf(xform{root: k}).root
		for _, m := range v {
			m = mapf(xform{root: m}).root
			if !slices.Contains(x.into[k], m) {
				x.into[k] = append(x.into[k], m)
			}
		}
	}
}

// xRefutes reports whether, at a communication point where variable i is
// not known to be at least its old value, the path shows it can be lower
// (see the comment at the top of this file); it returns where the old
// value was assigned.
func (e *engine) xRefutes(st *pstate, i int) (token.Pos, bool) {
	x := st.xs
	if debug && x != nil && x.poison {
		fmt.Printf("xrefutes %d: poisoned\n", i)
	}
	if x == nil || x.poison {
		return token.NoPos, false
	}
	o, c := x.old[i], x.cur[i]
	if debug {
		fmt.Printf("xrefutes %d: old %v cur %v capped %v poison %v\n", i, o, c, x.capped, x.poison)
	}
	if o.kind != xSame || o.root <= 0 || x.isCapped(o.root) || c.kind != xNone {
		return token.NoPos, false
	}
	// Lexicographically: the variables before i are unchanged.
	for j := 0; j < i; j++ {
		if st.fs.cmp(st.cur[j], st.old[j]) != relEQ {
			return token.NoPos, false
		}
	}
	return o.at, true
}

// pkgMethod reports whether a method of a type of the package has the
// name and the signature of an interface method called.
func (e *engine) pkgMethod(name string, sig *types.Signature) bool {
	key := name + " " + sig.String()
	if v, ok := e.pkgMethods[key]; ok {
		return v
	}
	if e.pkgMethods == nil {
		e.pkgMethods = make(map[string]bool)
	}
	strip := func(s *types.Signature) *types.Signature {
		return types.NewSignatureType(nil, nil, nil, s.Params(), s.Results(), s.Variadic())
	}
	found := false
	scope := e.pass.Pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			ms := types.NewMethodSet(t)
			for i := 0; i < ms.Len(); i++ {
				m := ms.At(i).Obj()
				if m.Name() == name && sameUpToTypeParams(strip(m.Type().(*types.Signature)), strip(sig), 0) {
					found = true
				}
			}
		}
	}
	e.pkgMethods[key] = found
	return found
}

// reachesState reports whether a value of type t may lead to the memory
// holding a synchronization variable (a pointer to the process, a copy of
// it).
func (e *engine) reachesState(t types.Type, depth int) bool {
	if depth > 3 {
		return true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	for _, v := range e.vars {
		if v.root == nil {
			continue
		}
		if types.Identical(t, derefType(v.root.Type())) {
			return true
		}
	}
	if s, ok := t.Underlying().(*types.Struct); ok {
		for i := 0; i < s.NumFields(); i++ {
			if e.reachesState(s.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// pureExpr reports whether f is a function of one block, with one result,
// computed by arithmetic from its parameters, constants and fields read
// through its parameters: no call, no branch, no store.
func pureExpr(f *ssa.Function) bool {
	if len(f.Blocks) != 1 || len(f.FreeVars) > 0 || f.Signature.Results().Len() != 1 {
		return false
	}
	for _, instr := range f.Blocks[0].Instrs {
		switch in := instr.(type) {
		case *ssa.BinOp, *ssa.Convert, *ssa.ChangeType, *ssa.DebugRef, *ssa.Return, *ssa.Field:
		case *ssa.FieldAddr:
			switch in.X.(type) {
			case *ssa.Parameter, *ssa.FieldAddr:
			default:
				return false
			}
		case *ssa.UnOp:
			if in.Op == token.ARROW {
				return false
			}
			if _, ok := in.X.(*ssa.FieldAddr); in.Op == token.MUL && !ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// exprForm is the form of v, a value of the pure function f, when its
// parameters have forms args. A field read is independent unless it is a
// synchronization variable's (or on the way to one) or a message's: the
// engine gives up where a dependent value is stored to any other memory.
func (e *engine) exprForm(v ssa.Value, f *ssa.Function, args []xform, nn []bool, depth int) xform {
	unknown := xform{kind: xOther, root: -1}
	if depth > 8 {
		return unknown
	}
	switch v := v.(type) {
	case *ssa.Const:
		return xform{}
	case *ssa.Parameter:
		for i, p := range f.Params {
			if p == v && i < len(args) {
				return args[i]
			}
		}
	case *ssa.BinOp:
		fx, fy := e.exprForm(v.X, f, args, nn, depth+1), e.exprForm(v.Y, f, args, nn, depth+1)
		nonneg := isUnsigned(v.X.Type())
		if p, ok := v.X.(*ssa.Parameter); ok {
			for i, q := range f.Params {
				if q == p && i < len(nn) {
					nonneg = nonneg || nn[i]
				}
			}
		}
		return binForm(v.Op, fx, fy, nonneg)
	case *ssa.ChangeType:
		return e.exprForm(v.X, f, args, nn, depth+1)
	case *ssa.Convert:
		return other(e.exprForm(v.X, f, args, nn, depth+1))
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			if e.stateField(fa.X.Type(), fa.Field) {
				return unknown
			}
			return xform{}
		}
		return other(e.exprForm(v.X, f, args, nn, depth+1))
	case *ssa.Field:
		if e.stateField(v.X.Type(), v.Field) {
			return unknown
		}
		return other(e.exprForm(v.X, f, args, nn, depth+1))
	}
	return unknown
}

// stateField reports whether field i of the struct t (or *t) is a
// synchronization variable's, on the way to one, or a message's.
func (e *engine) stateField(t types.Type, i int) bool {
	t = derefType(t)
	if e.ann.MsgOf(t) != nil {
		return true
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok || i >= s.NumFields() {
		return true
	}
	fv := s.Field(i)
	for _, v := range e.vars {
		if slices.Contains(v.sv.Fields, fv) {
			return true
		}
	}
	return false
}

// binForm is the form of x op y, for x and y of forms fx and fy; nonneg
// says x is known not to be negative. (x % k is periodic in x only then:
// Go's remainder takes the sign of x, so -3 % 5 is -3 and 7 % 5 is 2; a
// path that needs m.Ballot%2 == -1 bounds m.Ballot above.)
func binForm(op token.Token, fx, fy xform, nonneg bool) xform {
	if fx.kind == xNone && fy.kind == xNone {
		return xform{}
	}
	var f xform
	switch {
	case isCompare(op):
		f = other(fx, fy)
	case op == token.ADD && fx.kind == xSame && fy.kind == xNone:
		f = fx
	case op == token.ADD && fy.kind == xSame && fx.kind == xNone:
		f = fy
	case op == token.SUB && fx.kind == xSame && fy.kind == xNone:
		f = fx
	case op == token.REM && nonneg && (fx.kind == xSame || fx.kind == xPeriodic) && fy.kind == xNone:
		f = xform{kind: xPeriodic, root: fx.root}
	case op == token.REM && (fx.kind == xSame || fx.kind == xPeriodic) && fy.kind == xNone:
		f = xform{kind: xResidue, root: fx.root}
	default:
		f = other(fx, fy)
	}
	f.at = token.NoPos
	return f
}

// nonneg reports whether the value v, named t, is known not to be
// negative: of an unsigned type, or so by the path's facts.
func (e *engine) nonneg(st *pstate, v ssa.Value, t term) bool {
	if isUnsigned(v.Type()) {
		return true
	}
	switch st.fs.cmp(t, term("c:0")) {
	case relEQ, relGT, relGE:
		return true
	}
	return false
}
