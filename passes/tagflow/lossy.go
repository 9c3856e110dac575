package tagflow

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// Paths the engine cannot tell apart.
//
// A refutation of condition I (unbounded.go) stands for a real execution
// only if its path is one: the engine explores a branch both ways when its
// facts do not decide it, and that is right when the program may go either
// way, but not when it forgot what decided it. It forgets what the process
// state holds at every block boundary (live.go's project), so a flag set
// under a test of a received ballot and tested later
//
//	if prepares[0].Ballot > p.ballot { p.far = true } else { p.far = false }
//	...
//	if !p.far { p.ballot = prepares[0].Ballot }
//
// leads, on the engine's paths, to a jump to a ballot no test bounds,
// although every execution that jumps bounded it. So the engine notes the
// writes to the process state that depend on a test that bounds a received
// value one way and not the other: made between such a branch, both ways
// open, and the point where its two ways meet again (its immediate
// post-dominator within the iteration; the iteration's end if they never
// meet, or meet in a caller), or writing a value merged there (a flag set
// on both ways, then stored). A later branch that both ways are open to,
// whose condition reads such a location, bounds every root received before
// the write: the path is one of those the engine cannot tell apart from
// its infeasible twins. (Locations whose facts are kept across blocks, mailboxes and
// received messages, are not forgotten; a flag kept in a local variable is
// a fact of the path.)
//
// Tests that bound a root both ways or neither (m.Round == latest among
// the votes, which the witness's uniform shift keeps) are left out: a path
// that forgot their outcome goes on with the root unbounded either way, so
// a real execution, which takes one of them, meets the same refutation
// unless what follows depends on the forgotten outcome in a way that
// kills the violation on the way it takes. That remaining case is not
// excluded; it is much narrower (the onethirdrule corpus shows the cost of
// excluding it: its helper writes the estimate from the votes of the
// latest round, and every refutation after it would be lost).

// xregion is a branch on a received value whose ways have not met again:
// until, in frame fr (nil: the iteration's end).
type xregion struct {
	fr    *frame
	until *ssa.BasicBlock
}

// xWrite records a write of vals to the process state at addr (a map when
// !mem), if it depends on a test of a received value.
func (e *engine) xWrite(fr *frame, st *pstate, addr ssa.Value, mem bool, vals ...ssa.Value) {
	if st.xs == nil || len(st.xs.regions) == 0 && !e.implicitIn(fr, st, vals) {
		return
	}
	if mem && e.varAt(fr, st, addr) >= 0 {
		return // a synchronization variable: followed
	}
	if !e.stateValue(fr, addr) {
		return // a local: what is known of it is kept
	}
	loc := e.term(fr, st, addr)
	if mem {
		loc = loadOf(loc)
	}
	e.xWroteAt(st, loc)
}

// stateValue reports whether v is reached from the loop function's
// parameters, free variables or package variables (the process state,
// whose facts the engine forgets at block boundaries) rather than from its
// locals.
func (e *engine) stateValue(fr *frame, v ssa.Value) bool {
	switch e.localBase(fr, v).(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return true
	}
	return false
}

// xWroteAt records a write to the location loc of the process state.
func (e *engine) xWroteAt(st *pstate, loc term) {
	if debug {
		fmt.Printf("xwrote %s (near %v)\n", loc, e.pass.Fset.Position(e.xpos))
	}
	if st.xs != nil && st.xs.written[loc] == e.xids {
		return
	}
	x := st.mutX()
	if x.written == nil {
		x.written = make(map[term]int)
	}
	x.written[loc] = e.xids
}

