package tagflow

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// liveness holds the SSA values live on entry to each block of a function.
type liveness map[*ssa.BasicBlock]map[ssa.Value]bool

// liveness sets fr.live, the liveness of fr's function.
func (e *engine) liveness(fr *frame) liveness {
	if fr.live == nil {
		// A function's liveness does not depend on the call site: it is
		// computed once per function, not once per inlined call.
		if e.live == nil {
			e.live = make(map[*ssa.Function]liveness)
		}
		if fr.live = e.live[fr.fn]; fr.live == nil {
			fr.live = computeLiveness(fr.fn)
			e.live[fr.fn] = fr.live
		}
	}
	return fr.live
}

// computeLiveness is the classic backward dataflow over the CFG; a phi's
// operand is live at the end of the corresponding predecessor.
func computeLiveness(fn *ssa.Function) liveness {
	in := make(liveness)
	use := make(map[*ssa.BasicBlock]map[ssa.Value]bool)
	def := make(map[*ssa.BasicBlock]map[ssa.Value]bool)
	isVar := func(v ssa.Value) bool {
		switch v.(type) {
		case *ssa.Const, *ssa.Global, *ssa.Function, *ssa.Builtin, nil:
			return false
		}
		return true
	}
	for _, b := range fn.Blocks {
		use[b], def[b], in[b] = map[ssa.Value]bool{}, map[ssa.Value]bool{}, map[ssa.Value]bool{}
		var ops []*ssa.Value
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Phi); !ok {
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if op != nil && isVar(*op) && !def[b][*op] {
						use[b][*op] = true
					}
				}
			}
			if v, ok := instr.(ssa.Value); ok {
				def[b][v] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := len(fn.Blocks) - 1; i >= 0; i-- {
			b := fn.Blocks[i]
			out := map[ssa.Value]bool{}
			for _, s := range b.Succs {
				for v := range in[s] {
					out[v] = true
				}
				idx := -1
				for j, p := range s.Preds {
					if p == b {
						idx = j
					}
				}
				for _, instr := range s.Instrs {
					phi, ok := instr.(*ssa.Phi)
					if !ok {
						break
					}
					delete(out, phi)
					if idx >= 0 && isVar(phi.Edges[idx]) {
						out[phi.Edges[idx]] = true
					}
				}
			}
			for v := range out {
				if !def[b][v] && !in[b][v] {
					in[b][v] = true
					changed = true
				}
			}
			for v := range use[b] {
				if !in[b][v] {
					in[b][v] = true
					changed = true
				}
			}
		}
	}
	return in
}

