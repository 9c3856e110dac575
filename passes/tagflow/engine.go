package tagflow

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Limits that keep the analysis of one loop bounded; past them the engine
// says it cannot prove the conditions instead of running on.
var (
	maxStatesPerBlock = 1024
	widenAfter        = 32
	maxSteps          = 200000
)

const maxInlineDepth = 4

// engine interprets one tagged loop.
type engine struct {
	pass *analysis.Pass
	ann  *annotations.Annotations
	loop *annotations.Loop
	fn   *ssa.Function
	sum  *summaries
	out  *Loop

	vars   []*varLoc
	header *ssa.BasicBlock
	// keeps caches keepsMailbox (maxloop.go).
	keeps map[*natLoop]bool
	// goFedChans caches goFed (gofed.go).
	goFedChans map[fieldKey]token.Pos
	region     map[*ssa.BasicBlock]bool
	ids        map[ssa.Value]int
	steps      int
	// frames are numbered for term names.
	nframes int
	// writeIdents are the identifiers assigned to, for lifted locals;
	// helperIdents the same for inlined functions.
	writeIdents  map[*ast.Ident]bool
	helperIdents map[*ssa.Function]map[*ast.Ident]bool
	aborted      bool
	// entries collects what is known at the entry of nested tagged loops;
	// entry is this loop's, when known.
	entries map[*annotations.Loop]*entry
	entry   *entry
	// scratch is project's working space.
	scratch *projectScratch
	// live caches the liveness of the functions interpreted.
	live map[*ssa.Function]liveness
	// writesMem caches writesState.
	writesMem map[*ssa.Function]bool
	// inside caches exitInside.
	inside map[*ssa.BasicBlock]bool
	// asserted are the types of comma-ok type assertions, numbered.
	asserted []types.Type
	// dynWrites caches dynWritesState.
	dynWrites map[string]bool
	// pdoms caches the post-dominators of reception loops' iterations.
	pdoms map[pdomKey]map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool
	// xids numbers the roots of unbounded.go; pkgMethods caches
	// pkgMethod.
	xids       int
	pkgMethods map[string]bool
	// soleData caches soleDatum; indexed caches indexedParams;
	// globalReaders caches readsGlobals.
	soleData      map[ssa.Value]bool
	indexed       map[*ssa.Function][]bool
	globalReaders map[*ssa.Function]bool
	// indexExprs maps the [ of the package's index expressions to them
	// (describe).
	indexExprs map[token.Pos]ast.Expr
	// ranges caches constRange, by variable.
	ranges map[int]*[3]int64
	// fresh caches freshSlice.
	fresh map[*ssa.MakeSlice]bool
	// readOnlyFns caches readOnly.
	readOnlyFns map[*ssa.Function]bool
	// stores numbers the stores into mailboxes (elemInfo.gen).
	stores int
	// ipdoms caches ipdom.
	ipdoms map[pdomFnKey]map[*ssa.BasicBlock]*ssa.BasicBlock
	// resultAlias marks the alias keys of the results of inlined calls
	// returning several (see inline): dropped outright once dead.
	resultAlias map[string]bool
	xpos        token.Pos // debugging: the instruction followed
	// curFr is the frame of the instruction being interpreted.
	curFr *frame
	// recvHelpers caches recvHelper.
	recvHelpers map[*ssa.Function]bool
	// notFollowed are the calls interpreted as opaque (opaqueCall).
	notFollowed map[*ssa.Call]bool
	// hoisted are the positions hoistedMailbox reported.
	hoisted map[token.Pos]bool
	// stats accumulates what the loop's Stats count (stats.go);
	// incomplete is set when the analysis gave up on the whole loop.
	stats      *statsAcc
	incomplete bool
}

// varLoc says where a synchronization variable lives in SSA.
type varLoc struct {
	sv *annotations.SyncVar
	// obj is the root variable.
	obj *types.Var
	// fields are the struct field indices of the path.
	fields []int
	// root is the SSA value of the root in the loop's function: a pointer
	// (parameter, free variable, alloc, global) whose pointee holds the
	// path; nil for a lifted local that is itself the variable.
	root ssa.Value
	// lifted marks a local kept in SSA registers, tracked via DebugRef.
	lifted bool
	// base is the term of the pointer the field path starts from.
	base term
	// addr is the term of the variable's address, when it is in memory:
	// an address computed elsewhere (a method of an embedded struct
	// selecting the field from its receiver) has the same term.
	addr term
}