// xCallWrites records the writes a call the engine does not follow may
// make to the process state: through what it is handed that leads there.
func (e *engine) xCallWrites(fr *frame, st *pstate, c *ssa.CallCommon) {
	args := c.Args
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, args...)
	}
	if st.xs == nil || len(st.xs.regions) == 0 && !e.implicitIn(fr, st, args) {
		return
	}
	for _, a := range args {
		switch a.Type().Underlying().(type) {
		case *types.Pointer, *types.Map, *types.Slice, *types.Interface:
		default:
			continue
		}
		if _, isConst := a.(*ssa.Const); isConst {
			continue
		}
		if !e.stateValue(fr, a) || !e.reachesState(a.Type(), 0) && !isMapType(a.Type()) {
			continue
		}
		loc := derefOf(e.term(fr, st, a))
		if s, ok := derefType(a.Type()).Underlying().(*types.Struct); ok && isPointer(a.Type()) {
			if fields, ok := e.storedFields(c); ok {
				// The fields of the struct a points to that the function
				// writes (the nil key: the elements of any slice or map).
				for i := range s.NumFields() {
					if fields[s.Field(i)] || fields[nil] && isCollection(s.Field(i).Type()) {
						e.xWroteAt(st, term(string(loc)+"."+strconv.Itoa(i)))
					}
				}
				continue
			}
		}
		e.xWroteAt(st, loc)
	}
}

// storedFields returns, for a call of a function of the package, the
// fields it (or a function of the package it calls) stores to or updates
// a map of, when every write it makes is to a field of a struct through a
// pointer, to its locals, or to the elements of slices and maps it hands
// to other packages (the nil key).
func (e *engine) storedFields(c *ssa.CallCommon) (map[*types.Var]bool, bool) {
	f := c.StaticCallee()
	if f == nil || c.IsInvoke() {
		return nil, false
	}
	f = originOf(f)
	if f.Pkg != e.fn.Pkg {
		return nil, false
	}
	fields := make(map[*types.Var]bool)
	ok := e.collectStores(f, fields, map[*ssa.Function]bool{}, 0)
	return fields, ok
}

// readOnly reports whether f, and the functions it calls, write no memory
// but their locals: no field, no element of a slice or map they are
// handed, nothing through code of other packages or dynamic calls.
func (e *engine) readOnly(f *ssa.Function) bool {
	if r, ok := e.readOnlyFns[f]; ok {
		return r
	}
	fields := make(map[*types.Var]bool)
	r := e.collectStores(f, fields, map[*ssa.Function]bool{}, 0) && len(fields) == 0
	if e.readOnlyFns == nil {
		e.readOnlyFns = make(map[*ssa.Function]bool)
	}
	e.readOnlyFns[f] = r
	return r
}

// collectStores adds to fields those f writes (see storedFields); false if
// it may write elsewhere.
func (e *engine) collectStores(f *ssa.Function, fields map[*types.Var]bool, seen map[*ssa.Function]bool, depth int) bool {
	if seen[f] {
		return true
	}
	seen[f] = true
	if depth > 4 || f.Blocks == nil {
		return false
	}
	var field func(addr ssa.Value) bool
	field = func(addr ssa.Value) bool {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return !a.Heap
		case *ssa.FieldAddr:
			if s, ok := derefType(a.X.Type()).Underlying().(*types.Struct); ok {
				fields[s.Field(a.Field)] = true
				return true
			}
		case *ssa.IndexAddr:
			switch x := a.X.(type) {
			case *ssa.Alloc:
				return !x.Heap // a local array or slice literal
			case *ssa.UnOp:
				// An element of a slice kept in a field (p.acks[i] = a).
				return x.Op == token.MUL && field(x.X)
			case *ssa.FieldAddr:
				return field(x) // of an array in a field
			}
		case *ssa.UnOp:
			return a.Op == token.MUL && field(a.X) // (a map kept in a field)
		}
		return false
	}
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				if !field(in.Addr) {
					return false
				}
			case *ssa.MapUpdate:
				if _, made := in.Map.(*ssa.MakeMap); !made && !field(in.Map) {
					return false
				}
			case *ssa.Go, *ssa.Defer:
				return false
			case ssa.CallInstruction:
				cc := in.Common()
				if bi, ok := cc.Value.(*ssa.Builtin); ok {
					switch bi.Name() {
					case "delete", "clear", "copy":
						if _, made := cc.Args[0].(*ssa.MakeMap); !made && !field(cc.Args[0]) {
							return false
						}
					}
					continue
				}
				g := cc.StaticCallee()
				if g != nil && originOf(g).Pkg == e.fn.Pkg {
					if !e.collectStores(originOf(g), fields, seen, depth+1) {
						return false
					}
					continue
				}
				// Code of another package: only what it is handed that
				// it could write through (a slice or a map: its elements,
				// whichever they are).
				for _, a := range cc.Args {
					switch a.Type().Underlying().(type) {
					case *types.Map, *types.Slice:
						fields[nil] = true
					case *types.Pointer, *types.Interface, *types.Signature, *types.Chan:
						return false
					}
				}
				if cc.IsInvoke() || g == nil {
					return false
				}
			}
		}
	}
	for _, an := range f.AnonFuncs {
		if !e.collectStores(an, fields, seen, depth+1) {
			return false
		}
	}
	return true
}

