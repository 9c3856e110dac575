package tagflow2

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"sort"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/srcpos"
	"github.com/ccvet/ccvet/passes/tagflow"
	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// A loopAnalysis is the analysis of one tagged loop: the fixpoint over its
// function's control-flow graph, then one pass over each block that checks
// the conditions at the loop's program points.
type loopAnalysis struct {
	pass *analysis.Pass
	ann  *annotations.Annotations
	loop *annotations.Loop
	fn   *ssa.Function
	sum  *summaries
	k    int

	header *ssa.BasicBlock
	region map[*ssa.BasicBlock]bool // the tagged loop's blocks
	loops  []*natLoop               // the function's natural loops

	// syncBase maps the address of a synchronization variable without
	// fields (a local's Alloc, a Global, a FreeVar) to its component.
	syncBase map[ssa.Value]int

	reporting bool
	// filling, in the pre-pass that finds the rounds each mailbox field
	// is filled in (see fill.go), collects them per field; nil otherwise.
	filling []fillRounds
	// truncated counts the calls not followed for the depth bound or
	// recursion (see followable).
	truncated int
	// followed are, in that pre-pass, the functions analysed.
	followed map[*ssa.Function]bool
	findings map[findingKey]tagflow.Finding

	// calls is the stack of the package functions being analysed for a
	// call (callee analysis), innermost last; calledInRegion says whether
	// the outermost call is in the tagged loop, where the callees' code
	// is checked.
	calls          []*ssa.Function
	calledInRegion bool
	callSite       token.Pos // the outermost call being analysed
	callInstr      *ssa.Call // and the call itself
	funcLoops      map[*ssa.Function][]*natLoop
	memo           map[*ssa.Function][]memoEntry
	// predicates are the last analysed calls of functions returning a
	// bool, for the branch on their result.
	predicates map[*ssa.Call]predicate
	spills     map[*ssa.Function]map[*ssa.Alloc]*ssa.Parameter
	live       map[liveKey]bool
	liveOuts   map[*ssa.Function]map[*ssa.BasicBlock]map[*ssa.Alloc]bool
	// funcArgs are the functions bound to the parameters of the callees
	// being analysed.
	funcArgs map[*ssa.Parameter]*ssa.Function
	// pointees are the caller's locations the pointer parameters of the
	// callees being analysed point to.
	pointees map[*ssa.Parameter]loc
	// constArgs are the constants passed to the parameters of the
	// callees being analysed (current(m.Seq, StepPrepare)).
	constArgs map[*ssa.Parameter]*ssa.Const
	// ranges caches rangeLoops.
	ranges map[*ssa.Function]map[*ssa.BasicBlock]*rangeLoop
	// skipStores are the stores of a tuple jump already interpreted
	// with its first (see jump).
	skipStores map[*ssa.Store]bool
	// cross caches crossBlock.
	cross map[*ssa.Function]map[ssa.Value]bool
	// entryUnset has bit i set when round component i may enter the
	// tagged loop still holding only its assumed constants (nothing
	// before the loop set it).
	entryUnset uint8
	// lowerAt accumulates, per position, the partitions of the states in
	// which the tag is lower there on every vector (see lowerFindings).
	lowerAt map[token.Pos][lexrel.MaxK]uint8
	// splitAll has, per component the entry state was split on, a bit
	// per partition (see splitAssumed).
	splitAll [lexrel.MaxK]uint8
	// splitVals are, per component the entry was split on, the
	// constants of its partitions.
	splitVals [lexrel.MaxK][]int64
	// index caches each instruction's index in its block (see dropDead).
	index map[ssa.Instruction]int
	// ifaceMsgs caches interfaceOfMessages.
	ifaceMsgs map[*types.Interface]bool
}

// A memoEntry is a callee analysis: the state at the call and the state
// at the callee's return.
type memoEntry struct {
	entry  *state
	binds  map[*ssa.Parameter]*ssa.Function
	ptrs   map[*ssa.Parameter]loc
	consts map[*ssa.Parameter]*ssa.Const
	out    calleeExit
	// rec is the recursion key it was analysed under (see scc.go).
	rec []*ssa.Function
	// depth is, for an analysis that met the depth bound, the depth it
	// ran at: what it cut off depends on it, so it is reused at the same
	// depth only; -1 otherwise.
	depth int
}

type findingKey struct {
	cond int
	pos  token.Pos
	msg  string
}