// frame is one function being interpreted: the loop's function, or an
// inlined callee.
type frame struct {
	fn    *ssa.Function
	ctx   string
	bind  map[ssa.Value]term
	depth int
	// loops are the natural loops of fn, for finding receptions.
	loops []*natLoop
	// live is the liveness of fn's values, computed on demand.
	live liveness
	// returns collects the states at the callee's return instructions.
	returns []*pstate
	retVals [][]term
	// parent and callBlock are the frame and block of the call that
	// inlined this one (nil for the loop's function).
	parent    *frame
	callBlock *ssa.BasicBlock
	call      *ssa.Call
	// recvFr and recvLoop are the reception loop the call was made in,
	// if any: the callee's code is inside that reception.
	recvFr   *frame
	recvLoop *natLoop
}

// natLoop is a natural loop of the SSA control-flow graph.
type natLoop struct {
	header *ssa.BasicBlock
	blocks map[*ssa.BasicBlock]bool
}

func newEngine(pass *analysis.Pass, ann *annotations.Annotations, l *annotations.Loop, fn *ssa.Function, sum *summaries, out *Loop) *engine {
	return &engine{pass: pass, ann: ann, loop: l, fn: fn, sum: sum, out: out, ids: make(map[ssa.Value]int)}
}

func (e *engine) report(f Finding) {
	// A finding inside a helper says where the loop called it (on the
	// first path that reached it: a helper called from several places
	// is reported once).
	if fr := e.curFr; fr != nil && fr.depth > 0 {
		if syn := fr.fn.Syntax(); syn != nil && syn.Pos() <= f.Pos && f.Pos < syn.End() {
			for ; fr != nil && fr.depth > 0 && fr.call != nil && len(f.Related) < 8; fr = fr.parent {
				if fr.call.Pos().IsValid() {
					f.Related = append(f.Related, annotations.Related{Pos: fr.call.Pos(), Message: calleeName(fr.call.Common()) + " is called here"})
				}
			}
		}
	}
	e.out.Findings = append(e.out.Findings, f)
}

func (e *engine) unprovenAll(pos token.Pos, format string, args ...any) {
	e.incomplete = true
	for c := 1; c <= 4; c++ {
		e.report(unproven(pos, c, format, args...))
	}
}

// testHookAnalyse, when set by a test, runs at the start of every loop's
// analysis (to check that a panic there is contained).
var testHookAnalyse func(*annotations.Loop)

// analyse runs the interpretation of the loop.
func (e *engine) analyse() {
	if testHookAnalyse != nil {
		testHookAnalyse(e.loop)
	}
	if e.fn.Blocks == nil {
		e.unprovenAll(e.loop.Pos(), "the loop's function has no body in SSA")
		return
	}
	loops := naturalLoops(e.fn)
	e.header, e.region = e.findLoop(loops)
	if e.header == nil {
		e.unprovenAll(e.loop.Pos(), "cannot find the loop in SSA (does its body ever repeat?)")
		return
	}
	if !e.locateVars() {
		return
	}
	e.collectWriteIdents()
	fr := &frame{fn: e.fn, ctx: "0", depth: 0, loops: loops}
	e.nframes = 1
	entry := &pstate{
		cur: make([]term, len(e.vars)), old: make([]term, len(e.vars)), set: make([]token.Pos, len(e.vars)),
		alias: map[string]term{}, taint: map[term]*taintInfo{}, conds: map[term]fact{},
	}
	pre := e.preheaderConsts()
	for i := range e.vars {
		entry.cur[i] = term(fmt.Sprintf("s:entry#%d", i))
		if e.entry != nil && e.entry.consts[i] != "" {
			entry.cur[i] = e.entry.consts[i]
		} else if pre[i] != "" {
			entry.cur[i] = pre[i]
		}
		entry.old[i] = entry.cur[i]
	}
	entry.cpPos, entry.cpWhat = e.loop.Pos(), "the start of the loop"
	e.entryPhis(fr, entry)
	e.run(fr, e.header, []*pstate{entry}, true)
}

// entryPhis gives the loop header's phis the constants they take when the
// loop is entered from its one block outside (rejoin := false before the
// loop, then if rejoin { ... } in its body).
func (e *engine) entryPhis(fr *frame, st *pstate) {
	idx := -1
	for i, p := range e.header.Preds {
		if e.region[p] {
			continue
		}
		if idx >= 0 {
			return // entered from several places
		}
		idx = i
	}
	if idx < 0 {
		return
	}
	for _, instr := range e.header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if c, ok := phi.Edges[idx].(*ssa.Const); ok && c.Value != nil && isTracked(c.Type()) {
			st.add(mkFact(e.term(fr, nil, phi), token.EQL, e.term(fr, nil, c)))
		}
	}
}