// xRegion opens, on the states sts of both ways of a branch on cond at
// the end of block b, the region of the branch if cond depends on a root.
func (e *engine) xRegion(fr *frame, b *ssa.BasicBlock, sts []*pstate, cond ssa.Value) {
	if sameCaps(sts[0].xs, sts[1].xs) {
		// A test that bounds the same roots both ways (none, usually:
		// x >= y one way, x < y the other bounds x on one only): a
		// witness keeps its outcome, and what depends on it stays
		// consistent with the path.
		return
	}
	for _, st := range sts {
		x := st.mutX()
		x.regions = append(slices.Clip(x.regions), xregion{fr: fr, until: e.ipdom(fr, b)})
	}
}

// sameCaps reports whether a and b bound the same roots.
func sameCaps(a, b *xstate) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if a.lossy != b.lossy || len(a.capped) != len(b.capped) {
		return false
	}
	for r := range a.capped {
		if !b.capped[r] {
			return false
		}
	}
	return true
}

// xEnter closes, at the entry of block b of frame fr, the regions that end
// there; the values its phis merge from their ways depend on the tests.
func (e *engine) xEnter(fr *frame, b *ssa.BasicBlock, st *pstate) {
	x := st.xs
	if x == nil || len(x.regions) == 0 {
		return
	}
	closes := false
	for _, r := range x.regions {
		closes = closes || r.fr == fr && r.until == b
	}
	if !closes {
		return
	}
	x = st.mutX()
	x.regions = slices.DeleteFunc(slices.Clone(x.regions), func(r xregion) bool { return r.fr == fr && r.until == b })
	for _, instr := range b.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if x.implicit == nil {
			x.implicit = make(map[term]bool)
		}
		x.implicit[e.term(fr, st, phi)] = true
	}
}

// xIterationEnd closes the regions at the loop's back edge.
func (st *pstate) xIterationEnd() {
	if st.xs != nil && (len(st.xs.regions) > 0 || len(st.xs.implicit) > 0) {
		x := st.mutX()
		x.regions, x.implicit = nil, nil
	}
}

// implicitIn reports whether one of vals is computed from a value merged
// where a region closed.
func (e *engine) implicitIn(fr *frame, st *pstate, vals []ssa.Value) bool {
	if st.xs == nil || len(st.xs.implicit) == 0 {
		return false
	}
	seen := make(map[ssa.Value]bool)
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if v == nil || depth > 8 || seen[v] {
			return false
		}
		seen[v] = true
		if _, ok := v.(*ssa.Const); ok {
			return false
		}
		if st.xs.implicit[e.term(fr, st, v)] {
			return true
		}
		instr, ok := v.(ssa.Instruction)
		if !ok {
			return false
		}
		if _, isPhi := v.(*ssa.Phi); isPhi {
			return false
		}
		for _, op := range instr.Operands(nil) {
			if walk(*op, depth+1) {
				return true
			}
		}
		return false
	}
	for _, v := range vals {
		if walk(v, 0) {
			return true
		}
	}
	return false
}