// project drops what st knows about values of frame fr that are dead at
// the entry of b, keeping the relations it implies between the terms that
// remain. This keeps the number of distinct states per block small.
func (e *engine) project(fr *frame, b *ssa.BasicBlock, st *pstate) {
	e.liveness(fr)
	if e.scratch == nil {
		e.scratch = newProjectScratch()
	}
	sc := e.scratch
	sc.clear()
	liveIn := fr.live[b]
	prefix := fr.ctx + "/v"
	keepTerm := sc.keepTerm
	for i := range st.cur {
		keepTerm[st.cur[i]] = true
		keepTerm[st.old[i]] = true
	}
	for _, v := range st.alias {
		keepTerm[v] = true
	}
	liveBase := sc.liveBase
	for v := range liveIn {
		liveBase[prefix+strconv.Itoa(e.id(v))] = true
		// A live value named after another (a load of an allocation, a
		// field of a message, what an inlined call returned) keeps that
		// one's facts alive: by its base, and, for a value of a callee
		// that has returned, by its whole name (see keep below).
		t := e.term(fr, st, v)
		liveBase[t.base()] = true
		liveBase[t.value()] = true
	}
	inner := fr.ctx + "."
	// An alias is read only through the term of its call, an SSA value of
	// the frame that made it. If that value is dead here (any later use of
	// it is reached through the call again, which replaces the alias), or
	// belongs to a callee that has returned, the alias is never read again:
	// it is spent. A spent alias still keeps the term it names, as it did
	// (keepTerm above), until the call runs again or its frame is
	// forgotten; but it is no longer part of the state's key, so paths
	// that differ only in the calls they made merge. (Sound: of two such
	// states, the one explored keeps at worst fewer facts, about terms no
	// instruction names, whose relations with the others project keeps.)
	for k, t := range st.alias {
		if isSpentAlias(k) {
			continue
		}
		if v := term(k).value(); strings.HasPrefix(v, inner) || strings.HasPrefix(v, prefix) && !liveBase[v] {
			m := st.mutAlias()
			delete(m, k)
			if !e.resultAlias[k] {
				m[spentAlias(k)] = t
			}
			// (A result of a call returning several is read only
			// through its own value: once that is dead, nothing reads
			// the callee's value again, and keeping it would keep the
			// received messages of every call site in the state.)
		}
	}
	// The values of returned callees that the state names elsewhere: the
	// tags the mailboxes' filters were compared with, the bound of a
	// maximum loop.
	for _, info := range st.taint {
		for _, ei := range [2]*elemInfo{info.elem, info.iter} {
			if ei != nil {
				for _, c := range ei.curs {
					liveBase[c.value()] = true
				}
			}
		}
	}
	if p := st.pending; p != nil && p.bound != nil {
		liveBase[p.bound.t.value()] = true
		if ei := p.bound.ei; ei != nil {
			for _, c := range ei.curs {
				liveBase[c.value()] = true
			}
		}
	}
	// The block's phis were just assigned on the incoming edge.
	for _, instr := range b.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		liveBase[prefix+strconv.Itoa(e.id(phi))] = true
	}
	// Memory below the function's parameters and free variables is the
	// process state: facts about it are dropped at block boundaries, since
	// ccvet follows the synchronization variables themselves and nothing
	// else of that state.
	stateBases := sc.stateBases
	for _, p := range fr.fn.Params {
		switch p.Type().Underlying().(type) {
		case *types.Struct, *types.Array, *types.Basic:
			// A copy: what is known of its fields stays true (a message
			// built by the caller and handed to a helper that sends it).
			continue
		}
		// So is a copy in an interface (sendTo(q, ack)), and a message
		// the caller built (send(&Accept{...})): the helper's memory
		// below it is not the process state.
		if v, _ := callerValue(fr, p); v != ssa.Value(p) {
			if ct, ok := v.(*ssa.ChangeType); ok {
				v = ct.X
			}
			if _, ok := types.Unalias(p.Type()).(*types.TypeParam); ok {
				// A generic function's parameter of a type parameter
				// (send[T](ch chan T, m T)): a copy if the caller's
				// value is one.
				switch v.Type().Underlying().(type) {
				case *types.Struct, *types.Array, *types.Basic:
					continue
				}
			}
			if mi, ok := v.(*ssa.MakeInterface); ok {
				if !isPointer(mi.X.Type()) {
					continue
				}
				v = mi.X
			}
			if a, ok := v.(*ssa.Alloc); ok && a.Comment == "complit" {
				continue
			}
			if c, ok := v.(*ssa.Call); ok && returnsLiteral(c) {
				continue // built by a constructor (p.newAck())
			}
		}
		stateBases[e.term(fr, st, p).root()] = true
	}
	cells := sc.cells
	for _, fv := range fr.fn.FreeVars {
		b := e.term(fr, st, fv).root()
		stateBases[b] = true
		cells[b] = true
	}

	keep := func(t term) bool {
		if keepTerm[t] {
			return true
		}
		if e.withinRecv(st, t) {
			return true // the message last received: its tag is checked where a write stores it
		}
		if r := t.root(); cells[r] && string(t) == r+"*" {
			// The value of a variable a closure captured (fwd in
			// r.with(func() { r.view = fwd.View })): the caller's local,
			// not the state it may point to.
		} else if stateBases[r] && string(t) != r {
			if _, info := st.tainted(t); info == nil && !st.marked(t) {
				return false
			}
		}
		base := t.base()
		if strings.HasPrefix(base, "s:") {
			return false // synthetic values no longer named by a variable
		}
		if v := t.value(); strings.HasPrefix(v, inner) {
			// A value of a callee that has returned ("0.51/v17.2" for the
			// loop's frame "0"): no instruction names it again, as its
			// frame is gone (a new inlining of the call forgets it first),
			// so it matters only if a live value, a kept boolean's
			// comparison (below) or the state refers to it. (The test was
			// on base, "0" here, and never held: every fact about every
			// callee that had returned was kept, which made paths that
			// differ only in the calls they made distinct states.)
			return liveBase[v]
		}
		// The frame's own values by their whole name: base cuts an
		// inlined frame's ("0.12/v16") at its context's dot, which kept
		// every value of a callee's loop, and its previous ones (primed
		// by redefine), for ever.
		own := t.value()
		if !strings.HasPrefix(own, prefix) {
			return true // constants, globals, the callers' values
		}
		if strings.HasSuffix(own, "'") {
			return false
		}
		return liveBase[own]
	}
	// The terms only spent aliases name (a predicate's result, once the
	// call is dead): kept, but never branched on again, since a comparison
	// is read only for the term of a value an instruction uses, which is
	// live, or of a live alias, or is named by a variable.
	spentOnly := sc.spentOnly
	for k, v := range st.alias {
		if isSpentAlias(k) {
			spentOnly[v] = true
		}
	}
	if len(spentOnly) > 0 {
		for k, v := range st.alias {
			if !isSpentAlias(k) || liveBase[v.value()] {
				delete(spentOnly, v)
			}
		}
		for i := range st.cur {
			delete(spentOnly, st.cur[i])
			delete(spentOnly, st.old[i])
		}
	}
	// The comparison remembered for a kept boolean (what an inlined
	// predicate returned) keeps the callee's values it compares: a branch
	// on the boolean adds it. (Until a fixpoint: a compared value may be
	// a boolean with a comparison of its own.) That of a boolean only
	// spent aliases name keeps nothing: it will not be read.
	for changed := true; changed; {
		changed = false
		for k, c := range st.conds {
			if !keep(k) || spentOnly[k] {
				continue
			}
			for _, t := range [2]term{c.a, c.b} {
				if v := t.value(); (strings.HasPrefix(v, inner) || strings.HasPrefix(v, prefix)) && !liveBase[v] {
					liveBase[v], changed = true, true
				}
			}
		}
	}
	var dead bool
	kept := sc.kept
	defer func() { clear(kept); sc.kept = kept[:0] }()
	// keptOf[t] is whether term t of the facts is kept.
	keptOf := sc.keptOf
	for _, f := range st.fs {
		for _, t := range [2]term{f.a, f.b} {
			if _, seen := keptOf[t]; seen {
				continue
			}
			k := keep(t)
			keptOf[t] = k
			if k {
				kept = append(kept, t)
			} else {
				dead = true
			}
		}
	}
	if dead {
		// The != facts between kept terms, then what the facts imply
		// about each pair of kept terms. Only a != fact can be derived
		// twice: the pairs are distinct, and so are their facts.
		nfs := make(facts, 0, len(st.fs))
		ne := sc.ne
		for _, f := range st.fs {
			if f.op == token.NEQ && keptOf[f.a] && keptOf[f.b] && !ne[f] {
				ne[f] = true
				nfs = append(nfs, f)
			}
		}
		s := st.fs.solve()
		defer s.release()
		nodes := resize(sc.nodes, len(kept))
		sc.nodes = nodes
		for i, t := range kept {
			nodes[i] = s.g.node(t) // every kept term is in a fact
		}
		n := len(s.g.terms)
		for _, x := range nodes {
			s.from(x)
		}
		for i, a := range kept {
			ia := nodes[i]
			row := s.reach[int(ia)*n : int(ia+1)*n]
			for j, c := range kept[i+1:] {
				ic := nodes[i+1+j]
				if row[ic] == unreached && s.reach[int(ic)*n+int(ia)] == unreached && len(s.g.ne) == 0 {
					continue // unrelated: most pairs, decided without a call
				}
				if a.isConst() && c.isConst() {
					continue
				}
				if f, ok := relFact(a, s.cmpNodes(ia, ic), c); ok && (f.op != token.NEQ || !ne[f]) {
					nfs = append(nfs, f)
				}
			}
		}
		st.fs = nfs
	}
	if p := st.pending; p != nil {
		// The last mailboxes of the pending message's type about to be
		// forgotten (dead: nothing reads them again): the jump is
		// settled now or never, as the next communication point would
		// find it.
		dying, staying := false, false
		for k, info := range st.taint {
			if ei := info.elem; ei != nil && ei.msg != nil && ei.msg.Name(e.pass.Pkg) == p.msg && !p.older(ei) {
				if keep(k) {
					staying = true
				} else {
					dying = true
				}
			}
		}
		if dying && !staying && (e.checkedSingleton(st, p) || e.boundSettled(st, p)) {
			st.pending = nil
		}
	}
	for k, info := range st.taint {
		if !keep(k) || (info.elem != nil || info.iter != nil) && spentOnlyWithin(spentOnly, k) {
			// (A mailbox a helper returned, once the caller's value
			// for it is dead, is never read again: kept, it would
			// stand as another mailbox of its messages' type for the
			// rest of the iteration, see checkedSingleton.)
			delete(st.mutTaint(), k)
		}
	}
	st.xProject(keep)
	st.dropOffs(func(t term) bool { return !keep(t) })
	for k, c := range st.conds {
		if !keep(k) || !keep(c.a) || !keep(c.b) {
			delete(st.mutConds(), k)
		}
	}
	// Give the variables' values that no SSA value names any more
	// canonical names, so that paths that differ only in those names merge.
	canon := sc.canon
	for i := range st.cur {
		for j, t := range []term{st.cur[i], st.old[i]} {
			if _, done := canon[t]; done || t.isConst() {
				continue
			}
			if b := t.base(); strings.HasPrefix(b, prefix) && !strings.HasSuffix(b, "'") && liveBase[b] {
				continue
			}
			if _, info := st.tainted(t); info != nil {
				continue
			}
			canon[t] = canonName(j, i)
		}
	}
	if len(canon) > 0 {
		// As repeated nfs.with(f), without copying the slice each time.
		nfs := make(facts, 0, len(st.fs))
		have := sc.have
		for _, f := range st.fs {
			a, b := f.a, f.b
			if c, ok := canon[a]; ok {
				a = c
			}
			if c, ok := canon[b]; ok {
				b = c
			}
			if g := mkFact(a, f.op, b); !have[g] {
				have[g] = true
				nfs = append(nfs, g)
			}
		}
		st.fs = nfs
		for i := range st.cur {
			if c, ok := canon[st.cur[i]]; ok {
				st.cur[i] = c
			}
			if c, ok := canon[st.old[i]]; ok {
				st.old[i] = c
			}
		}
		st.renameOffs(canon)
	}
	// The tags the mailboxes' filters compared the messages with follow
	// the renaming; one whose synthetic name no longer denotes a value is
	// forgotten: the name is given to other values later (the raised tag
	// after a maximum loop is the next "s:c0"), and the stored messages
	// would seem to be above it.
	st.renameCurs(func(t term) (term, bool) {
		if c, ok := canon[t]; ok {
			return c, true
		}
		if strings.HasPrefix(string(t), "s:") && !keepTerm[t] {
			return "", false
		}
		return t, true
	})
}

