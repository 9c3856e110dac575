package tagflow

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// What a reception writes besides the message itself: a write of a
// mailbox variable (a local declared before the reception loop, or a map
// it made) that depends on the message last received on the path stores
// that message, as the paper's condition III counts it: a reception
// changes nothing but the mailbox, and only for messages of the current
// round or later. prepares[m.From] = true, n++ after a filter, or a
// counter incremented for every message received, keep only the sender or
// a count, and let stale messages count as much as m itself would.
//
// The rule, per path inside a reception loop, after a receive of this
// iteration that yielded a value (not a timeout):
//   - a write whose value, map key or index is computed from the received
//     value stores it (data dependence);
//   - a write that no branch on the received value decided stores it (the
//     path tested nothing of the message, or the write is reached whatever
//     the tests said: it is counted anyway);
//   - a write that comes after a branch on the received value, on every
//     path from the receive (a for loop's i++, reached by the filter's
//     continue and by the store alike), does not.
// The stored message is the one of the most recent receive; its tag is
// checked as mailboxStore checks a message put in a mailbox.

// recvState is the most recent receive of a path.
type recvState struct {
	// val is the received value's term; "" when the receive yielded no
	// value of interest (a select's timeout case, a "nothing received"
	// result).
	val term
	// copies are the variables in memory the value was put in where they
	// are declared (m := <-ch, with m's address taken).
	copies []term
	// may is set when the received value's type may hold a message.
	may bool
	// ok is the term of the "nothing received" result (the comma-ok of a
	// receive, the trailing bool or error of a //sync:recv function), and
	// okErr says it is an error.
	ok    term
	okErr bool
	fr    *frame
	b     *ssa.BasicBlock
	pos   token.Pos
	// dep is set once the path branched on the received value.
	dep bool
}

