package tagflow

import (
	"fmt"
	"go/constant"
	"go/token"
	"math/rand/v2"
	"testing"
)

// consistentByReach is the definition consistent implements: no term
// strictly below itself, no != pair of terms each below the other, no two
// distinct constants each below the other.
func consistentByReach(fs facts) bool {
	g := fs.graph()
	reach := func(a, b term) (ok, strict bool) {
		ia, ib := g.node(a), g.node(b)
		if ia < 0 || ib < 0 {
			return false, false
		}
		out := make([]uint8, len(g.terms))
		g.reach(ia, out)
		return out[ib] != unreached, out[ib] == reachedStrict
	}
	below := func(a, b term) (bool, bool) { // a <=* b, strictly
		if a == b {
			return true, false
		}
		return reach(a, b)
	}
	var terms []term
	seen := map[term]bool{}
	for _, f := range fs {
		for _, t := range []term{f.a, f.b} {
			if !seen[t] {
				seen[t] = true
				terms = append(terms, t)
			}
		}
	}
	for _, t := range terms {
		if ok, strict := reach(t, t); ok && strict {
			return false
		}
	}
	for p := range g.ne {
		pair := [2]term{g.terms[p[0]], g.terms[p[1]]}
		ab, _ := below(pair[0], pair[1])
		ba, _ := below(pair[1], pair[0])
		if ab && ba {
			return false
		}
		if pair[0].isConst() && pair[1].isConst() && constCmp(pair[0], pair[1]) == relEQ {
			return false
		}
	}
	for _, t := range terms {
		for _, u := range terms {
			if t.isConst() && u.isConst() && t != u && constCmp(t, u) != relEQ {
				tu, _ := below(t, u)
				ut, _ := below(u, t)
				if tu && ut {
					return false
				}
			}
		}
	}
	return true
}

// TestConsistent compares the linear-time check with its definition on
// random fact sets over a few variables and constants.
func TestConsistent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	terms := []term{"0/v1", "0/v2", "0/v3", "0/v4", "c:0", "c:1", "c:2", "c:true", "c:false"}
	ops := []token.Token{token.LSS, token.LEQ, token.EQL, token.NEQ, token.GTR, token.GEQ}
	var incons int
	for i := range 20000 {
		var fs facts
		for range 1 + r.IntN(6) {
			a, b := terms[r.IntN(len(terms))], terms[r.IntN(len(terms))]
			if a.isConst() && b.isConst() {
				continue
			}
			fs = fs.with(mkFact(a, ops[r.IntN(len(ops))], b))
		}
		want := consistentByReach(fs)
		if got := fs.consistent(); got != want {
			t.Fatalf("case %d: consistent(%v) = %v, want %v", i, fmt.Sprint(fs), got, want)
		}
		if !want {
			incons++
		}
	}
	if incons < 1000 {
		t.Errorf("only %d inconsistent cases generated: the test does not exercise the check", incons)
	}
}

// cmpByClosure is what cmp implements, by a transitive closure over the
// terms: a <= b and a < b as the least relations containing the facts and
// the order of the integer constants, then closed under composition. With
// consts, a and b are among the terms when they are constants (as for
// facts.cmp), else only the facts' terms are (as for solver.cmp).
func cmpByClosure(fs facts, a, b term, consts bool) rel {
	if a == b || a.isConst() && b.isConst() {
		return constCmp(a, b)
	}
	var terms []term
	idx := map[term]int{}
	for _, f := range fs {
		for _, t := range []term{f.a, f.b} {
			if _, ok := idx[t]; !ok {
				idx[t] = len(terms)
				terms = append(terms, t)
			}
		}
	}
	for _, t := range []term{a, b} {
		if _, ok := idx[t]; !ok && consts && t.isConst() {
			idx[t] = len(terms)
			terms = append(terms, t)
		}
	}
	ia, oka := idx[a]
	ib, okb := idx[b]
	if !oka || !okb {
		return relUnknown
	}
	n := len(terms)
	// le[i][j]: a path i -> j; lt[i][j]: a path with a strict step.
	le := make([][]bool, n)
	lt := make([][]bool, n)
	for i := range n {
		le[i], lt[i] = make([]bool, n), make([]bool, n)
	}
	ne := map[[2]int]bool{}
	for _, f := range fs {
		i, j := idx[f.a], idx[f.b]
		switch f.op {
		case token.LSS:
			le[i][j], lt[i][j] = true, true
		case token.LEQ:
			le[i][j] = true
		case token.EQL:
			le[i][j], le[j][i] = true, true
		case token.NEQ:
			ne[[2]int{i, j}], ne[[2]int{j, i}] = true, true
		}
	}
	for i, t := range terms {
		for j, u := range terms {
			if t.isConst() && u.isConst() && constCmp(t, u) == relLT && constValue(t).Kind() == constant.Int {
				le[i][j], lt[i][j] = true, true
			}
		}
	}
	// Closed under composition of paths, walks included: repeated until
	// nothing changes, since a strict cycle makes walks longer than any
	// path strict.
	for changed := true; changed; {
		changed = false
		for k := range n {
			for i := range n {
				for j := range n {
					if le[i][k] && le[k][j] {
						if !le[i][j] || (lt[i][k] || lt[k][j]) && !lt[i][j] {
							changed = true
						}
						le[i][j] = true
						lt[i][j] = lt[i][j] || lt[i][k] || lt[k][j]
					}
				}
			}
		}
	}
	ab, ba, isNE := le[ia][ib], le[ib][ia], ne[[2]int{ia, ib}]
	// A != fact between terms equal to a and b.
	eq := func(x, y int) bool { return x == y || le[x][y] && le[y][x] }
	for p := range ne {
		isNE = isNE || eq(p[0], ia) && eq(p[1], ib)
	}
	switch {
	case ab && (lt[ia][ib] || isNE):
		return relLT
	case ba && (lt[ib][ia] || isNE):
		return relGT
	case ab && ba:
		return relEQ
	case ab:
		return relLE
	case ba:
		return relGE
	case isNE:
		return relNE
	}
	return relUnknown
}

// TestCmp compares the solver's answers with the transitive closure on
// random fact sets.
func TestCmp(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	terms := []term{"0/v1", "0/v2", "0/v3", "0/v4", "0/v5", "c:0", "c:1", "c:2", "c:-3", "c:true", "c:false"}
	ops := []token.Token{token.LSS, token.LEQ, token.EQL, token.NEQ, token.GTR, token.GEQ}
	for i := range 5000 {
		var fs facts
		for range 1 + r.IntN(8) {
			a, b := terms[r.IntN(len(terms))], terms[r.IntN(len(terms))]
			if a.isConst() && b.isConst() {
				continue
			}
			fs = fs.with(mkFact(a, ops[r.IntN(len(ops))], b))
		}
		s := fs.solve()
		for _, a := range terms {
			for _, b := range terms {
				if got, want := s.cmp(a, b), cmpByClosure(fs, a, b, false); got != want {
					t.Fatalf("case %d: %v: solver cmp(%s, %s) = %v, want %v", i, fmt.Sprint(fs), a, b, got, want)
				}
				if got, want := fs.cmp(a, b), cmpByClosure(fs, a, b, true); got != want {
					t.Fatalf("case %d: %v: cmp(%s, %s) = %v, want %v", i, fmt.Sprint(fs), a, b, got, want)
				}
			}
		}
	}
}