// renameCurs applies f to the terms the mailboxes' elemInfo.curs name,
// copying what other states share; a term f drops loses its relation.
func (st *pstate) renameCurs(f func(term) (term, bool)) {
	// An elemInfo is shared by a mailbox and its range iterator, and
	// maxLoop compares them by identity: one copy each.
	done := make(map[*elemInfo]*elemInfo)
	fix := func(ei *elemInfo) *elemInfo {
		if ei == nil {
			return nil
		}
		if out, ok := done[ei]; ok {
			return out
		}
		out := fix1(ei, f)
		done[ei] = out
		return out
	}
	for k, info := range st.taint {
		e1, e2 := fix(info.elem), fix(info.iter)
		if e1 != info.elem || e2 != info.iter {
			ni := *info
			ni.elem, ni.iter = e1, e2
			st.mutTaint()[k] = &ni
		}
	}
	if p := st.pending; p != nil && p.bound != nil && p.bound.ei != nil {
		if ei := fix(p.bound.ei); ei != p.bound.ei {
			q := *p
			bd := *p.bound
			bd.ei = ei
			q.bound = &bd
			st.pending = &q
		}
	}
}

// projectScratch holds project's temporary sets, reused from call to call
// (project runs at every block entry, and allocating them anew was a large
// part of the engine's garbage).
type projectScratch struct {
	keepTerm, keptOf     map[term]bool
	liveBase, stateBases map[string]bool
	// cells are the bases of the free variables (captured variables).
	cells     map[string]bool
	ne, have  map[fact]bool
	canon     map[term]term
	spentOnly map[term]bool
	kept      []term
	nodes     []int32
}