// mayHoldMsg reports whether a value of type t may be, or carry, a
// message.
func (e *engine) mayHoldMsg(t types.Type, depth int) bool {
	if depth > 2 {
		return false
	}
	if e.ann.MsgOf(t) != nil {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Pointer:
		return e.mayHoldMsg(u.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if e.mayHoldMsg(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// setRecv records a receive at b: val of type typ was received (val ""
// for none yet: a select, until its case is known).
func (e *engine) setRecv(fr *frame, b *ssa.BasicBlock, st *pstate, val term, typ types.Type, ok term, okErr bool, pos token.Pos) {
	r := &recvState{fr: fr, b: b, pos: pos, ok: ok, okErr: okErr}
	if val != "" && typ != nil && e.mayHoldMsg(typ, 0) {
		r.val, r.may = val, true
		if m := e.ann.MsgOf(typ); m == nil || len(m.Components) == len(e.vars) {
			e.noteComm(st, pos, false)
		}
	}
	st.recv = r
}

// climb returns the block of frame target that fr's block b lies in: b
// itself, or the block of the call (of target's function) through which
// fr was inlined.
func climb(fr *frame, b *ssa.BasicBlock, target *frame) (*ssa.BasicBlock, bool) {
	for fr != target {
		if fr == nil || fr.parent == nil {
			return nil, false
		}
		b, fr = fr.callBlock, fr.parent
	}
	return b, true
}

// enterBlock is called as a path enters block b: the header of its
// reception loop starts a new iteration, with no message received yet;
// outside a reception the last receive no longer matters.
func (e *engine) enterBlock(fr *frame, b *ssa.BasicBlock, st *pstate) {
	if st.recv == nil {
		return
	}
	owner, l := e.recvOwner(fr, b)
	if l == nil {
		if _, el := e.eventScope(fr, b, st); el == nil {
			st.recv = nil
		}
		return
	}
	if owner == fr && l.header == b {
		st.recv = nil
	}
}

// dependsOnRecv reports whether v is computed from the value last
// received on the path (a few operations deep).
func (e *engine) dependsOnRecv(fr *frame, st *pstate, v ssa.Value, depth int) bool {
	if st.recv == nil || st.recv.val == "" || v == nil || depth > 4 {
		return false
	}
	if _, ok := v.(*ssa.Const); ok {
		return false
	}
	t := e.term(fr, st, v)
	if e.withinRecv(st, t) {
		return true
	}
	if c, ok := st.conds[t]; ok && (e.withinRecv(st, c.a) || e.withinRecv(st, c.b)) {
		return true
	}
	var ops []*ssa.Value
	switch v := v.(type) {
	case *ssa.BinOp, *ssa.UnOp, *ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface, *ssa.Field, *ssa.FieldAddr,
		*ssa.Extract, *ssa.TypeAssert, *ssa.Index, *ssa.IndexAddr, *ssa.Lookup, *ssa.Slice, *ssa.ChangeInterface:
		ops = v.(ssa.Instruction).Operands(nil)
	case *ssa.Call:
		ops = v.Operands(nil)
	default:
		return false
	}
	for _, op := range ops {
		if op != nil && *op != nil && e.dependsOnRecv(fr, st, *op, depth+1) {
			return true
		}
	}
	return false
}

func (e *engine) withinRecv(st *pstate, t term) bool {
	return st.recv.holds(t)
}

// holds reports whether term t names the received value, one of its
// copies, or memory below them (or above them).
func (r *recvState) holds(t term) bool {
	if r == nil || r.val == "" || t == "" || t.isConst() {
		return false
	}
	for _, v := range r.roots() {
		if within(t, v) || within(v, t) {
			return true
		}
	}
	return false
}

// roots are the received value's term and the variables it was copied to.
func (r *recvState) roots() []term {
	if r.val == "" {
		return nil
	}
	return append([]term{r.val}, r.copies...)
}

// recvCopy notes that the received value was put in variable loc, where
// loc is declared.
func (e *engine) recvCopy(st *pstate, vt, loc term) {
	if e.withinRecv(st, vt) {
		c := *st.recv
		c.copies = append(append([]term(nil), c.copies...), loc)
		st.recv = &c
	}
}

// branchRecv notes, at a branch, that the path tested the received value,
// or that the receive yielded nothing (cond is its "nothing received"
// result, on the side that says so).
func (e *engine) branchRecv(fr *frame, st *pstate, cond ssa.Value, holds bool) {
	r := st.recv
	if r == nil {
		return
	}
	if r.ok != "" {
		t := e.term(fr, st, cond)
		nothing := false
		if !r.okErr && t == r.ok && !holds {
			nothing = true
		}
		if bin, ok := cond.(*ssa.BinOp); ok && r.okErr && (bin.Op == token.EQL || bin.Op == token.NEQ) {
			x, y := e.term(fr, st, bin.X), e.term(fr, st, bin.Y)
			if x == r.ok && y == "c:nil" || y == r.ok && x == "c:nil" {
				nothing = (bin.Op == token.NEQ) == holds
			}
		}
		if nothing {
			c := *r
			c.val, c.may = "", false
			st.recv = &c
			return
		}
	}
	if ex, ok := cond.(*ssa.Extract); ok && holds && ex.Index == 1 {
		// raw.(Decision) succeeded: the value received is a Decision,
		// whether or not the code names it.
		if ta, ok := ex.Tuple.(*ssa.TypeAssert); ok && e.withinRecv(st, e.term(fr, st, ta.X)) {
			e.refine(fr, st, ta.X, nil, ta.AssertedType)
		}
	}
	if !r.dep && e.dependsOnRecv(fr, st, cond, 0) {
		c := *r
		c.dep = true
		st.recv = &c
	}
}

// recvWrite checks a write, at pos in block b of frame fr, of a mailbox
// variable inside a reception: deps are the values it is computed from
// (the value written, a map key, an index).
func (e *engine) recvWrite(fr *frame, b *ssa.BasicBlock, st *pstate, pos token.Pos, deps ...ssa.Value) {
	r := st.recv
	if r == nil {
		return
	}
	owner, l := e.writeScope(fr, b, st)
	if l == nil {
		return
	}
	wb, ok1 := climb(fr, b, owner)
	rb, ok2 := climb(r.fr, r.b, owner)
	if !ok1 || !ok2 || !l.blocks[rb] {
		return
	}
	data := false
	for _, d := range deps {
		data = data || e.dependsOnRecv(fr, st, d, 0)
	}
	if debug {
		fmt.Printf("recvWrite %v: data %v dep %v pdom %v (w %d r %d)\n", e.pass.Fset.Position(pos), data, r.dep, e.postDominates(owner.fn, l, wb, rb), wb.Index, rb.Index)
	}
	if !data && r.dep && e.postDominates(owner.fn, l, wb, rb) {
		return // reached whatever the tests of the message said
	}
	if r.val == "" {
		return // nothing received on this path
	}
	// The message: the received value itself, or the one a type
	// assertion or an envelope's field yields (not the assertion's
	// comma-ok tuple).
	var mt term
	for k, info := range st.taint {
		// (A pointer message kept in a variable, dec = m, makes the
		// received value itself a single-location mailbox: still the
		// message.)
		isMsg := info.elem == nil || info.elem.plain && (k == r.val || slices.Contains(r.copies, k))
		if info.msg != nil && isMsg && e.withinRecv(st, k) && !isCommaOk(k) &&
			(mt == "" || len(k) < len(mt) || len(k) == len(mt) && k < mt) {
			mt = k
		}
	}
	if mt != "" {
		e.mailboxStore(fr, b, st, mt, pos, "", false)
		if p := st.pending; p != nil && p.pos == pos && l.header == e.header && owner.depth == 0 {
			// A flag or count of an event loop, declared before it:
			// kept across iterations (keptAcross).
			q := *p
			q.kept = true
			st.pending = &q
		}
		return
	}
	if r.may {
		e.report(Finding{Cond: 3, Pos: pos, Unproven: true,
			Message: fmt.Sprintf("cannot tell that the value received at line %d, which this write depends on, is a message of the current round or a later one (its type is not known here)", e.line(r.pos))})
	}
}

// postDominates reports whether block w lies on every path from block r
// to the end of the iteration of reception loop l (its back edge or an
// exit), in fn.
func (e *engine) postDominates(fn *ssa.Function, l *natLoop, w, r *ssa.BasicBlock) bool {
	if w == r {
		return true
	}
	key := pdomKey{fn, l.header}
	pd := e.pdoms[key]
	if pd == nil {
		pd = computePdom(l)
		if e.pdoms == nil {
			e.pdoms = make(map[pdomKey]map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool)
		}
		e.pdoms[key] = pd
	}
	return pd[r][w]
}

type pdomKey struct {
	fn     *ssa.Function
	header *ssa.BasicBlock
}

// computePdom computes the post-dominators of each block of l within one
// iteration: the back edge and the exits lead to a common sink.
func computePdom(l *natLoop) map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool {
	pd := make(map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool)
	all := func() map[*ssa.BasicBlock]bool {
		m := make(map[*ssa.BasicBlock]bool, len(l.blocks))
		for b := range l.blocks {
			m[b] = true
		}
		return m
	}
	for b := range l.blocks {
		pd[b] = all()
	}
	for changed := true; changed; {
		changed = false
		for b := range l.blocks {
			var nw map[*ssa.BasicBlock]bool
			sink := len(b.Succs) == 0
			for _, s := range b.Succs {
				if s == l.header || !l.blocks[s] {
					sink = true
				}
			}
			if sink {
				nw = map[*ssa.BasicBlock]bool{}
			} else {
				for _, s := range b.Succs {
					if nw == nil {
						nw = make(map[*ssa.BasicBlock]bool)
						for x := range pd[s] {
							nw[x] = true
						}
						continue
					}
					for x := range nw {
						if !pd[s][x] {
							delete(nw, x)
						}
					}
				}
			}
			nw[b] = true
			if len(nw) != len(pd[b]) {
				pd[b], changed = nw, true
			}
		}
	}
	return pd
}

// declaredOutside reports whether the local variable or map v (an Alloc,
// a map made by the function) lives across the iterations of reception
// loop l: it is made before the loop.
// freshSlice reports whether v is a slice the function makes
// (make([]bool, n)) and keeps to itself: indexed, sliced, ranged over,
// measured, merged by phis, or handed to functions of the package that
// write nothing; never stored anywhere. Writing its elements is writing a
// local variable.
func (e *engine) freshSlice(v ssa.Value) bool {
	ms, ok := v.(*ssa.MakeSlice)
	if !ok {
		return false
	}
	if r, ok := e.fresh[ms]; ok {
		return r
	}
	seen := map[ssa.Value]bool{}
	var keeps func(v ssa.Value) bool
	keeps = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return true
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.IndexAddr, *ssa.Index, *ssa.DebugRef, *ssa.Range:
			case *ssa.Slice:
				if !keeps(r) {
					return false
				}
			case *ssa.Phi:
				if !keeps(r) {
					return false
				}
			case *ssa.Call:
				if bi, ok := r.Call.Value.(*ssa.Builtin); ok {
					if n := bi.Name(); n != "len" && n != "cap" {
						return false
					}
					continue
				}
				f := r.Call.StaticCallee()
				if f == nil || originOf(f).Pkg != e.fn.Pkg || !e.readOnly(originOf(f)) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	r := keeps(ms)
	if e.fresh == nil {
		e.fresh = make(map[*ssa.MakeSlice]bool)
	}
	e.fresh[ms] = r
	return r
}

func declaredOutside(v ssa.Value, l *natLoop, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	switch v := v.(type) {
	case *ssa.Alloc:
		return !l.blocks[v.Block()]
	case *ssa.MakeMap:
		return !l.blocks[v.Block()]
	case *ssa.MakeSlice:
		return !l.blocks[v.Block()]
	case *ssa.Call:
		return !l.blocks[v.Block()] // (a constructor's result, see freshStruct)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if a, ok := v.X.(*ssa.Alloc); ok {
				return !l.blocks[a.Block()]
			}
			if fa, ok := v.X.(*ssa.FieldAddr); ok {
				if a, ok := fa.X.(*ssa.Alloc); ok {
					return !l.blocks[a.Block()] // a field of a local struct
				}
			}
		}
	case *ssa.Phi:
		if !l.blocks[v.Block()] || v.Block() == l.header {
			return true
		}
		if seen == nil {
			seen = make(map[ssa.Value]bool)
		}
		seen[v] = true
		for _, x := range v.Edges {
			if declaredOutside(x, l, seen) {
				return true
			}
		}
		return false
	case *ssa.Const:
		return false
	}
	return true
}

// recvOwner returns the reception loop block b of frame fr lies in, and
// the frame whose function has that loop: fr's own innermost reception
// loop, or the one the call that inlined fr was made in.
// eventScope returns, in the event-loop style (the tagged loop receives
// one message per iteration itself, select { case <-tick: ...; case m :=
// <-in: ... }), the tagged loop when block b follows, in the same
// iteration and outside any inner loop, a receive of the tagged loop's
// own body: what the rest of the iteration writes into variables declared
// before the loop (heard[m.From] = true) is written by the reception.
func (e *engine) eventScope(fr *frame, b *ssa.BasicBlock, st *pstate) (*frame, *natLoop) {
	r := st.recv
	if fr.depth != 0 || r == nil || r.fr != fr || b == e.header {
		return nil, nil
	}
	for _, l := range fr.loops {
		if l.header != e.header {
			continue
		}
		if l.blocks[b] && l.blocks[r.b] && e.innerLoop(fr, b) == nil && e.ownReceptionLoop(fr, r.b) == nil && e.ownReceptionLoop(fr, b) == nil {
			return fr, l
		}
	}
	return nil, nil
}

// writeScope is recvOwner, or else eventScope: the loop whose reception
// a write at block b belongs to.
func (e *engine) writeScope(fr *frame, b *ssa.BasicBlock, st *pstate) (*frame, *natLoop) {
	if owner, l := e.recvOwner(fr, b); l != nil {
		return owner, l
	}
	return e.eventScope(fr, b, st)
}

func (e *engine) recvOwner(fr *frame, b *ssa.BasicBlock) (*frame, *natLoop) {
	if l := e.ownReceptionLoop(fr, b); l != nil {
		return fr, l
	}
	if fr.recvLoop != nil {
		return fr.recvFr, fr.recvLoop
	}
	return nil, nil
}

// indexesOf returns the indexes addr selects with (cnt[m.From]).
func indexesOf(addr ssa.Value) []ssa.Value {
	var out []ssa.Value
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			out = append(out, a.Index)
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return out
			}
			addr = a.X
		default:
			return out
		}
	}
}

