package makeho

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Loops that enter their first round at the end of the body. Many loops
// are written with the phase increase at the end of the iteration:
//
//	p.phase, p.round = 1, Collect
//	for p.phase <= max {
//		... round Collect ...
//		p.round = Vote
//		...
//		p.phase++
//		p.round = Collect
//	}
//
// or with an if/else at the end whose every path increases the phase and
// enters the first round (height++; round = 0; step = Propose, or round++;
// step = Propose). The first round is then entered before the loop and at
// the end of every iteration: its code starts the body, as if the switch
// were the body's first statement, and the switch at the end is the end of
// the last round's update. make-HO needs the switch before the loop too
// (a top-level statement of the function), the phase increased on every
// path of the body, and no continue (which would skip the switch).

// findRotation records the body's last statement in g.rotated if it
// enters the first round on every path, and marks the switches it makes
// as allowed in top.
func (g *loopGen) findRotation(body []ast.Stmt, top map[ast.Stmt]bool) error {
	first := g.round.Enum.Consts[0]
	var sws []ast.Stmt
	i := g.entersFirstList(body, first, &sws)
	if i < 0 {
		return nil
	}
	last := body[i]
	// A body that also enters the first round at its start is the
	// ordinary form; the switch at the end then goes back (refused in
	// split).
	for _, s := range body[:i] {
		if g.roundConst(s) == first {
			return nil
		}
	}
	if !g.setBefore(first) {
		return refuse(last.Pos(), "not supported yet: the loop body enters round %s only at its end: make-HO needs %s = %s before the loop too, at the top level of the function, so that the first iteration starts in it",
			first.Name(), g.round.Name, first.Name())
	}
	g.rotated = last
	for _, s := range sws {
		top[s] = true
	}
	// Its if/else is the end of the iteration, not a fork into a round.
	delete(g.forks, last)
	return nil
}

// entersFirstList returns the index of the statement of list that enters
// round first on every path (see entersFirst), if the statements after it
// neither communicate nor leave the iteration (they end the last round's
// update); -1 if there is none.
func (g *loopGen) entersFirstList(list []ast.Stmt, first *types.Const, sws *[]ast.Stmt) int {
	for i := len(list) - 1; i >= 0; i-- {
		if g.entersFirst(list[i], first, sws) {
			return i
		}
		if g.findComm(list[i], 0).IsValid() || g.leavesIter(list[i]) {
			return -1
		}
	}
	return -1
}

// entersFirst reports whether s enters round first on every path: it is
// the switch, or an if/else each of whose branches has such a statement
// at its top level, followed by statements that neither communicate nor
// leave. The switches go to sws.
func (g *loopGen) entersFirst(s ast.Stmt, first *types.Const, sws *[]ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if g.roundConst(s) == first {
			*sws = append(*sws, s)
			return true
		}
	case *ast.IfStmt:
		if s.Else == nil || s.Init != nil && g.findComm(s.Init, 0).IsValid() {
			return false
		}
		if g.entersFirstList(s.Body.List, first, sws) < 0 {
			return false
		}
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			return g.entersFirstList(e.List, first, sws) >= 0
		case *ast.IfStmt:
			return g.entersFirst(e, first, sws)
		}
	}
	return false
}

// leavesIter reports whether s contains a return, or a break or continue of
// the tagged loop.
func (g *loopGen) leavesIter(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			found = found || g.targetsLoop(s, n)
		}
		return !found
	})
	return found
}

// setBefore reports whether a top-level statement of the function before
// the loop sets the round variable to first (alone, or in an assignment
// of several variables), and no later one sets it otherwise.
func (g *loopGen) setBefore(first *types.Const) bool {
	is := func(e ast.Expr) bool {
		v := g.info.Types[e].Value
		return v != nil && constant.Compare(v, token.EQL, first.Val())
	}
	set := false
	for _, s := range g.preLoop {
		as, ok := s.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) || as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
			if g.assigns(s, func(e ast.Expr) bool { return g.isVar(e, g.round) }) {
				set = false
			}
			continue
		}
		for i, l := range as.Lhs {
			if g.isVar(l, g.round) {
				set = is(as.Rhs[i])
				continue
			}
			// The process created with the round in a composite
			// literal: s := &state{step: Propose, ...}.
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok || g.info.ObjectOf(id) != g.round.Root || len(g.round.Fields) != 1 {
				continue
			}
			set = false
			rhs := ast.Unparen(as.Rhs[i])
			if u, ok := rhs.(*ast.UnaryExpr); ok && u.Op == token.AND {
				rhs = ast.Unparen(u.X)
			}
			if lit, ok := rhs.(*ast.CompositeLit); ok {
				for _, el := range lit.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && g.info.Uses[k] == g.round.Fields[0] {
							set = is(kv.Value)
						}
					}
				}
			}
		}
	}
	return set
}

// alwaysIncreases reports whether every path through stmts runs a
// statement for which inc holds, at its top level or in both branches of
// an if/else.
func (g *loopGen) alwaysIncreases(stmts []ast.Stmt, inc func(ast.Stmt) bool) bool {
	for _, s := range stmts {
		if inc(s) {
			return true
		}
		if ifs, ok := s.(*ast.IfStmt); ok && ifs.Else != nil {
			var els []ast.Stmt
			switch e := ifs.Else.(type) {
			case *ast.BlockStmt:
				els = e.List
			case *ast.IfStmt:
				els = []ast.Stmt{e}
			}
			if g.alwaysIncreases(ifs.Body.List, inc) && g.alwaysIncreases(els, inc) {
				return true
			}
		}
	}
	return false
}