func newProjectScratch() *projectScratch {
	return &projectScratch{
		keepTerm:   make(map[term]bool),
		keptOf:     make(map[term]bool),
		liveBase:   make(map[string]bool),
		stateBases: make(map[string]bool),
		cells:      make(map[string]bool),
		ne:         make(map[fact]bool),
		have:       make(map[fact]bool),
		canon:      make(map[term]term),
		spentOnly:  make(map[term]bool),
	}
}

func (sc *projectScratch) clear() {
	// Clearing a map costs its capacity even when it is empty.
	clearMap(sc.keepTerm)
	clearMap(sc.keptOf)
	clearMap(sc.liveBase)
	clearMap(sc.stateBases)
	clearMap(sc.cells)
	clearMap(sc.ne)
	clearMap(sc.have)
	clearMap(sc.canon)
	clearMap(sc.spentOnly)
}

func clearMap[K comparable, V any](m map[K]V) {
	if len(m) > 0 {
		clear(m)
	}
}

// spentOnlyWithin reports whether term k is, or lies below, a term that
// only spent aliases name.
func spentOnlyWithin(spentOnly map[term]bool, k term) bool {
	if spentOnly[k] {
		return true
	}
	for t := range spentOnly {
		if within(k, t) {
			return true
		}
	}
	return false
}

