package makeho

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// Jumps (condition IV of the paper: a process that receives a message of
// a later tag moves to that tag). A loop that sets a phase variable to
// something other than a constant or an increase of itself
// (s.height, s.round = p.Height, p.Round, or the maximum of a mailbox)
// can leave its processes in different phases at the same iteration. Its
// machine is a compho.Tagger: compho runs the rounds in the order of the
// tags, and a process that jumped ahead is idle (sends nothing, is not
// updated) in the rounds it skipped, as in the reduction of Theorem 1.
// Its round index is compho's, as for other machines: a process that
// continues runs the rounds left in the iteration as no-ops, at its
// phase, before the next iteration starts.

// findJumps sets g.tagged if the loop jumps: a phase variable assigned
// something other than a constant or an increase of itself, in the loop
// body, its post statement or a helper it calls. Nested machines, and
// loops that call one, keep the untagged lock step (compho aligns
// Taggers at the root only).
func (g *loopGen) findJumps() error {
	var at token.Pos
	check := func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || at.IsValid() || (as.Tok != token.ASSIGN && as.Tok != token.DEFINE) || len(as.Lhs) != len(as.Rhs) {
			return !at.IsValid()
		}
		for i, l := range as.Lhs {
			for _, ph := range g.phases {
				if !g.isVar(l, ph) {
					continue
				}
				if g.info.Types[as.Rhs[i]].Value != nil {
					continue // a reset to a constant (round = 0)
				}
				one := &ast.AssignStmt{Lhs: []ast.Expr{l}, Tok: token.ASSIGN, Rhs: []ast.Expr{as.Rhs[i]}}
				if g.increments(one, ph) {
					continue
				}
				at = as.Pos()
			}
		}
		return !at.IsValid()
	}
	ast.Inspect(g.loop.Body, check)
	if g.forStmt != nil && g.forStmt.Post != nil {
		ast.Inspect(g.forStmt.Post, check)
	}
	if !at.IsValid() || g.outer != nil || g.calls != nil {
		return nil
	}
	g.tagged, g.jumpAt = true, at
	return nil
}

// varExpr renders the tag variable v in the machine's methods.
func (g *loopGen) varExpr(v *annotations.SyncVar) string {
	if name, ok := g.hoisted[v.Root]; ok && !(v.Root == g.recv && g.recvPtr) {
		rest := strings.TrimPrefix(v.Name, v.Root.Name())
		return g.mName + "." + name + rest
	}
	return v.Name
}

// emitTag writes the Tag method of a tagged machine: the phase
// variables (compho adds the index of the round).
func (g *loopGen) emitTag(b *bytes.Buffer) {
	var comps, names []string
	for _, ph := range g.phases {
		comps = append(comps, "int("+g.varExpr(ph)+")")
		names = append(names, ph.Name)
	}
	doc := fmt.Sprintf("Tag returns the phase of the process, (%s) (compho.Tagger): the loop\n// jumps to a later phase at %s, so compho runs the rounds in the order of the\n// tags and the process is idle in the rounds it jumps over.",
		strings.Join(names, ", "), lineOf(g.fset, g.jumpAt))
	g.method(b, doc, "Tag() compho.Tag", fmt.Sprintf("return compho.Tag{%s}", strings.Join(comps, ", ")))
}
