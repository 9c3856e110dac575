package tagflow2

import (
	"golang.org/x/tools/go/ssa"
)

// Recursion. A call of a function already being analysed (on the stack of
// calls followed) is not followed: what it does is unknown. So the result
// of analysing f depends on which functions of its strongly connected
// component of the call graph are on the stack, and on nothing else of
// the stack: memoized results are keyed by that (see recursionKey), so
// that the analysis does not depend on the order in which calls are met.

// sccs computes, once per package, the strongly connected component of
// each function reached by static calls from the package's functions
// (Tarjan's algorithm).
func (sm *summaries) scc(f *ssa.Function) int {
	if sm.sccIndex == nil {
		sm.computeSCCs()
	}
	if c, ok := sm.sccIndex[f]; ok {
		return c
	}
	return -1
}

// sccMembers are the functions of f's component, in the order Tarjan's
// algorithm met them (f alone if it is in none).
func (sm *summaries) sccMembers(f *ssa.Function) []*ssa.Function {
	c := sm.scc(f)
	if c < 0 {
		return []*ssa.Function{f}
	}
	return sm.sccFuncs[c]
}

func (sm *summaries) computeSCCs() {
	sm.sccIndex = make(map[*ssa.Function]int)
	sm.sccFuncs = nil
	index := make(map[*ssa.Function]int)
	low := make(map[*ssa.Function]int)
	onStack := make(map[*ssa.Function]bool)
	var stack []*ssa.Function
	next, comp := 0, 0
	var visit func(f *ssa.Function)
	visit = func(f *ssa.Function) {
		index[f], low[f] = next, next
		next++
		stack = append(stack, f)
		onStack[f] = true
		for _, g := range staticCallees(f) {
			if _, seen := index[g]; !seen {
				visit(g)
				low[f] = min(low[f], low[g])
			} else if onStack[g] {
				low[f] = min(low[f], index[g])
			}
		}
		if low[f] == index[f] {
			var members []*ssa.Function
			for {
				g := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[g] = false
				sm.sccIndex[g] = comp
				members = append(members, g)
				if g == f {
					break
				}
			}
			sm.sccFuncs = append(sm.sccFuncs, members)
			comp++
		}
	}
	for _, f := range sm.funcs {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
}

// staticCallees are the functions with a body f calls statically.
func staticCallees(f *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if g := c.Common().StaticCallee(); g != nil && len(g.Blocks) > 0 {
				out = append(out, g)
			}
		}
	}
	return append(out, f.AnonFuncs...)
}

// recursionKey is the part of the stack a call of f is analysed under
// that its result depends on: the functions of f's component being
// analysed (the loop's or handler's function first), in order.
func (la *loopAnalysis) recursionKey(f *ssa.Function) []*ssa.Function {
	c := la.sum.scc(f)
	if c < 0 {
		return nil
	}
	var key []*ssa.Function
	for _, g := range append([]*ssa.Function{la.fn}, la.calls...) {
		if la.sum.scc(g) == c {
			key = append(key, g)
		}
	}
	return key
}