func newLoopAnalysis(pass *analysis.Pass, ann *annotations.Annotations, l *annotations.Loop, fn *ssa.Function, sum *summaries) *loopAnalysis {
	return &loopAnalysis{
		pass: pass, ann: ann, loop: l, fn: fn, sum: sum, k: len(l.Vars),
		syncBase:   make(map[ssa.Value]int),
		findings:   make(map[findingKey]tagflow.Finding),
		funcLoops:  make(map[*ssa.Function][]*natLoop),
		memo:       make(map[*ssa.Function][]memoEntry),
		predicates: make(map[*ssa.Call]predicate),
		spills:     make(map[*ssa.Function]map[*ssa.Alloc]*ssa.Parameter),
		live:       make(map[liveKey]bool),
		liveOuts:   make(map[*ssa.Function]map[*ssa.BasicBlock]map[*ssa.Alloc]bool),
		funcArgs:   make(map[*ssa.Parameter]*ssa.Function),
		ifaceMsgs:  make(map[*types.Interface]bool),
		cross:      make(map[*ssa.Function]map[ssa.Value]bool),
		index:      make(map[ssa.Instruction]int),
		lowerAt:    make(map[token.Pos][lexrel.MaxK]uint8),
		skipStores: make(map[*ssa.Store]bool),
		ranges:     make(map[*ssa.Function]map[*ssa.BasicBlock]*rangeLoop),
		pointees:   make(map[*ssa.Parameter]loc),
		constArgs:  make(map[*ssa.Parameter]*ssa.Const),
	}
}

// run analyses the loop and returns its findings, sorted by position.
func (la *loopAnalysis) run() []tagflow.Finding {
	if len(la.fn.Blocks) == 0 {
		return tagflow.UnprovenAll(la.loop.Pos(), "the loop's function has no body in SSA")
	}
	if la.k > lexrel.MaxK {
		return tagflow.UnprovenAll(la.loop.Pos(), "a tag of %d variables (the analysis handles up to %d)", la.k, lexrel.MaxK)
	}
	la.loops = naturalLoops(la.fn)
	la.funcLoops[la.fn] = la.loops
	if la.loop.Handler != nil {
		return la.runHandler()
	}
	nl := loopOf(la.loops, la.loop.Stmt)
	if nl == nil {
		return tagflow.UnprovenAll(la.loop.Pos(), "cannot find the loop in SSA (does its body ever repeat?)")
	}
	la.header, la.region = nl.header, nl.blocks
	la.locateSyncBases()

	entry := newState(la.k, la.fn.Prog.Fset)
	la.initialParts(entry)
	return la.solveAndCheck(entry)
}

// solveAndCheck computes the fixpoint from the function's entry state,
// then checks the region's blocks in the states it found.
func (la *loopAnalysis) solveAndCheck(entry *state) []tagflow.Finding {
	res := la.fixpoint(la.fn, la.splitAssumed(entry)...)
	la.reporting = true
	for _, b := range la.fn.Blocks {
		if la.region[b] {
			for _, in := range res.In(b.Index) {
				la.block(b, in)
			}
		}
	}
	return la.sortedFindings()
}

// initialParts marks the components that partition states (see partKey),
// and gives a component kept in a Go enum its constants: the analysis
// assumes that a variable of an enum type holds one of the constants
// declared with it (an assignment of anything else is followed as such).
func (la *loopAnalysis) initialParts(s *state) {
	for i, sv := range la.loop.Vars {
		if sv.Enum != nil || (i == la.k-1 && la.k >= 2) {
			s.partMask |= 1 << i
		}
		if sv.Enum == nil || len(sv.Enum.Consts) > maxConsts {
			continue
		}
		c := constsOf()
		for _, k := range sv.Enum.Consts {
			if x, ok := constant.Int64Val(constant.ToInt(k.Val())); ok {
				c = c.add(x)
			} else {
				c = unknownConsts
				break
			}
		}
		s.cur[i] = c
		s.assumed |= 1 << i
		if s.enums == nil {
			s.enums = new([lexrel.MaxK]constSet)
		}
		s.enums[i] = c
	}
}

// splitAssumed splits the entry state into one partition per constant a
// partitioning component is assumed to hold (see initialParts), when they
// are few enough: a test that narrows the round to some of them (a.step <
// StepAccept) then keeps each apart from the paths that did not test it,
// instead of joining into the partition of all the constants, where
// setting the round loses how it relates to the round at the entry.
func (la *loopAnalysis) splitAssumed(entry *state) parts {
	out := parts{entry}
	for i := range entry.k {
		if entry.assumed&entry.partMask&(1<<i) == 0 || !entry.cur[i].known {
			continue
		}
		vals := entry.cur[i].values()
		if len(out)*len(vals) > maxParts {
			continue
		}
		var next parts
		for _, s := range out {
			for j, x := range vals {
				c := s.clone()
				c.cur[i] = constsOf(x)
				c.split[i] = 1 << j
				c.refineAll()
				next = append(next, c)
			}
		}
		out = next
		la.splitAll[i] = 1<<len(vals) - 1
		la.splitVals[i] = vals
	}
	return out
}

