package tagflow

import (
	"go/constant"
	"go/token"
	"sort"
	"strings"
)

// A term names an integer (or boolean) value symbolically: a constant
// ("c:5"), an SSA value in an inlining context ("3/v17"), a synthetic value
// ("s:old@12#0"), or a memory location below one of those ("3/v17*.1": field
// 1 of what v17 points to). Loads of the same location have the same term;
// ccvet assumes that messages are not mutated after they are received.
type term string

func constTerm(v constant.Value) term { return term("c:" + v.ExactString()) }

func (t term) isConst() bool { return strings.HasPrefix(string(t), "c:") }

// base is the SSA value or synthetic name the term is rooted at.
func (t term) base() string {
	s := string(t)
	if t.isConst() {
		return s
	}
	if i := strings.IndexAny(s, "*.[#"); i >= 0 {
		return s[:i]
	}
	return s
}

// A fact is a relation between two terms established by a branch, an
// assignment or the structure of an SSA value. Op is one of LSS, LEQ, EQL,
// NEQ; facts are normalised so that GTR and GEQ do not occur.
type fact struct {
	a, b term
	op   token.Token
}

func mkFact(a term, op token.Token, b term) fact {
	switch op {
	case token.GTR:
		return fact{b, a, token.LSS}
	case token.GEQ:
		return fact{b, a, token.LEQ}
	case token.EQL, token.NEQ:
		if b < a {
			a, b = b, a
		}
	}
	return fact{a, b, op}
}

// negate returns the fact that holds when a op b does not.
func negate(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.LEQ:
		return token.GTR
	case token.GTR:
		return token.LEQ
	case token.GEQ:
		return token.LSS
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	}
	return token.ILLEGAL
}

// rel is what the facts imply about a and b.
type rel int

const (
	relUnknown rel = iota
	relLT
	relLE
	relEQ
	relGE
	relGT
	relNE
)

func (r rel) String() string {
	return [...]string{"?", "<", "<=", "==", ">=", ">", "!="}[r]
}

// facts is a set of facts with the queries of a tiny difference-free
// order solver: reachability over < and <= edges, constants ordered by
// value.
type facts []fact

func (fs facts) with(f fact) facts {
	for _, g := range fs {
		if g == f {
			return fs
		}
	}
	out := make(facts, len(fs), len(fs)+1)
	copy(out, fs)
	return append(out, f)
}

// without drops the facts that mention a term rooted at base.
func (fs facts) without(base string) facts {
	var out facts
	for _, f := range fs {
		if f.a.base() != base && f.b.base() != base {
			out = append(out, f)
		}
	}
	return out
}

// withoutLoc drops the facts about location loc and the locations below it.
func (fs facts) withoutLoc(loc term) facts {
	var out facts
	for _, f := range fs {
		if !within(f.a, loc) && !within(f.b, loc) {
			out = append(out, f)
		}
	}
	return out
}

func within(t, loc term) bool {
	return t == loc || strings.HasPrefix(string(t), string(loc)) && strings.ContainsRune("*.[#", rune(t[len(loc)]))
}

// rename replaces every term rooted at base from by the same term rooted
// at to.
func (fs facts) rename(from, to string) facts {
	out := make(facts, 0, len(fs))
	for _, f := range fs {
		out = append(out, mkFact(renameTerm(f.a, from, to), f.op, renameTerm(f.b, from, to)))
	}
	return out
}

func renameTerm(t term, from, to string) term {
	if t.base() == from {
		return term(to + string(t)[len(from):])
	}
	return t
}

func (fs facts) key() string {
	ss := make([]string, len(fs))
	for i, f := range fs {
		ss[i] = string(f.a) + f.op.String() + string(f.b)
	}
	sort.Strings(ss)
	return strings.Join(ss, ";")
}

// graph is the order graph of a fact set.
type graph struct {
	edges map[term][]edge
	ne    map[[2]term]bool
}

type edge struct {
	to     term
	strict bool
}

