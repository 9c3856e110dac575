package tagflow

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// liveness holds the SSA values live on entry to each block of a function.
type liveness map[*ssa.BasicBlock]map[ssa.Value]bool

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
	if fr.live == nil {
		fr.live = computeLiveness(fr.fn)
	}
	liveIn := fr.live[b]
	prefix := fr.ctx + "/v"
	keepTerm := make(map[term]bool)
	for i := range st.cur {
		keepTerm[st.cur[i]] = true
		keepTerm[st.old[i]] = true
	}
	for _, v := range st.alias {
		keepTerm[v] = true
	}
	liveBase := make(map[string]bool)
	for v := range liveIn {
		liveBase[prefix+strconv.Itoa(e.id(v))] = true
		// A live value named after another (a load of an allocation, a
		// field of a message) keeps that one's facts alive.
		liveBase[e.term(fr, st, v).base()] = true
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
	stateBases := make(map[string]bool)
	for _, p := range fr.fn.Params {
		stateBases[e.term(fr, st, p).base()] = true
	}
	for _, fv := range fr.fn.FreeVars {
		stateBases[e.term(fr, st, fv).base()] = true
	}
	keep := func(t term) bool {
		if keepTerm[t] {
			return true
		}
		if stateBases[t.base()] && string(t) != t.base() {
			if _, info := st.tainted(t); info == nil {
				return false
			}
		}
		base := t.base()
		if strings.HasPrefix(base, "s:") {
			return false // synthetic values no longer named by a variable
		}
		if inner := fr.ctx + "."; strings.HasPrefix(base, inner) {
			// A value of a callee that has returned: kept only if named.
			return liveBase[base]
		}
		if !strings.HasPrefix(base, prefix) {
			return true // constants, globals, the callers' values
		}
		if strings.HasSuffix(base, "'") {
			return false
		}
		return liveBase[base]
	}
	var dead bool
	var kept []term
	seen := make(map[term]bool)
	for _, f := range st.fs {
		for _, t := range []term{f.a, f.b} {
			if seen[t] {
				continue
			}
			seen[t] = true
			if keep(t) {
				kept = append(kept, t)
			} else {
				dead = true
			}
		}
	}
	if dead {
		var nfs facts
		have := make(map[fact]bool)
		add := func(f fact) {
			if !have[f] {
				have[f] = true
				nfs = append(nfs, f)
			}
		}
		for _, f := range st.fs {
			if keep(f.a) && keep(f.b) && f.op == token.NEQ {
				add(f)
			}
		}
		s := st.fs.solve()
		for i, a := range kept {
			for _, c := range kept[i+1:] {
				if a.isConst() && c.isConst() {
					continue
				}
				if f, ok := relFact(a, s.cmp(a, c), c); ok {
					add(f)
				}
			}
		}
		st.fs = nfs
	}
	for k := range st.taint {
		if !keep(k) {
			delete(st.taint, k)
		}
	}
	for k, c := range st.conds {
		if !keep(k) || !keep(c.a) || !keep(c.b) {
			delete(st.conds, k)
		}
	}
	// Give the variables' values that no SSA value names any more
	// canonical names, so that paths that differ only in those names merge.
	canon := make(map[term]term)
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
			canon[t] = term(fmt.Sprintf("s:%c%d", "co"[j], i))
		}
	}
	if len(canon) > 0 {
		// As repeated nfs.with(f), without copying the slice each time.
		nfs := make(facts, 0, len(st.fs))
		have := make(map[fact]bool, len(st.fs))
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
	}
}