// noteLower records that the tag is lower at pos than at the last
// communication point on every vector of s.
func (la *loopAnalysis) noteLower(s *state, pos token.Pos) {
	if !la.reporting {
		return
	}
	if !pos.IsValid() {
		pos = la.callSite
	}
	m := la.lowerAt[pos]
	for i := range m {
		m[i] |= s.split[i]
	}
	la.lowerAt[pos] = m
}

// lowerFindings reports condition I where the tag was lower on every
// vector: a violation if the states that showed it join every partition
// of the entry (see splitAssumed), "cannot prove" if they show it only
// for some of the constants assumed at the entry.
func (la *loopAnalysis) lowerFindings() {
	for pos, m := range la.lowerAt {
		if m == la.splitAll {
			la.report(1, pos, false, "the tag %s is lower here than at the last communication point", la.tagText())
			continue
		}
		where, advice := "the loop is entered", ": set it before the loop"
		if la.loop.Handler != nil {
			where, advice = "the handler is called", ""
		}
		la.report(1, pos, true, "the tag %s is lower here than at the last communication point if %s when %s, which the analysis does not know%s", la.tagText(), la.entryValues(m), where, advice)
	}
}

// entryValues says which assumed entry constants the partitions in m
// are: "step is Vote or Ack".
func (la *loopAnalysis) entryValues(m [lexrel.MaxK]uint8) string {
	var parts []string
	for i, all := range la.splitAll {
		if all == 0 || m[i] == all {
			continue
		}
		var names []string
		for j, x := range la.splitVals[i] {
			if m[i]&(1<<j) != 0 {
				names = append(names, la.constName(i, x))
			}
		}
		parts = append(parts, fmt.Sprintf("%s is %s", la.loop.Vars[i].Name, strings.Join(names, " or ")))
	}
	return strings.Join(parts, " and ")
}

// constName is the name of the constant of component i's enum whose value
// is x, or x.
func (la *loopAnalysis) constName(i int, x int64) string {
	if e := la.loop.Vars[i].Enum; e != nil {
		for _, k := range e.Consts {
			if v, ok := constant.Int64Val(constant.ToInt(k.Val())); ok && v == x {
				return k.Name()
			}
		}
	}
	return strconv.FormatInt(x, 10)
}

func (la *loopAnalysis) sortedFindings() []tagflow.Finding {
	la.lowerFindings()
	out := make([]tagflow.Finding, 0, len(la.findings))
	for key, f := range la.findings {
		if _, lower := la.lowerAt[key.pos]; lower && key.cond == 1 && f.Unproven && strings.HasPrefix(f.Message, "the tag "+la.tagText()+" may be lower") {
			// The same cause, the round's unknown value at the entry,
			// said once: by the finding that names the values.
			continue
		}
		out = append(out, f)
	}
	fset := la.fn.Prog.Fset
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pos != out[j].Pos {
			return srcpos.Less(fset, out[i].Pos, out[j].Pos)
		}
		if out[i].Cond != out[j].Cond {
			return out[i].Cond < out[j].Cond
		}
		return out[i].Message < out[j].Message
	})
	return out
}

func unproven(pos token.Pos, cond int, format string, args ...any) tagflow.Finding {
	return tagflow.Finding{Cond: cond, Pos: pos, Unproven: true, Message: fmt.Sprintf(format, args...)}
}

// report records a finding when the checking pass runs.
func (la *loopAnalysis) report(cond int, pos token.Pos, unprovenOnly bool, format string, args ...any) {
	if !la.reporting {
		return
	}
	if !pos.IsValid() {
		// Code with no position (made by the compiler) is reported at
		// the call in the loop that reached it.
		pos = la.callSite
	}
	if !pos.IsValid() {
		return
	}
	f := tagflow.Finding{Cond: cond, Pos: pos, Unproven: unprovenOnly, Message: fmt.Sprintf(format, args...)}
	la.findings[findingKey{cond, pos, f.Message}] = f
}

