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
	// Integers by value, then the others by name: a strict weak order, so
	// the chain below does not depend on the order of the facts.
	sort.Slice(consts, func(i, j int) bool {
		a, b := consts[i], consts[j]
		ai, bi := constValue(a).Kind() == constant.Int, constValue(b).Kind() == constant.Int
		if ai && bi {
			return constLess(a, b)
		}
		if ai != bi {
			return ai
		}
		return a < b
	})
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
	if a == b || a.isConst() && b.isConst() {
		return constCmp(a, b)
	}
	return fs.solve().cmp(a, b)
}

// constCmp compares two constants, or a term with itself.
func constCmp(a, b term) rel {
	if a == b {
		return relEQ
	}
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
	if va.Kind() == vb.Kind() && constant.Compare(va, token.EQL, vb) {
		return relEQ
	}
	return relNE // constants of different kinds are never the same value
}

// A solver answers many queries about one fact set: it builds the order
// graph once and remembers what is reachable from each term it was asked
// about, so that n queries cost n searches instead of n graph builds.
type solver struct {
	g     *graph
	reach map[term]map[term]bool
}

func (fs facts) solve() *solver {
	return &solver{g: fs.graph(), reach: make(map[term]map[term]bool)}
}

func (s *solver) from(a term) map[term]bool {
	r, ok := s.reach[a]
	if !ok {
		r = s.g.reach(a)
		s.reach[a] = r
	}
	return r
}

// cmp says what the solver's facts imply about a compared with b.
func (s *solver) cmp(a, b term) rel {
	if a == b || a.isConst() && b.isConst() {
		return constCmp(a, b)
	}
	sab, ab := s.from(a)[b]
	sba, ba := s.from(b)[a]
	ne := s.g.ne[[2]term{a, b}]
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

// consistent reports whether fs can all hold at once: no strict edge, no
// != pair and no two distinct constants inside one strongly connected
// component of the order graph (a component's terms are all equal). One
// Tarjan pass, linear in the size of the graph.
func (fs facts) consistent() bool {
	g := fs.graph()
	comp := g.components()
	for t, es := range g.edges {
		for _, e := range es {
			if e.strict && comp[t] == comp[e.to] {
				return false
			}
		}
	}
	for pair := range g.ne {
		if pair[0] == pair[1] {
			return false
		}
		c0, ok0 := comp[pair[0]]
		c1, ok1 := comp[pair[1]]
		if ok0 && ok1 && c0 == c1 {
			return false
		}
		if pair[0].isConst() && pair[1].isConst() && constCmp(pair[0], pair[1]) == relEQ {
			return false
		}
	}
	constOf := make(map[int]term)
	for t, c := range comp {
		if !t.isConst() {
			continue
		}
		if u, ok := constOf[c]; ok && constCmp(t, u) != relEQ {
			return false
		}
		constOf[c] = t
	}
	return true
}

// components numbers the strongly connected components of g's edges
// (Tarjan's algorithm, iterative so that long chains cannot overflow the
// stack).
func (g *graph) components() map[term]int {
	index := make(map[term]int)
	low := make(map[term]int)
	onStack := make(map[term]bool)
	comp := make(map[term]int)
	var stack []term
	next, ncomp := 0, 0
	type frame struct {
		t term
		i int
	}
	var nodes []term
	for t, es := range g.edges {
		nodes = append(nodes, t)
		for _, e := range es {
			nodes = append(nodes, e.to)
		}
	}
	for _, root := range nodes {
		if _, ok := index[root]; ok {
			continue
		}
		work := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(work) > 0 {
			f := &work[len(work)-1]
			if es := g.edges[f.t]; f.i < len(es) {
				w := es[f.i].to
				f.i++
				if _, ok := index[w]; !ok {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					work = append(work, frame{w, 0})
				} else if onStack[w] && index[w] < low[f.t] {
					low[f.t] = index[w]
				}
				continue
			}
			t := f.t
			work = work[:len(work)-1]
			if len(work) > 0 {
				if p := work[len(work)-1].t; low[t] < low[p] {
					low[p] = low[t]
				}
			}
			if low[t] == index[t] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = ncomp
					if w == t {
						break
					}
				}
				ncomp++
			}
		}
	}
	return comp
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