// preheaderConsts returns, for each synchronization variable kept in
// memory, the constant the code just before the loop sets it to (p.step =
// Propose above the for statement), or "": the loop is entered with that
// round. Only the block that enters the loop is read, and a call or a
// store that may reach the variable by another pointer after the
// assignment undoes it.
func (e *engine) preheaderConsts() []term {
	out := make([]term, len(e.vars))
	var pre *ssa.BasicBlock
	for _, p := range e.header.Preds {
		if e.region[p] {
			continue
		}
		if pre != nil {
			return out // entered from several places
		}
		pre = p
	}
	if pre == nil {
		return out
	}
	fr := &frame{fn: e.fn, ctx: "0"}
	for _, instr := range pre.Instrs {
		switch in := instr.(type) {
		case *ssa.Store:
			if i := e.varAt(fr, nil, in.Addr); i >= 0 {
				out[i] = ""
				if c, ok := in.Val.(*ssa.Const); ok && c.Value != nil && isTracked(c.Type()) {
					out[i] = e.term(fr, nil, c)
				}
				continue
			}
			fa, ok := in.Addr.(*ssa.FieldAddr)
			for i, v := range e.vars {
				if !ok || len(v.fields) == 0 || fa.Field == v.fields[len(v.fields)-1] {
					out[i] = ""
				}
			}
		case ssa.CallInstruction:
			clear(out)
		}
	}
	return out
}

// findLoop maps the for statement to the largest natural loop whose code
// lies inside it.
func (e *engine) findLoop(loops []*natLoop) (*ssa.BasicBlock, map[*ssa.BasicBlock]bool) {
	nl := loopOf(loops, e.loop.Stmt)
	if nl == nil {
		return nil, nil
	}
	return nl.header, nl.blocks
}

// loopOf returns the largest natural loop whose code lies inside stmt and
// whose header has code of stmt (so that a loop around stmt, whose only
// body is stmt, is not taken for it). A range loop over a slice has no
// positioned code in its header; it is then the largest loop inside stmt.
func loopOf(loops []*natLoop, stmt ast.Stmt) *natLoop {
	if l := loopOfHeader(loops, stmt, true); l != nil {
		return l
	}
	return loopOfHeader(loops, stmt, false)
}

func loopOfHeader(loops []*natLoop, stmt ast.Stmt, needHeader bool) *natLoop {
	lo, hi := stmt.Pos(), stmt.End()
	var best *natLoop
	for _, nl := range loops {
		inside, any := true, false
		for b := range nl.blocks {
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Phi); ok {
					continue // a phi's position is its variable's declaration
				}
				p := instr.Pos()
				if !p.IsValid() {
					continue
				}
				if p < lo || p >= hi {
					inside = false
				} else if b == nl.header || !needHeader {
					any = true
				}
			}
		}
		if inside && any && (best == nil || len(nl.blocks) > len(best.blocks)) {
			best = nl
		}
	}
	return best
}

// isTagged reports whether natural loop l of fn is the loop of some
// //sync:tag other than the one being analysed: a nested machine, not a
// reception.
func (e *engine) isTagged(fn *ssa.Function, loops []*natLoop, l *natLoop) bool {
	syn := fn.Syntax()
	for _, other := range e.ann.Loops {
		if other == e.loop || other.Func != syn {
			continue
		}
		if loopOf(loops, other.Stmt) == l {
			return true
		}
	}
	return false
}

// naturalLoops finds the natural loops of fn by their back edges.
func naturalLoops(fn *ssa.Function) []*natLoop {
	byHeader := make(map[*ssa.BasicBlock]*natLoop)
	var out []*natLoop
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if !s.Dominates(b) {
				continue
			}
			nl := byHeader[s]
			if nl == nil {
				nl = &natLoop{header: s, blocks: map[*ssa.BasicBlock]bool{s: true}}
				byHeader[s] = nl
				out = append(out, nl)
			}
			// Add the blocks that reach b without passing the header.
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if nl.blocks[x] {
					continue
				}
				nl.blocks[x] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	return out
}