// inSpan reports whether pos lies within the code of loop l (a variable
// declared there is made anew at each iteration).
func (e *engine) inSpan(l *natLoop, pos token.Pos) bool {
	lo, hi := token.NoPos, token.NoPos
	for b := range l.blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Phi); ok {
				continue
			}
			p := instr.Pos()
			if !p.IsValid() {
				continue
			}
			if !lo.IsValid() || p < lo {
				lo = p
			}
			if p > hi {
				hi = p
			}
		}
	}
	return lo.IsValid() && lo <= pos && pos <= hi
}

// writesState reports whether fn, or a function of the package it calls
// statically, writes memory other than its own local variables (a field,
// a map or a slice it is handed, a package variable): called inside a
// reception, it writes what the reception writes.
func (e *engine) writesState(fn *ssa.Function, visiting map[*ssa.Function]bool) bool {
	if w, ok := e.writesMem[fn]; ok {
		return w
	}
	if visiting[fn] {
		return false
	}
	if visiting == nil {
		visiting = make(map[*ssa.Function]bool)
	}
	visiting[fn] = true
	w := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				if base, ok := baseOf(in.Addr); ok {
					if a, isAlloc := base.(*ssa.Alloc); isAlloc && a.Parent() == fn {
						continue
					}
				}
				w = true
			case *ssa.MapUpdate:
				if !localMap(in.Map, nil) {
					w = true
				}
			case ssa.CallInstruction:
				if _, isGo := in.(*ssa.Go); isGo {
					continue
				}
				c := in.Common()
				callee := staticCallee(c)
				if callee == nil {
					if mc, ok := c.Value.(*ssa.MakeClosure); ok {
						callee = mc.Fn.(*ssa.Function)
					}
				}
				if callee != nil && callee.Pkg == fn.Pkg && callee.Blocks != nil && e.writesState(originOf(callee), visiting) {
					w = true
				}
			}
			if w {
				break
			}
		}
		if w {
			break
		}
	}
	if e.writesMem == nil {
		e.writesMem = make(map[*ssa.Function]bool)
	}
	e.writesMem[fn] = w
	return w
}

// isCommaOk reports whether t is the tuple of a comma-ok type assertion
// ("0/v5#ok3").
func isCommaOk(t term) bool {
	s := string(t)
	i := strings.LastIndex(s, "#ok")
	if i < 0 {
		return false
	}
	for _, c := range s[i+3:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
