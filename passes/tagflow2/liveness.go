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
