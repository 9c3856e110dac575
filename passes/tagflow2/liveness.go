package tagflow2

import "golang.org/x/tools/go/ssa"

// A liveKey asks whether a local may be read after an instruction.
type liveKey struct {
	at    ssa.Instruction
	local *ssa.Alloc
}

// liveAfter reports whether the local variable a (a non-escaping Alloc of
// at's function) may be read after at, before it is overwritten whole or
// allocated again (a variable declared in a loop body is a new one on
// each iteration). A mailbox that is dead there is not kept: nothing the
// process does later depends on it, so condition IV owes no jump to it.
func (la *loopAnalysis) liveAfter(at ssa.Instruction, a *ssa.Alloc) bool {
	key := liveKey{at, a}
	if v, ok := la.live[key]; ok {
		return v
	}
	v := scanLive(at, a)
	la.live[key] = v
	return v
}

// scanLive searches forward from the instruction after at for a use of a
// that no kill precedes.
func scanLive(at ssa.Instruction, a *ssa.Alloc) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	// rest says, for the instructions of b from i on, whether a use comes
	// before a kill (true, decided), a kill comes first (false, decided),
	// or neither (the block's successors decide).
	rest := func(b *ssa.BasicBlock, i int) (live, decided bool) {
		var ops []*ssa.Value
		for _, instr := range b.Instrs[i:] {
			if instr == ssa.Instruction(a) {
				return false, true
			}
			if st, ok := instr.(*ssa.Store); ok && st.Addr == ssa.Value(a) {
				if st.Val == ssa.Value(a) {
					return true, true
				}
				return false, true
			}
			ops = instr.Operands(ops[:0])
			for _, op := range ops {
				if op != nil && *op == ssa.Value(a) {
					return true, true
				}
			}
		}
		return false, false
	}
	b := at.Block()
	idx := 0
	for i, instr := range b.Instrs {
		if instr == at {
			idx = i + 1
		}
	}
	if live, decided := rest(b, idx); decided {
		return live
	}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		live, decided := rest(n, 0)
		if live {
			return true
		}
		if !decided {
			work = append(work, n.Succs...)
		}
	}
	return false
}

// liveOut computes, once per function, the locals (non-escaping Allocs)
// that may be read after the end of each block: the classic backward
// liveness, with a store to the whole local or its Alloc a kill and any
// other mention a use.
func (la *loopAnalysis) liveOut(f *ssa.Function) map[*ssa.BasicBlock]map[*ssa.Alloc]bool {
	if m, ok := la.liveOuts[f]; ok {
		return m
	}
	locals := make(map[ssa.Value]*ssa.Alloc)
	for _, a := range f.Locals {
		if !a.Heap {
			locals[a] = a
		}
	}
	// use and kill per block, scanning backwards.
	type gen struct{ use, kill map[*ssa.Alloc]bool }
	gens := make([]gen, len(f.Blocks))
	var ops []*ssa.Value
	for i, b := range f.Blocks {
		g := gen{use: make(map[*ssa.Alloc]bool), kill: make(map[*ssa.Alloc]bool)}
		for j := len(b.Instrs) - 1; j >= 0; j-- {
			instr := b.Instrs[j]
			if a, ok := instr.(*ssa.Alloc); ok && locals[a] != nil {
				g.kill[a], g.use[a] = true, false
				continue
			}
			if st, ok := instr.(*ssa.Store); ok {
				if a := locals[st.Addr]; a != nil && st.Val != ssa.Value(a) {
					g.kill[a], g.use[a] = true, false
					continue
				}
			}
			ops = instr.Operands(ops[:0])
			for _, op := range ops {
				if op != nil && *op != nil {
					if a := locals[*op]; a != nil {
						g.use[a] = true
					}
				}
			}
		}
		gens[i] = g
	}
	in := make([]map[*ssa.Alloc]bool, len(f.Blocks))
	out := make(map[*ssa.BasicBlock]map[*ssa.Alloc]bool, len(f.Blocks))
	for _, b := range f.Blocks {
		in[b.Index] = make(map[*ssa.Alloc]bool)
		out[b] = make(map[*ssa.Alloc]bool)
	}
	for changed := true; changed; {
		changed = false
		for i := len(f.Blocks) - 1; i >= 0; i-- {
			b := f.Blocks[i]
			for _, s := range b.Succs {
				for a := range in[s.Index] {
					if !out[b][a] {
						out[b][a] = true
						changed = true
					}
				}
			}
			g := gens[i]
			for a, u := range g.use {
				if u && !in[i][a] {
					in[i][a] = true
					changed = true
				}
			}
			for a := range out[b] {
				if !g.kill[a] && !g.use[a] && !in[i][a] {
					in[i][a] = true
					changed = true
				}
			}
		}
	}
	la.liveOuts[f] = out
	return out
}