func (fs facts) graph() *graph {
	g := &graph{edges: make(map[term][]edge), ne: make(map[[2]term]bool)}
	var consts []term
	seen := make(map[term]bool)
	add := func(t term) {
		if t.isConst() && !seen[t] {
			seen[t] = true
			consts = append(consts, t)
		}
	}
	for _, f := range fs {
		add(f.a)
		add(f.b)
		switch f.op {
		case token.LSS:
			g.edges[f.a] = append(g.edges[f.a], edge{f.b, true})
		case token.LEQ:
			g.edges[f.a] = append(g.edges[f.a], edge{f.b, false})
		case token.EQL:
			g.edges[f.a] = append(g.edges[f.a], edge{f.b, false})
			g.edges[f.b] = append(g.edges[f.b], edge{f.a, false})
		case token.NEQ:
			g.ne[[2]term{f.a, f.b}] = true
			g.ne[[2]term{f.b, f.a}] = true
		}
	}
	// Order the constants that occur.
	sort.Slice(consts, func(i, j int) bool { return constLess(consts[i], consts[j]) })
	for i := 1; i < len(consts); i++ {
		if constLess(consts[i-1], consts[i]) {
			g.edges[consts[i-1]] = append(g.edges[consts[i-1]], edge{consts[i], true})
		}
	}
	return g
}

func constValue(t term) constant.Value {
	s := string(t)[2:]
	switch s {
	case "true":
		return constant.MakeBool(true)
	case "false":
		return constant.MakeBool(false)
	}
	neg := strings.HasPrefix(s, "-")
	v := constant.MakeFromLiteral(strings.TrimPrefix(s, "-"), token.INT, 0)
	if neg {
		v = constant.UnaryOp(token.SUB, v, 0)
	}
	return v
}

func constLess(a, b term) bool {
	va, vb := constValue(a), constValue(b)
	if va.Kind() != constant.Int || vb.Kind() != constant.Int {
		return false
	}
	return constant.Compare(va, token.LSS, vb)
}

// reach returns, for every term reachable from a along <= and < edges,
// whether some path to it is strict.
func (g *graph) reach(a term) map[term]bool {
	best := map[term]bool{}
	type item struct {
		t      term
		strict bool
	}
	queue := []item{{a, false}}
	visited := map[item]bool{}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if visited[it] {
			continue
		}
		visited[it] = true
		for _, e := range g.edges[it.t] {
			s := it.strict || e.strict
			if prev, ok := best[e.to]; !ok || s && !prev {
				best[e.to] = s
			}
			queue = append(queue, item{e.to, s})
		}
	}
	return best
}

// cmp says what fs imply about a compared with b.
func (fs facts) cmp(a, b term) rel {
	if a == b {
		return relEQ
	}
	if a.isConst() && b.isConst() {
		va, vb := constValue(a), constValue(b)
		if va.Kind() == vb.Kind() && va.Kind() == constant.Int {
			switch {
			case constant.Compare(va, token.LSS, vb):
				return relLT
			case constant.Compare(va, token.GTR, vb):
				return relGT
			}
			return relEQ
		}
		if constant.Compare(va, token.EQL, vb) {
			return relEQ
		}
		return relNE
	}
	g := fs.graph()
	ra, rb := g.reach(a), g.reach(b)
	sab, ab := ra[b]
	sba, ba := rb[a]
	ne := g.ne[[2]term{a, b}]
	switch {
	case ab && (sab || ne):
		return relLT
	case ba && (sba || ne):
		return relGT
	case ab && ba:
		return relEQ
	case ab:
		return relLE
	case ba:
		return relGE
	case ne:
		return relNE
	}
	return relUnknown
}

// consistent reports whether fs can all hold at once.
func (fs facts) consistent() bool {
	g := fs.graph()
	for t := range g.edges {
		r := g.reach(t)
		if strict, ok := r[t]; ok && strict {
			return false
		}
	}
	for pair := range g.ne {
		if pair[0].isConst() && pair[1].isConst() {
			if constant.Compare(constValue(pair[0]), token.EQL, constValue(pair[1])) {
				return false
			}
			continue
		}
		r0, r1 := g.reach(pair[0]), g.reach(pair[1])
		if _, ok := r0[pair[1]]; ok {
			if _, ok := r1[pair[0]]; ok {
				return false
			}
		}
	}
	// Two distinct constants that are equal.
	for t := range g.edges {
		if !t.isConst() {
			continue
		}
		r := g.reach(t)
		for u := range r {
			if u.isConst() && u != t {
				if _, back := g.reach(u)[t]; back && !constant.Compare(constValue(t), token.EQL, constValue(u)) {
					return false
				}
			}
		}
	}
	return true
}

// withoutSub drops the facts whose terms contain sub.
func (fs facts) withoutSub(sub string) facts {
	var out facts
	for _, f := range fs {
		if !strings.Contains(string(f.a), sub) && !strings.Contains(string(f.b), sub) {
			out = append(out, f)
		}
	}
	return out
}
