package tagflow2

import (
	"slices"

	"golang.org/x/tools/go/ssa"
	"honnef.co/go/tools/analysis/dfa/dense"
)

// maxCallDepth bounds the chain of package functions analysed for one
// call. Deeper chains are calls the analysis does not follow, which makes
// what they may do "cannot prove".
const maxCallDepth = 8

// followable returns the package function c calls when the analysis
// follows it: a static call of a function with a body in the package, not
// already being analysed (recursion) and within the depth bound.
func (la *loopAnalysis) followable(c *ssa.CallCommon) *ssa.Function {
	f := c.StaticCallee()
	if f == nil || len(f.Blocks) == 0 || f.Pkg != la.fn.Pkg {
		return nil
	}
	if len(la.calls) >= maxCallDepth || slices.Contains(la.calls, f) || f == la.fn {
		return nil
	}
	return f
}

// callFunction interprets a call of a package function by analysing its
// body in the caller's state: the tag, its relation to the last
// communication point, every term the caller holds and the pending jumps
// go in; what comes out at the callee's returns is the state after the
// call, and the returned message or collection, if any, the call's value.
// Each callee's analysis is kept per entry state, so a call visited again
// by the caller's fixpoint in the same state costs nothing; when checking
// (the last pass), the callee's code is checked where the call is.
func (la *loopAnalysis) callFunction(s *state, f *ssa.Function, c *ssa.CallCommon, instr *ssa.Call) {
	entry := s.clone()
	entry.regs = make(map[ssa.Value]ref)
	args := c.Args
	for i, p := range f.Params {
		if i < len(args) {
			if r, ok := s.regs[args[i]]; ok {
				entry.terms[regKey(p)] = entry.terms[r.key]
				entry.regs[p] = ref{key: regKey(p), comp: r.comp}
			}
		}
	}
	var exit *state
	var result *term
	if !la.reporting {
		for _, m := range la.memo[f] {
			if (lattice{}).Equals(m.entry, entry) {
				exit, result = m.exit, m.result
				break
			}
		}
	}
	if exit == nil {
		exit, result = la.analyseCallee(f, entry, instr)
		if !la.reporting {
			la.memo[f] = append(la.memo[f], memoEntry{entry: entry, exit: exit, result: result})
		}
	}
	if exit == nil {
		// The callee never returns (it panics or loops forever): what
		// follows the call is unreachable through it; keep the caller's
		// state, which over-approximates.
		return
	}
	regs := s.regs
	*s = *exit.clone()
	s.regs = regs
	delete(s.regs, instr)
	if result != nil {
		s.terms[regKey(instr)] = *result
		s.regs[instr] = ref{key: regKey(instr), comp: wholeComp}
	}
}

// analyseCallee runs the fixpoint over f's body from entry and returns
// the join of the states at its returns, and of its returned message or
// collection.
func (la *loopAnalysis) analyseCallee(f *ssa.Function, entry *state, call *ssa.Call) (*state, *term) {
	outer := len(la.calls) == 0
	if outer {
		la.calledInRegion = la.inRegion(call)
		la.callSite = call.Pos()
	}
	la.calls = append(la.calls, f)
	defer func() {
		la.calls = la.calls[:len(la.calls)-1]
	}()
	reporting := la.reporting
	la.reporting = false
	g := blockGraph{f}
	res := dense.Forward[lattice, *state, int](g, map[int]*state{0: entry}, func(from, to int, in *state) *state {
		return la.edge(f.Blocks[from], f.Blocks[to], la.block(f.Blocks[from], in))
	})
	la.reporting = reporting
	var exit *state
	var result *term
	for _, b := range f.Blocks {
		in := res.In(b.Index)
		end := la.block(b, in) // checks the callee's code when reporting
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || end == nil {
			continue
		}
		exit = (lattice{}).Merge(exit, end)
		for _, v := range ret.Results {
			if r, ok := end.regs[v]; ok && r.comp == wholeComp {
				t := end.terms[r.key]
				if result == nil {
					result = &t
				} else {
					j := result.join(t)
					result = &j
				}
			}
		}
	}
	return exit, result
}