// locateVars finds each synchronization variable's root in SSA.
func (e *engine) locateVars() bool {
	for _, sv := range e.loop.Vars {
		vl := &varLoc{sv: sv, obj: sv.Root}
		t := sv.Root.Type()
		for _, f := range sv.Fields {
			st, ok := derefType(t).Underlying().(*types.Struct)
			if !ok {
				e.unprovenAll(sv.Pos, "cannot follow the field path of %s", sv.Name)
				return false
			}
			for j := 0; j < st.NumFields(); j++ {
				if st.Field(j) == f {
					vl.fields = append(vl.fields, j)
				}
			}
			t = f.Type()
		}
		root, lifted, ok := e.rootValue(sv.Root)
		if !ok {
			e.unprovenAll(sv.Pos, "cannot find where %s lives in the compiled code", sv.Name)
			return false
		}
		if lifted && len(vl.fields) > 0 {
			// A lifted local struct cannot have its fields assigned; a
			// lifted pointer is the root of the path.
			if _, isPtr := sv.Root.Type().Underlying().(*types.Pointer); !isPtr {
				e.unprovenAll(sv.Pos, "cannot follow %s", sv.Name)
				return false
			}
		}
		vl.root, vl.lifted = root, lifted && len(vl.fields) == 0
		vl.base = e.term(&frame{ctx: "0"}, nil, root)
		switch root.(type) {
		case *ssa.Alloc, *ssa.FreeVar, *ssa.Global:
			// root is the variable's address; a pointer variable is loaded
			// before its fields are selected.
			if _, isPtr := sv.Root.Type().Underlying().(*types.Pointer); isPtr && len(vl.fields) > 0 {
				vl.base = loadOf(vl.base)
			}
		}
		if !vl.lifted {
			vl.addr = vl.base
			for k, f := range sv.Fields {
				vl.addr = term(string(derefOf(vl.addr)) + "." + strconv.Itoa(vl.fields[k]) + "&")
				if _, isPtr := f.Type().Underlying().(*types.Pointer); isPtr && k < len(sv.Fields)-1 {
					vl.addr = loadOf(vl.addr)
				}
			}
		}
		e.vars = append(e.vars, vl)
		if debug {
			fmt.Printf("var %s: root %v (%T) base %s fields %v lifted %v\n", sv.Name, root, root, vl.base, vl.fields, vl.lifted)
		}
	}
	return true
}

// rootValue finds the SSA value of a root variable in the loop's function.
func (e *engine) rootValue(obj *types.Var) (ssa.Value, bool, bool) {
	if obj.Parent() == e.pass.Pkg.Scope() || obj.Pkg() != e.pass.Pkg && obj.Parent() == obj.Pkg().Scope() {
		// A package variable: its address is a global.
		for _, m := range e.fn.Prog.AllPackages() {
			if m.Pkg == obj.Pkg() {
				if g := m.Var(obj.Name()); g != nil {
					return g, false, true
				}
			}
		}
		return nil, false, false
	}
	for _, p := range e.fn.Params {
		if p.Object() == obj {
			// A parameter captured by a closure is spilled to memory at
			// the function's entry, and read from there.
			if a := spilled(p); a != nil {
				return a, false, true
			}
			if !hasAddrRef(e.fn, obj) {
				return p, true, true
			}
		}
	}
	var lifted ssa.Value
	for _, b := range e.fn.Blocks {
		for _, instr := range b.Instrs {
			ref, ok := instr.(*ssa.DebugRef)
			if !ok || ref.Object() != obj {
				continue
			}
			if ref.IsAddr {
				return ref.X, false, true
			}
			lifted = ref.X
		}
	}
	for _, fv := range e.fn.FreeVars {
		if fv.Name() == obj.Name() && types.Identical(derefType(fv.Type()), obj.Type()) {
			return fv, false, true
		}
	}
	if lifted != nil {
		return lifted, true, true
	}
	return nil, false, false
}

// spilled returns the local variable a parameter is stored into at the
// function's entry (because a closure captures it), or nil.
func spilled(p *ssa.Parameter) *ssa.Alloc {
	for _, r := range *p.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Val == ssa.Value(p) {
			// The spill is the parameter's own variable (declared at
			// the parameter), not a local initialised from it.
			if a, ok := st.Addr.(*ssa.Alloc); ok && a.Pos() == p.Pos() && a.Comment == p.Name() {
				return a
			}
		}
	}
	return nil
}

func hasAddrRef(fn *ssa.Function, obj *types.Var) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ref, ok := instr.(*ssa.DebugRef); ok && ref.Object() == obj && ref.IsAddr {
				return true
			}
		}
	}
	return false
}