// reportWitnessed records a violation that holds only if a message with a
// tag of need's bad vectors is ever sent (see witnesses.resolve).
func (la *loopAnalysis) reportWitnessed(cond int, pos token.Pos, need witnessNeed, msg string) {
	if !la.reporting {
		return
	}
	if !pos.IsValid() {
		pos = la.callSite
	}
	if !pos.IsValid() {
		return
	}
	key := findingKey{cond, pos, msg}
	la.findings[key] = tagflow.Finding{Cond: cond, Pos: pos, Message: msg}
	if o, ok := la.sum.witness.origin[need.msg]; ok {
		need.msg = o
	}
	la.sum.witness.needs[key] = need
}

// blockGraph is a function's control-flow graph for the dense framework.
type blockGraph struct{ fn *ssa.Function }

func (g blockGraph) NumNodes() int { return len(g.fn.Blocks) }

func (g blockGraph) Nodes() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range g.fn.Blocks {
			if !yield(i) {
				return
			}
		}
	}
}

func (g blockGraph) Out(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, s := range g.fn.Blocks[n].Succs {
			if !yield(s.Index) {
				return
			}
		}
	}
}

// locateSyncBases finds the address of each synchronization variable that
// is a variable itself (no field path): a local's or parameter's Alloc (the
// analysis builds SSA in naive form, so every local lives in memory), a
// Global, or a FreeVar of a closure.
func (la *loopAnalysis) locateSyncBases() {
	for i, sv := range la.loop.Vars {
		if len(sv.Fields) > 0 {
			continue
		}
		for _, a := range la.fn.Locals {
			if a.Pos() == sv.Root.Pos() && a.Comment == sv.Root.Name() {
				la.syncBase[a] = i
			}
		}
		for _, fv := range la.fn.FreeVars {
			if fv.Name() == sv.Root.Name() && types.Identical(fv.Type(), types.NewPointer(sv.Root.Type())) {
				la.syncBase[fv] = i
			}
		}
		if sv.Root.Parent() == sv.Root.Pkg().Scope() {
			if g := la.fn.Prog.ImportedPackage(sv.Root.Pkg().Path()); g != nil {
				if gv, ok := g.Members[sv.Root.Name()].(*ssa.Global); ok {
					la.syncBase[gv] = i
				}
			}
		}
	}
}

// syncIndex reports which synchronization variable addr is the address
// of. A field path matches by its field objects: any struct's field
// declared as a synchronization variable's last field, reached through
// the fields before it as far as the address shows them, is taken for it
// (so a second process value's field would be too: protocol code keeps one
// process state per loop).
func (la *loopAnalysis) syncIndex(addr ssa.Value) (int, bool) {
	if i, ok := la.syncBase[addr]; ok {
		return i, true
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return 0, false
	}
	for i, sv := range la.loop.Vars {
		if len(sv.Fields) > 0 && matchesPath(fa, sv.Fields) {
			return i, true
		}
	}
	return 0, false
}

func matchesPath(fa *ssa.FieldAddr, fields []*types.Var) bool {
	var x ssa.Value = fa
	for j := len(fields) - 1; j >= 0; j-- {
		f, ok := x.(*ssa.FieldAddr)
		if !ok {
			if a, ok := x.(*ssa.Alloc); ok && a.Comment == "complit" {
				// A composite literal being built (Zxid{Epoch: ...}):
				// a value of the type, not the process's variable.
				return false
			}
			return j < len(fields)-1
		}
		if fv := fieldOf(f); fv == nil || fv.Origin() != fields[j].Origin() {
			return false
		}
		x = f.X
	}
	return true
}

// fieldOf is the field a FieldAddr selects.
func fieldOf(fa *ssa.FieldAddr) *types.Var {
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	return st.Field(fa.Field)
}

// inRegion reports whether instr is in the tagged loop, where the
// conditions are checked.
func (la *loopAnalysis) inRegion(instr ssa.Instruction) bool {
	if instr.Parent() != la.fn {
		return la.calledInRegion
	}
	return la.region[instr.Block()]
}

// innermost is the innermost natural loop containing b, or nil.
func (la *loopAnalysis) innermost(b *ssa.BasicBlock) *natLoop {
	loops, ok := la.funcLoops[b.Parent()]
	if !ok {
		loops = naturalLoops(b.Parent())
		la.funcLoops[b.Parent()] = loops
	}
	var best *natLoop
	for _, nl := range loops {
		if nl.blocks[b] && (best == nil || len(nl.blocks) < len(best.blocks)) {
			best = nl
		}
	}
	return best
}
