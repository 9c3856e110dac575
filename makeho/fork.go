package makeho

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// A fork is an if/else at the top level of the loop body whose two paths
// enter the same round at their top level: the coordinator and the
// participants of 2PC, one sending what the other receives,
//
//	if p.coordinating() {
//		send Prepare to the participants
//		p.step = Vote
//		receive the votes
//	} else {
//		receive Prepare
//		p.step = Vote
//		send the vote
//	}
//
// Its condition is kept in a field of the machine, set where the if is.
// The statements of each path before its switch belong to the round the
// if is in, those after it to the round the switches enter; in each of
// the two rounds, the sends of a path go to the round's Send and the rest
// to its Update, under the field (the path-guarded sends and updates of
// the paper).
type fork struct {
	s     *ast.IfStmt
	c     *types.Const
	sw    [2]ast.Stmt // the switches of the then and else paths
	field string
	// before and after are the two rounds' shares of the fork.
	before, after *branch
}

// A branch is one round's share of a fork: the statements of each path,
// and their split into sends and update.
type branch struct {
	f         *fork
	parts     [2][]ast.Stmt
	send, upd [2][]ast.Stmt
}

// paths returns the statements of the then and else paths of an if.
func paths(s *ast.IfStmt) [2][]ast.Stmt {
	return [2][]ast.Stmt{s.Body.List, s.Else.(*ast.BlockStmt).List}
}

// findForks finds the forks among the top-level statements of the loop
// body: an if without init whose else is a block, each of whose paths
// sets the round variable once, at its top level, to the same constant.
func (g *loopGen) findForks(body []ast.Stmt) {
	g.forks = make(map[ast.Stmt]*fork)
	g.forkAfter = make(map[ast.Stmt]bool)
	for _, st := range body {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil {
			continue
		}
		if _, ok := ifs.Else.(*ast.BlockStmt); !ok {
			continue
		}
		f := &fork{s: ifs}
		for k, path := range paths(ifs) {
			var writes []ast.Stmt
			for _, s := range path {
				ast.Inspect(s, func(n ast.Node) bool {
					if a, ok := n.(*ast.AssignStmt); ok {
						for _, l := range a.Lhs {
							if g.isVar(l, g.round) {
								writes = append(writes, a)
							}
						}
					}
					return true
				})
			}
			if len(writes) != 1 || !slices.Contains(path, writes[0]) || g.roundConst(writes[0]) == nil {
				f = nil
				break
			}
			c := g.roundConst(writes[0])
			if k == 1 && c != f.c {
				f = nil
				break
			}
			f.c, f.sw[k] = c, writes[0]
		}
		if f == nil {
			continue
		}
		g.forks[ifs] = f
		for k, path := range paths(ifs) {
			i := slices.Index(path, f.sw[k])
			for _, s := range path[i+1:] {
				g.forkAfter[s] = true
			}
		}
	}
}

// splitFork splits the round share b of fork f, in round name, into
// sends and update: on each path, the statements up to the last send
// (which must only compute and send), then the rest.
func (g *loopGen) splitFork(b *branch, name string) error {
	g.inTail = true
	defer func() { g.inTail = false }()
	for k, part := range b.parts {
		if pos := g.maxPerPath(part, annotations.Send); pos.IsValid() {
			return refuse(pos, "more than one send on a path of round %s (make-HO needs at most one send, possibly to many, per round)", name)
		}
		if pos := g.maxPerPath(part, annotations.Recv); pos.IsValid() {
			return refuse(pos, "more than one reception on a path of round %s (make-HO needs at most one reception loop per round)", name)
		}
		last, recv := -1, -1
		for i, s := range part {
			if g.findComm(s, annotations.Send).IsValid() {
				last = i
			}
			if recv < 0 && g.findComm(s, annotations.Recv).IsValid() {
				recv = i
			}
		}
		if last >= 0 && recv >= 0 && last >= recv {
			return refuse(g.findComm(part[last], annotations.Send), "not supported yet: a send after the reception of round %s (make-HO needs send, then receive, then update)", name)
		}
		for _, s := range part[:last+1] {
			if pos := g.sendUnsafe(s); pos.IsValid() {
				return refuse(pos, "not supported yet: a statement that may change the state among the sends of round %s (they are the round's send function, which must not change the state: compute it before the round's first send, or after its reception)", name)
			}
		}
		b.send[k], b.upd[k] = part[:last+1], part[last+1:]
	}
	return nil
}