// ipdom returns the immediate post-dominator of b in frame fr, within one
// iteration of the loop for the loop's own frame (its back edges and exits
// lead out),
// or nil if b's ways do not meet again (before the function returns).
func (e *engine) ipdom(fr *frame, b *ssa.BasicBlock) *ssa.BasicBlock {
	loopFrame := fr.depth == 0 && fr.fn == e.fn
	key := pdomFnKey{fr.fn, loopFrame}
	m, ok := e.ipdoms[key]
	if !ok {
		m = postDominators(fr.fn, func(from, to *ssa.BasicBlock) bool {
			return loopFrame && e.region[from] && (to == e.header || !e.region[to])
		})
		if e.ipdoms == nil {
			e.ipdoms = make(map[pdomFnKey]map[*ssa.BasicBlock]*ssa.BasicBlock)
		}
		e.ipdoms[key] = m
	}
	return m[b]
}

// pdomFnKey keys ipdom's cache.
type pdomFnKey struct {
	fn        *ssa.Function
	loopFrame bool
}

// postDominators returns the immediate post-dominators of fn's blocks, an
// edge for which out holds leading to the exit instead (Cooper, Harvey and
// Kennedy's algorithm on the reversed graph).
func postDominators(fn *ssa.Function, out func(from, to *ssa.BasicBlock) bool) map[*ssa.BasicBlock]*ssa.BasicBlock {
	n := len(fn.Blocks)
	exit := n // the virtual exit's index
	succs := func(i int) []int {
		var r []int
		b := fn.Blocks[i]
		if len(b.Succs) == 0 {
			return []int{exit}
		}
		toExit := false
		for _, s := range b.Succs {
			if out(b, s) {
				toExit = true
			} else {
				r = append(r, s.Index)
			}
		}
		if toExit {
			r = append(r, exit)
		}
		return r
	}
	preds := make([][]int, n+1) // in the reversed graph: successors
	for i := range n {
		for _, s := range succs(i) {
			preds[s] = append(preds[s], i)
		}
	}
	// Postorder of the reversed graph from the exit.
	order := make([]int, n+1)
	for i := range order {
		order[i] = -1
	}
	var post []int
	var dfs func(i int)
	visited := make([]bool, n+1)
	dfs = func(i int) {
		visited[i] = true
		for _, p := range preds[i] {
			if !visited[p] {
				dfs(p)
			}
		}
		order[i] = len(post)
		post = append(post, i)
	}
	dfs(exit)
	idom := make([]int, n+1)
	for i := range idom {
		idom[i] = -1
	}
	idom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for order[a] < order[b] {
				a = idom[a]
			}
			for order[b] < order[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(post) - 1; k >= 0; k-- {
			i := post[k]
			if i == exit {
				continue
			}
			nd := -1
			for _, s := range succs(i) {
				if idom[s] < 0 {
					continue
				}
				if nd < 0 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if nd >= 0 && idom[i] != nd {
				idom[i] = nd
				changed = true
			}
		}
	}
	r := make(map[*ssa.BasicBlock]*ssa.BasicBlock, n)
	for i := range n {
		if d := idom[i]; d >= 0 && d != exit {
			r[fn.Blocks[i]] = fn.Blocks[d]
		}
	}
	return r
}

// xLossy records, for a branch on cond that both ways are open to, that
// the roots received before a write the condition reads are bounded.
func (e *engine) xLossy(fr *frame, sts []*pstate, cond ssa.Value) {
	for _, st := range sts {
		if st.xs == nil || len(st.xs.written) == 0 {
			continue
		}
		if c := e.readsWritten(fr, st, cond, 0, map[ssa.Value]bool{}); c > st.xs.lossy {
			if debug {
				fmt.Printf("xlossy %d: branch on %s (near %v) written %v\n", c, e.term(fr, st, cond), e.pass.Fset.Position(cond.Pos()), st.xs.written)
			}
			st.mutX().lossy = c
		}
	}
}

// readsWritten returns the largest root counter of the written locations
// that v is computed from, through the registers of its function (0:
// none).
func (e *engine) readsWritten(fr *frame, st *pstate, v ssa.Value, depth int, seen map[ssa.Value]bool) int {
	if depth > 12 || seen[v] {
		return 0
	}
	seen[v] = true
	c := 0
	switch v := v.(type) {
	case *ssa.Const, *ssa.Parameter, *ssa.FreeVar, *ssa.Global, *ssa.Function, *ssa.Builtin:
		return 0
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if e.varAt(fr, st, v.X) >= 0 {
				return 0 // a synchronization variable: followed
			}
			return e.writtenAt(st, e.term(fr, st, v))
		}
	case *ssa.Call:
		if _, ok := v.Call.Value.(*ssa.Builtin); !ok {
			// A call may read what was written below what it is handed
			// (its result's facts are those of the paths it returned by,
			// when it was followed: conservatively, it read it), or
			// anything, if it may read package variables.
			if e.mayReadAll(&v.Call) {
				for _, w := range st.xs.written {
					c = max(c, w)
				}
				return c
			}
			args := v.Call.Args
			if v.Call.IsInvoke() {
				args = append([]ssa.Value{v.Call.Value}, args...)
			}
			for _, a := range args {
				if e.reachesState(a.Type(), 0) || isMapType(a.Type()) {
					c = max(c, e.writtenAt(st, derefOf(e.term(fr, st, a))))
				}
			}
		}
	case *ssa.Lookup:
		c = e.writtenAt(st, e.term(fr, st, v.X))
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return c
	}
	for _, op := range instr.Operands(nil) {
		if *op != nil {
			c = max(c, e.readsWritten(fr, st, *op, depth+1, seen))
		}
	}
	return c
}

