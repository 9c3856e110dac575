package tagflow2

import (
	"slices"

	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/ssa"
	"honnef.co/go/tools/analysis/dfa/dense"
)

// maxParts bounds the partitions of a program point's state; beyond it
// they are joined into one.
const maxParts = 8

// parts is the abstract state at a program point, partitioned by the
// constants the current tag may hold (trace partitioning on a small,
// declared key: the round constants). Joining the state where step is
// Report with the one where it is Proposal would lose how each relates
// to the tag at the last communication point; kept apart, setting step
// to Report at the loop head is seen to go up from Proposal of the last
// phase and to stay put at the entry. nil is bottom.
type parts []*state

// add joins s into p: into the partition with the same constants, or
// else one whose constants include s's, or as a new one. Beyond maxParts
// the partitions are joined into one (one per side of a handler's first
// tag change), whose constants then include every later state's: the
// partitions only grow, so the fixpoint terminates.
func (p parts) add(s *state) parts {
	if s == nil {
		return p
	}
	at := -1
	for i, q := range p {
		if q.partKey() == s.partKey() {
			at = i
			break
		}
		if at < 0 && q.covers(s) {
			at = i
		}
	}
	if at >= 0 {
		out := append(parts(nil), p...)
		out[at] = lattice{}.Merge(p[at], s)
		return out
	}
	out := append(append(parts(nil), p...), s)
	if len(out) > maxParts {
		// One partition per side of a handler's first tag change.
		var still, moved parts
		for _, q := range out {
			if q.atEntry != nil {
				moved = append(moved, q)
			} else {
				still = append(still, q)
			}
		}
		out = nil
		for _, g := range []parts{still, moved} {
			if j := g.joined(); j != nil {
				out = append(out, j)
			}
		}
	}
	return out
}

// A partID is what partitions states: the constants of the components
// that are rounds (an enum type, or the last component of a tag of two or
// more), and in a handler whether the tag changed in this step. A phase
// counter's constants (1, 2, 3, ... as the loop turns) do not partition:
// they would make a partition per iteration. Paths on which a handler
// moved its tag are kept apart from those on which it did not, so that
// tests of the message against the tag on the latter still tell how the
// message relates to the tag at the entry (see state.atEntry).
type partID struct {
	consts [lexrel.MaxK]constSet
	moved  bool
}

func (q *state) partKey() partID {
	var key partID
	for i := range q.k {
		if q.partMask&(1<<i) != 0 {
			key.consts[i] = q.cur[i]
		}
	}
	key.moved = q.atEntry != nil
	return key
}

// covers reports whether every constant s's tag may hold, q's may too,
// and both are on the same side of a handler's first tag change.
func (q *state) covers(s *state) bool {
	qk, sk := q.partKey(), s.partKey()
	if qk.moved != sk.moved {
		return false
	}
	for i := range q.k {
		a, b := qk.consts[i], sk.consts[i]
		if !a.known {
			continue
		}
		if !b.known {
			return false
		}
		for _, x := range b.values() {
			if !slices.Contains(a.values(), x) {
				return false
			}
		}
	}
	return true
}

// joined is the join of every partition, or nil.
func (p parts) joined() *state {
	var all *state
	for _, q := range p {
		all = lattice{}.Merge(all, q)
	}
	return all
}

// partLattice is the semilattice of partitioned states.
type partLattice struct{}

func (partLattice) Ident() parts { return nil }