// collectWriteIdents finds the identifiers that are assigned to in the
// loop's function, to tell writes of lifted locals from reads.
func (e *engine) collectWriteIdents() {
	e.writeIdents = writeIdentsOf(e.fn.Syntax())
}

// helperWrites returns the identifiers assigned to in fn, an inlined
// function (cached).
func (e *engine) helperWrites(fn *ssa.Function) map[*ast.Ident]bool {
	if w, ok := e.helperIdents[fn]; ok {
		return w
	}
	if e.helperIdents == nil {
		e.helperIdents = make(map[*ssa.Function]map[*ast.Ident]bool)
	}
	w := writeIdentsOf(fn.Syntax())
	e.helperIdents[fn] = w
	return w
}

// writeIdentsOf returns the identifiers assigned to in syn.
func writeIdentsOf(syn ast.Node) map[*ast.Ident]bool {
	w := make(map[*ast.Ident]bool)
	if syn == nil {
		return w
	}
	ast.Inspect(syn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					w[id] = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				w[id] = true
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if id, ok := x.(*ast.Ident); ok {
					w[id] = true
				}
			}
		}
		return true
	})
	return w
}

// typeID numbers the types asserted in the loop, identical types alike.
func (e *engine) typeID(t types.Type) int {
	for i, u := range e.asserted {
		if types.Identical(t, u) {
			return i
		}
	}
	e.asserted = append(e.asserted, t)
	return len(e.asserted) - 1
}

func (e *engine) id(v ssa.Value) int {
	if i, ok := e.ids[v]; ok {
		return i
	}
	i := len(e.ids) + 1
	e.ids[v] = i
	return i
}

// term names v in frame fr and state st.
func (e *engine) term(fr *frame, st *pstate, v ssa.Value) term {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && (v.Value.Kind() == constant.Int || v.Value.Kind() == constant.Bool) {
			return constTerm(v.Value)
		}
		if v.IsNil() {
			return "c:nil"
		}
	case *ssa.Parameter, *ssa.FreeVar:
		if t, ok := fr.bind[v]; ok {
			return t
		}
	case *ssa.Global:
		return term("g:" + v.Pkg.Pkg.Path() + "." + v.Name())
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if e.varAt(fr, st, v.X) >= 0 || len(e.heldVars(fr, st, v)) > 0 {
				break // a load of a synchronization variable, or of a struct holding one: its own value
			}
			return loadOf(e.term(fr, st, v.X))
		}
	case *ssa.FieldAddr:
		return term(string(derefOf(e.term(fr, st, v.X))) + "." + strconv.Itoa(v.Field) + "&")
	case *ssa.Field:
		return term(string(e.term(fr, st, v.X)) + "." + strconv.Itoa(v.Field))
	case *ssa.IndexAddr:
		idx := "?" + strconv.Itoa(e.id(v))
		if c, ok := v.Index.(*ssa.Const); ok && c.Value != nil {
			idx = c.Value.ExactString()
		}
		return term(string(derefOf(e.term(fr, st, v.X))) + "[" + idx + "]&")
	case *ssa.Lookup:
		if _, isMap := v.X.Type().Underlying().(*types.Map); isMap {
			t := term(string(derefOf(e.term(fr, st, v.X))) + "[?" + strconv.Itoa(e.id(v)) + "]")
			if v.CommaOk {
				return t + "#"
			}
			return t
		}
	case *ssa.Slice:
		return term(string(e.term(fr, st, v.X)) + "[:]")
	case *ssa.Index:
		if c, ok := v.Index.(*ssa.Const); ok && c.Value != nil {
			return term(string(e.term(fr, st, v.X)) + "[" + c.Value.ExactString() + "]")
		}
	case *ssa.ChangeType:
		return e.term(fr, st, v.X)
	case *ssa.Convert:
		if isIntegerType(v.X.Type()) && isIntegerType(v.Type()) && e.lossless(v.X.Type(), v.Type()) {
			return e.term(fr, st, v.X)
		}
	case *ssa.MakeInterface:
		return e.term(fr, st, v.X)
	case *ssa.ChangeInterface:
		return e.term(fr, st, v.X)
	case *ssa.TypeAssert:
		if !v.CommaOk {
			return e.term(fr, st, v.X)
		}
		// The assertion's type is part of the name: the cases of a type
		// switch assert different types of the same value, and a failed
		// first case says nothing of the second.
		return term(string(e.term(fr, st, v.X)) + "#ok" + strconv.Itoa(e.typeID(v.AssertedType)))
	case *ssa.Extract:
		if _, ok := v.Tuple.(*ssa.Call); ok && st != nil {
			// A result of an inlined call (see inline).
			if a, ok := st.alias[fr.ctx+"/v"+strconv.Itoa(e.id(v))]; ok {
				return a
			}
		}
		if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 {
			return e.term(fr, st, ta.X)
		}
		if lk, ok := v.Tuple.(*ssa.Lookup); ok && v.Index == 0 {
			if t := e.term(fr, st, lk); strings.HasSuffix(string(t), "#") {
				return t[:len(t)-1]
			}
		}
		return term(string(e.term(fr, st, v.Tuple)) + "#" + strconv.Itoa(v.Index))
	}
	own := term(fr.ctx + "/v" + strconv.Itoa(e.id(v)))
	if st != nil {
		if a, ok := st.alias[string(own)]; ok {
			return a
		}
	}
	return own
}