// forkRound fills the round the fork f enters, whose own statements (after
// the if, up to the next switch) are r.update.
func (g *loopGen) forkRound(r *round, f *fork) error {
	name := r.c.Name()
	b := &branch{f: f}
	for k, path := range paths(f.s) {
		i := slices.Index(path, f.sw[k])
		b.parts[k] = path[i+1:]
	}
	if err := g.splitFork(b, name); err != nil {
		return err
	}
	if pos := g.findComm(&ast.BlockStmt{List: r.update}, annotations.Send); pos.IsValid() {
		return refuse(pos, "more than one send on a path of round %s (make-HO needs at most one send, possibly to many, per round)", name)
	}
	if pos := g.findComm(&ast.BlockStmt{List: r.update}, annotations.Recv); pos.IsValid() {
		for _, u := range b.upd {
			g.inTail = true
			has := g.findComm(&ast.BlockStmt{List: u}, annotations.Recv).IsValid()
			g.inTail = false
			if has {
				return refuse(pos, "more than one reception on a path of round %s (make-HO needs at most one reception loop per round)", name)
			}
		}
	}
	f.after, r.branch = b, b
	return nil
}

// forkShare makes the fork f, the last statement of round r's segment and
// its first communication, r's send and update: the paths' statements up
// to their switches.
func (g *loopGen) forkShare(r *round, f *fork, at int, seg []ast.Stmt) error {
	name := r.c.Name()
	if at != len(seg)-1 {
		return refuse(seg[at+1].Pos(), "internal error: a statement after an if/else that enters a round")
	}
	for _, s := range seg[:at] {
		if pos := g.findComm(s, 0); pos.IsValid() {
			return refuse(f.s.Pos(), "not supported yet: an if/else that enters round %s on both paths after the send or reception of round %s (make-HO needs the round's communication inside the if/else)", f.c.Name(), name)
		}
	}
	b := &branch{f: f}
	for k, path := range paths(f.s) {
		i := slices.Index(path, f.sw[k])
		b.parts[k] = path[:i+1]
	}
	if err := g.splitFork(b, name); err != nil {
		return err
	}
	f.before, r.branch = b, b
	r.pre, r.send, r.update = seg[:at], nil, nil
	return nil
}

// branchShare makes the if/else ifs, which holds the first send and the
// first reception of round r on different paths (the leader sends, the
// others receive), r's send and update, split per path as the share of a
// fork: its condition is kept in a field set where the if is.
func (g *loopGen) branchShare(r *round, ifs *ast.IfStmt, at int, seg []ast.Stmt) error {
	name := r.c.Name()
	rest := &ast.BlockStmt{List: seg[at+1:]}
	if pos := g.findComm(rest, annotations.Send); pos.IsValid() {
		return refuse(pos, "not supported yet: a send after the reception of round %s (make-HO needs send, then receive, then update)", name)
	}
	b := &branch{f: &fork{s: ifs}, parts: paths(ifs)}
	if err := g.splitFork(b, name); err != nil {
		return err
	}
	if pos := g.findComm(rest, annotations.Recv); pos.IsValid() {
		return refuse(pos, "more than one reception on a path of round %s (make-HO needs at most one reception loop per round)", name)
	}
	b.f.before, r.branch = b, b
	r.pre, r.send, r.update = seg[:at], nil, seg[at+1:]
	return nil
}

// branchText renders a round share of a fork: "if m.f { then } else {
// else }" for the sends (upd false) or the updates.
func (g *loopGen) branchText(b *branch, upd bool) string {
	parts := b.send
	if upd {
		parts = b.upd
	}
	a, e := g.text(parts[0]), g.text(parts[1])
	f := g.mName + "." + b.f.field
	switch {
	case strings.TrimSpace(a) == "" && strings.TrimSpace(e) == "":
		return ""
	case strings.TrimSpace(e) == "":
		return fmt.Sprintf("if %s {\n%s\n}", f, a)
	case strings.TrimSpace(a) == "":
		return fmt.Sprintf("if !%s {\n%s\n}", f, e)
	}
	return fmt.Sprintf("if %s {\n%s\n} else {\n%s\n}", f, a, e)
}

// forkCond renders the statement that keeps the condition of the fork (or
// the if/else of branchShare) whose first share is round r's, if any.
func (g *loopGen) forkCond(r *round) string {
	if r == nil || r.branch == nil || r.branch.f.before != r.branch {
		return ""
	}
	f := r.branch.f
	// The comments above the if, which is not rendered as a whole, go
	// with its condition.
	doc := strings.TrimSpace(string(g.src[g.leadStart(f.s.Pos()):g.off(f.s.Pos())]))
	if doc != "" {
		doc = "\n\n" + doc
	}
	return fmt.Sprintf("%s\n%s.%s = %s // the path of the if/else at %s", doc, g.mName, f.field, g.nodeText(f.s.Cond), lineOf(g.fset, f.s.Pos()))
}

// forkStmts returns the statements of round r's share of a fork: its
// sends (upd false) or its update.
func forkStmts(r *round, upd bool) []ast.Stmt {
	if r.branch == nil {
		return nil
	}
	p := r.branch.send
	if upd {
		p = r.branch.upd
	}
	return append(append([]ast.Stmt{}, p[0]...), p[1]...)
}