func (partLattice) Equals(a, b parts) bool {
	if len(a) != len(b) {
		return false
	}
	for _, q := range a {
		found := false
		for _, r := range b {
			if q.partKey() == r.partKey() {
				found = lattice{}.Equals(q, r)
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (partLattice) Merge(a, b parts) parts {
	for _, s := range b {
		a = a.add(s)
	}
	return a
}

// fixpoint runs the forward fixpoint over f's blocks from entry, one
// partition at a time. Each edge's state is joined with what the edge
// carried before, so that it only grows even where a transfer is not
// monotone (partitions regrouped, a register's term replaced).
func (la *loopAnalysis) fixpoint(f *ssa.Function, entry ...*state) *dense.Analysis[parts, int] {
	g := blockGraph{f}
	type edgeID struct{ from, to int }
	prev := make(map[edgeID]parts)
	return dense.Forward[partLattice, parts, int](g, map[int]parts{0: entry}, func(from, to int, in parts) parts {
		out := prev[edgeID{from, to}]
		for _, s := range in {
			out = out.add(la.collect(f, f.Blocks[from], la.edge(f.Blocks[from], f.Blocks[to], la.block(f.Blocks[from], s))))
		}
		prev[edgeID{from, to}] = out
		return out
	})
}

// crossBlock reports, for the values defined in f, those a later block
// may read from the state: a value used outside its block or by a phi,
// and the operands of a boolean kept in memory (a branch on the boolean
// later is a branch on the comparison). The others are dead at the end
// of their block.
func (la *loopAnalysis) crossBlock(f *ssa.Function) map[ssa.Value]bool {
	if m, ok := la.cross[f]; ok {
		return m
	}
	m := make(map[ssa.Value]bool)
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if r, ok := instr.(*ssa.Range); ok {
				// The collection a range iterates: its loop's exit
				// names it (see rangeEdge).
				m[r.X] = true
			}
			v, ok := instr.(ssa.Value)
			if !ok || v.Referrers() == nil {
				continue
			}
			kept := false
			for _, r := range *v.Referrers() {
				_, isPhi := r.(*ssa.Phi)
				st, isStore := r.(*ssa.Store)
				if isPhi || r.Block() != b || isStore && st.Val == v {
					m[v] = true
					kept = true
				}
			}
			if kept && isBool(v.Type()) {
				// A comparison read later (a branch on a boolean kept
				// in memory or merged by a phi) is interpreted again on
				// its operands.
				for _, op := range instr.Operands(nil) {
					if op != nil && *op != nil {
						m[*op] = true
					}
				}
			}
		}
	}
	la.cross[f] = m
	return m
}

// collect drops from s what no later block can read: the registers of f
// that are dead at the end of their block, and the terms no register,
// location or pending jump names any more. Without it every register
// ever defined stays in the state, and each copy of the state costs as
// much as the function is long.
func (la *loopAnalysis) collect(f *ssa.Function, from *ssa.BasicBlock, s *state) *state {
	if s == nil {
		return nil
	}
	cross := la.crossBlock(f)
	s = s.clone()
	for v := range s.regs {
		if instr, ok := v.(ssa.Instruction); ok && instr.Parent() == f && !cross[v] {
			delete(s.regs, v)
		}
	}
	used := make(map[termKey]bool, len(s.regs))
	for _, r := range s.regs {
		used[r.key] = true
	}
	live := la.liveOut(f)[from]
	for key := range s.terms {
		if a, ok := key.loc.base.(*ssa.Alloc); ok && !a.Heap && a.Parent() == f && !live[a] && !used[key] {
			// A local no later statement reads: its content is dead
			// (a pending mailbox stays, for condition IV).
			if _, pending := s.pending[key]; !pending {
				s.delTerm(key)
			}
			continue
		}
		// Only f's own registers: a caller's (analysing a callee, its
		// registers are out of s.regs) come back when the call returns.
		instr, ok := key.reg.(ssa.Instruction)
		if !ok || instr.Parent() != f || used[key] {
			continue
		}
		if _, pending := s.pending[key]; !pending {
			s.delTerm(key)
		}
	}
	return s
}

// dropDead drops from s, before the call at, the registers of at's
// function that nothing at or after at reads, and the terms only they
// named. collect does so at the end of each block; a block that calls
// helper after helper (a round per call, as generated protocols and
// straight-line rounds are) would otherwise hand every callee the terms
// of every earlier round: each callee's state, and so its analysis and
// its memo key, would grow with the rounds before it.
func (la *loopAnalysis) dropDead(s *state, at ssa.Instruction) {
	f, b := at.Parent(), at.Block()
	here := la.indexOf(at)
	dropped := false
	for v := range s.regs {
		instr, ok := v.(ssa.Instruction)
		if !ok || instr.Parent() != f || la.usedElsewhere(v) || la.readFrom(v, b, here) {
			continue
		}
		delete(s.regs, v)
		dropped = true
	}
	used := make(map[termKey]bool, len(s.regs))
	for _, r := range s.regs {
		used[r.key] = true
	}
	for key := range s.terms {
		if a, ok := key.loc.base.(*ssa.Alloc); ok && !a.Heap && a.Parent() == f && !used[key] && !la.readFrom(a, b, here) && la.onlyIn(a, b) {
			// A local of this block (a composite literal, a temporary)
			// that nothing reads any more.
			if _, pending := s.pending[key]; !pending {
				s.delTerm(key)
			}
			continue
		}
		if !dropped {
			continue
		}
		instr, ok := key.reg.(ssa.Instruction)
		if !ok || instr.Parent() != f || used[key] {
			continue
		}
		if _, pending := s.pending[key]; !pending {
			s.delTerm(key)
		}
	}
}

// readFrom reports whether v, a register used only in its own block
// (see crossBlock), is read in b at or after the instruction of index
// here.
func (la *loopAnalysis) readFrom(v ssa.Value, b *ssa.BasicBlock, here int) bool {
	if v.(ssa.Instruction).Block() != b {
		return false
	}
	for _, r := range *v.Referrers() {
		if la.indexOf(r) >= here {
			return true
		}
	}
	return false
}

// usedElsewhere reports whether v is read outside its block or by a phi.
func (la *loopAnalysis) usedElsewhere(v ssa.Value) bool {
	b := v.(ssa.Instruction).Block()
	for _, r := range *v.Referrers() {
		if _, isPhi := r.(*ssa.Phi); isPhi || r.Block() != b {
			return true
		}
	}
	return false
}

// onlyIn reports whether a and every instruction that mentions it are
// in b.
func (la *loopAnalysis) onlyIn(a *ssa.Alloc, b *ssa.BasicBlock) bool {
	if a.Block() != b {
		return false
	}
	for _, r := range *a.Referrers() {
		if r.Block() != b {
			return false
		}
	}
	return true
}

// indexOf is instr's index in its block.
func (la *loopAnalysis) indexOf(instr ssa.Instruction) int {
	if i, ok := la.index[instr]; ok {
		return i
	}
	for i, in := range instr.Block().Instrs {
		la.index[in] = i
	}
	return la.index[instr]
}
