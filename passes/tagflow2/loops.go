package tagflow2

import (
	"go/ast"

	"golang.org/x/tools/go/ssa"
)

// The loop finding below is the first engine's (passes/tagflow), copied
// rather than exported from it: its unexported loop type is used across
// that engine, which is to be deleted once this one replaces it.

// A natLoop is a natural loop of a function's control-flow graph: its
// header and every block that reaches a back edge to it without passing
// through it.
type natLoop struct {
	header *ssa.BasicBlock
	blocks map[*ssa.BasicBlock]bool
}

// naturalLoops finds the natural loops of fn by their back edges (an edge
// to a block that dominates its source); back edges to one header make one
// loop.
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

// loopOf returns the natural loop of the for statement stmt: the largest
// loop whose code lies inside stmt and whose header has code of stmt (so
// that a loop around stmt whose only body is stmt is not taken for it); a
// range loop over a slice has no positioned code in its header, and is then
// the largest loop inside stmt.
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