// spentAlias is the key under which project keeps an alias that will not
// be read again (no term has it: keys of live aliases are SSA values'
// terms); isSpentAlias tells such keys.
func spentAlias(k string) string { return "!" + k }

func isSpentAlias(k string) bool { return strings.HasPrefix(k, "!") }

// canonNames caches the canonical names of the variables' values, "s:c3"
// for variable 3's current value and "s:o3" for its old one.
var canonNames [2][16]term

func init() {
	for j := range canonNames {
		for i := range canonNames[j] {
			canonNames[j][i] = term(fmt.Sprintf("s:%c%d", "co"[j], i))
		}
	}
}

func canonName(j, i int) term {
	if i < len(canonNames[j]) {
		return canonNames[j][i]
	}
	return term(fmt.Sprintf("s:%c%d", "co"[j], i))
}

// fix1 is renameCurs's renaming of one elemInfo.
func fix1(ei *elemInfo, f func(term) (term, bool)) *elemInfo {
	var out *elemInfo
	for i, c := range ei.curs {
		if c == "" {
			continue
		}
		n, ok := f(c)
		if ok && n == c {
			continue
		}
		if out == nil {
			cp := *ei
			cp.curs = slices.Clone(ei.curs)
			cp.rels = slices.Clone(ei.rels)
			out = &cp
		}
		if ok {
			out.curs[i] = n
		} else {
			out.curs[i] = ""
			if i < len(out.rels) {
				out.rels[i] = relUnknown
			}
		}
	}
	if out == nil {
		return ei
	}
	return out
}