// writtenAt returns the root counter of the written location t lies in
// (or that lies in t), unless what is known of t is kept across blocks.
func (e *engine) writtenAt(st *pstate, t term) int {
	c := 0
	for loc, w := range st.xs.written {
		if within(t, loc) || within(loc, t) {
			c = max(c, w)
		}
	}
	if c == 0 {
		return 0
	}
	if _, info := st.tainted(t); info != nil || st.marked(t) {
		return 0
	}
	return c
}

// readsGlobals reports whether f, or a function of the package it calls,
// refers to a package variable (the process state may be one).
func (e *engine) readsGlobals(f *ssa.Function, depth int) bool {
	if r, ok := e.globalReaders[f]; ok {
		return r
	}
	if e.globalReaders == nil {
		e.globalReaders = make(map[*ssa.Function]bool)
	}
	e.globalReaders[f] = true // (a cycle, or too deep: assume it does)
	if depth > 4 {
		return true
	}
	r := false
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			for _, op := range instr.Operands(nil) {
				switch v := (*op).(type) {
				case *ssa.Global:
					r = true
				case *ssa.Function:
					if o := originOf(v); o.Pkg == e.fn.Pkg && o != f && e.readsGlobals(o, depth+1) {
						r = true
					}
				}
			}
			if c, ok := instr.(ssa.CallInstruction); ok && c.Common().StaticCallee() == nil {
				r = true // a function value or an interface method
			}
		}
	}
	for _, an := range f.AnonFuncs {
		r = r || e.readsGlobals(an, depth+1)
	}
	e.globalReaders[f] = r
	return r
}

// mayReadAll reports whether the call c may read any of the process
// state, not only through what it is handed: a function value, a method
// of the package called through an interface, code of the package that
// refers to package variables.
func (e *engine) mayReadAll(c *ssa.CallCommon) bool {
	switch f := c.StaticCallee(); {
	case c.IsInvoke():
		return e.pkgMethod(c.Method.Name(), c.Signature())
	case f == nil:
		return true
	default:
		return originOf(f).Pkg == e.fn.Pkg && e.readsGlobals(originOf(f), 0)
	}
}