// lossless reports whether converting an integer of type from to type to
// keeps every value (int64(m.Term) of an int32): such a conversion is the
// value itself; a narrowing one (uint8(n.term)) wraps, and names a value
// of its own.
func (e *engine) lossless(from, to types.Type) bool {
	fb, _ := from.Underlying().(*types.Basic)
	tb, _ := to.Underlying().(*types.Basic)
	if fb == nil || tb == nil {
		return false
	}
	sizes := e.pass.TypesSizes
	if sizes == nil {
		sizes = types.SizesFor("gc", "amd64")
	}
	fs, ts := sizes.Sizeof(fb), sizes.Sizeof(tb)
	fu, tu := fb.Info()&types.IsUnsigned != 0, tb.Info()&types.IsUnsigned != 0
	return fu == tu && ts >= fs || fu && !tu && ts > fs
}

// loadOf is the term of the value stored at address a.
func loadOf(a term) term {
	if strings.HasSuffix(string(a), "&") {
		return a[:len(a)-1]
	}
	return a + "*"
}

// derefOf is the term of what pointer p points to.
func derefOf(p term) term {
	if strings.HasSuffix(string(p), "&") {
		return p[:len(p)-1]
	}
	return p + "*"
}

func isIntegerType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isTracked(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsBoolean) != 0
}

// heldVar is a synchronization variable held in a struct value: the
// variable is the value's field at path.
type heldVar struct {
	i    int
	path string
}

// heldVars returns the synchronization variables that the struct load
// load holds (p.st loaded under the tag p.st.round): their values are
// the loaded value's fields.
func (e *engine) heldVars(fr *frame, st *pstate, load *ssa.UnOp) []heldVar {
	if _, ok := load.Type().Underlying().(*types.Struct); !ok {
		return nil
	}
	at := string(derefOf(e.term(fr, st, load.X))) + "."
	var out []heldVar
	for i, v := range e.vars {
		if v.lifted || !strings.HasPrefix(string(v.addr), at) {
			continue
		}
		if rest := string(v.addr)[len(at)-1 : len(v.addr)-1]; !strings.Contains(rest, "*") {
			out = append(out, heldVar{i, rest})
		}
	}
	return out
}

// varAt returns the index of the synchronization variable whose address
// addr is, or -1.
func (e *engine) varAt(fr *frame, st *pstate, addr ssa.Value) int {
	if _, ok := addr.Type().Underlying().(*types.Pointer); !ok {
		return -1 // a value, not an address
	}
	var path []int
	x := addr
	for {
		switch a := x.(type) {
		case *ssa.FieldAddr:
			path = append(path, a.Field)
			x = a.X
			continue
		case *ssa.UnOp:
			if a.Op == token.MUL {
				// A load of an embedded pointer field on the way.
				if _, ok := a.X.(*ssa.FieldAddr); ok {
					x = a.X
					continue
				}
			}
		}
		break
	}
	// path is reversed.
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	for i, v := range e.vars {
		if v.lifted || len(v.fields) != len(path) {
			continue
		}
		same := true
		for k := range path {
			same = same && path[k] == v.fields[k]
		}
		if !same {
			continue
		}
		if e.term(fr, st, x) == v.base {
			return i
		}
	}
	// The same address reached another way: a method of an embedded
	// struct selects the field from its own receiver.
	switch addr.(type) {
	case *ssa.FieldAddr, *ssa.Parameter, *ssa.FreeVar:
		at := e.term(fr, st, addr)
		for i, v := range e.vars {
			if !v.lifted && v.addr != "" && v.addr == at {
				return i
			}
		}
	}
	return -1
}
