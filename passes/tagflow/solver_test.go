package tagflow

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"testing"
)

// consistentByReach is the definition consistent implements: no term
// strictly below itself, no != pair of terms each below the other, no two
// distinct constants each below the other.
func consistentByReach(fs facts) bool {
	g := fs.graph()
	below := func(a, b term) (bool, bool) { // a <=* b, strictly
		if a == b {
			return true, false
		}
		s, ok := g.reach(a)[b]
		return ok, s
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
		if strict, ok := g.reach(t)[t]; ok && strict {
			return false
		}
	}
	for pair := range g.ne {
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
