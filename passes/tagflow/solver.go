package tagflow

import (
	"go/constant"
	"go/token"
	"slices"
	"sort"
	"strings"
	"sync"
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
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '.', '[', '#':
			return s[:i]
		}
	}
	return s
}

// root is the value whose memory the term names (the term itself when it
// names no memory): its prefix up to the first selection or dereference,
// the whole name of an inlined frame's value ("0.7/v14#0*.1" is rooted at
// "0.7/v14#0", where base cuts at the frame's dot, "0"). Memory below a
// helper's pointer parameter is found by it: cut at the dot, every value of
// every inlined frame seemed to lie below the parameter.
func (t term) root() string {
	s := string(t)
	if t.isConst() {
		return s
	}
	start := 0
	if len(s) > 0 && s[0] >= '0' && s[0] <= '9' {
		start = strings.IndexByte(s, '/') + 1
	}
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '*', '.', '[':
			return s[:i]
		}
	}
	return s
}

// value is the SSA value or synthetic name the term is rooted at, like
// base, but a value of an inlined frame ("0.51/v17.2") keeps its whole
// name: the frame's context has dots of its own, one per inlined call,
// which select no field. base cuts such names at the first dot, which the
// projection relies on to keep what callees established for the rest of
// the loop's body (see forgetFrame for why value is needed there).
func (t term) value() string {
	s := string(t)
	if t.isConst() || len(s) == 0 || s[0] < '0' || s[0] > '9' {
		return t.base()
	}
	start := strings.IndexByte(s, '/') + 1
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '*', '.', '[', '#':
			return s[:i]
		}
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

// withoutValue drops the facts about value v (see term.value).
func (fs facts) withoutValue(v string) facts {
	var out facts
	for _, f := range fs {
		if f.a.value() != v && f.b.value() != v {
			out = append(out, f)
		}
	}
	return out
}

// renameValue replaces every term rooted at value from by the same term
// rooted at to.
func (fs facts) renameValue(from, to string) facts {
	out := make(facts, 0, len(fs))
	for _, f := range fs {
		out = append(out, mkFact(renameValue(f.a, from, to), f.op, renameValue(f.b, from, to)))
	}
	return out
}

// renameValue is renameTerm by value (see term.value).
func renameValue(t term, from, to string) term {
	if t.value() == from {
		return term(to + string(t)[len(from):])
	}
	return t
}

func renameTerm(t term, from, to string) term {
	if t.base() == from {
		return term(to + string(t)[len(from):])
	}
	return t
}

func (fs facts) key() string {
	var b strings.Builder
	fs.writeKey(&b)
	return b.String()
}

// sortBufs recycles writeKey's copies of fact sets.
var sortBufs = sync.Pool{New: func() any { return new(facts) }}

// writeKey writes the facts in a canonical order, so that two fact sets
// have the same key exactly when they hold the same facts.
func (fs facts) writeKey(b *strings.Builder) {
	buf := sortBufs.Get().(*facts)
	sorted := append((*buf)[:0], fs...)
	defer func() {
		clear(sorted)
		*buf = sorted[:0]
		sortBufs.Put(buf)
	}()
	slices.SortFunc(sorted, func(f, g fact) int {
		if c := strings.Compare(string(f.a), string(g.a)); c != 0 {
			return c
		}
		if c := strings.Compare(string(f.b), string(g.b)); c != 0 {
			return c
		}
		return int(f.op) - int(g.op)
	})
	n := 0
	for _, f := range sorted {
		n += len(f.a) + len(f.b) + 3
	}
	b.Grow(n)
	for i, f := range sorted {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(string(f.a))
		b.WriteString(f.op.String())
		b.WriteString(string(f.b))
	}
}

// graph is the order graph of a fact set. Its nodes are the terms of the
// facts, numbered in order of first occurrence; the edges are stored
// compactly by source (out[i] are the edges of node i), so that building
// and searching the graph allocates a handful of slices instead of a map
// entry per term and per search step. Both run for every fact added and
// every state projected, which is most of the engine's work.
type graph struct {
	terms []term
	index map[term]int32
	// out[i] is edges[start[i]:start[i+1]].
	start []int32
	edges []edge
	// ne holds both orders of each != pair.
	ne  map[[2]int32]bool
	raw []rawEdge
	// Scratch space of the searches.
	visited []bool
	stack   []int32
	scc     []int32
	work    []sccFrame
	vals    []constant.Value
}

// sccFrame is a node being visited by components, and its next edge.
type sccFrame struct {
	t int32
	i int32
}

// graphs recycles graphs, maps and slices included: fact sets are small
// (a few dozen terms) but their graphs are built tens of thousands of
// times per loop, and allocating them anew was a third of the engine's
// time, in the allocator and the collector.
var graphs = sync.Pool{New: func() any { return &graph{index: make(map[term]int32)} }}

// maxPooled bounds the size of the graphs kept for reuse: clearing a map
// costs its capacity, and one large graph must not slow every small one.
const maxPooled = 256

// release returns g to the pool; g must not be used after.
func (g *graph) release() {
	if len(g.terms) > maxPooled {
		return
	}
	clear(g.index)
	clear(g.ne)
	clear(g.terms) // drop the references to the terms' strings
	clear(g.vals)
	g.terms = g.terms[:0]
	graphs.Put(g)
}

type edge struct {
	to     int32
	strict bool
}

type rawEdge struct {
	from int32
	edge
}

func (g *graph) out(i int32) []edge { return g.edges[g.start[i]:g.start[i+1]] }

// node returns the index of term t, or -1 when t is in no fact.
func (g *graph) node(t term) int32 {
	if i, ok := g.index[t]; ok {
		return i
	}
	return -1
}

// graph builds the order graph of fs, with nodes for the constants among
// extra too (ordered with the others). The caller releases it.
func (fs facts) graph(extra ...term) *graph {
	g := graphs.Get().(*graph)
	var consts []int32
	node := func(t term) int32 {
		if i, ok := g.index[t]; ok {
			return i
		}
		i := int32(len(g.terms))
		g.index[t] = i
		g.terms = append(g.terms, t)
		if t.isConst() {
			consts = append(consts, i)
		}
		return i
	}
	raw := g.raw[:0]
	for _, f := range fs {
		a, b := node(f.a), node(f.b)
		switch f.op {
		case token.LSS:
			raw = append(raw, rawEdge{a, edge{b, true}})
		case token.LEQ:
			raw = append(raw, rawEdge{a, edge{b, false}})
		case token.EQL:
			raw = append(raw, rawEdge{a, edge{b, false}}, rawEdge{b, edge{a, false}})
		case token.NEQ:
			if g.ne == nil {
				g.ne = make(map[[2]int32]bool)
			}
			g.ne[[2]int32{a, b}] = true
			g.ne[[2]int32{b, a}] = true
		}
	}
	for _, t := range extra {
		if t.isConst() {
			node(t)
		}
	}
	// Order the constants that occur.
	// Integers by value, then the others by name: a strict weak order, so
	// the chain below does not depend on the order of the facts.
	if len(consts) > 1 {
		vals := resize(g.vals, len(g.terms))
		g.vals = vals
		for _, c := range consts {
			vals[c] = constValue(g.terms[c])
		}
		isInt := func(c int32) bool { return vals[c].Kind() == constant.Int }
		less := func(a, b int32) bool {
			return isInt(a) && isInt(b) && constant.Compare(vals[a], token.LSS, vals[b])
		}
		sort.Slice(consts, func(i, j int) bool {
			a, b := consts[i], consts[j]
			ai, bi := isInt(a), isInt(b)
			if ai && bi {
				return less(a, b)
			}
			if ai != bi {
				return ai
			}
			return g.terms[a] < g.terms[b]
		})
		for i := 1; i < len(consts); i++ {
			if less(consts[i-1], consts[i]) {
				raw = append(raw, rawEdge{consts[i-1], edge{consts[i], true}})
			}
		}
	}
	g.raw = raw
	n := len(g.terms)
	g.start = resize(g.start, n+1)
	for _, r := range raw {
		g.start[r.from+1]++
	}
	for i := 1; i <= n; i++ {
		g.start[i] += g.start[i-1]
	}
	g.edges = resize(g.edges, len(raw))
	fill := resize(g.stack, n)
	copy(fill, g.start[:n])
	for _, r := range raw {
		g.edges[fill[r.from]] = r.edge
		fill[r.from]++
	}
	g.stack = fill
	return g
}

// resize returns a zeroed slice of length n, reusing s's array if it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// constValues caches constValue: a program has few constants, and each
// is parsed again for every graph it is in otherwise.
var constValues sync.Map // term -> constant.Value

func constValue(t term) constant.Value {
	if v, ok := constValues.Load(t); ok {
		return v.(constant.Value)
	}
	v := parseConst(t)
	constValues.Store(t, v)
	return v
}

func parseConst(t term) constant.Value {
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

// Reachability marks: what is known of the paths from a source to a node.
const (
	unreached     uint8 = iota
	reached             // by <= edges only
	reachedStrict       // by some path with a < edge
)

// reach fills out[i], for every node i reachable from a along <= and <
// edges (in one step or more: a itself only through a cycle), with whether
// some path to it is strict. out has one entry per node and is all
// unreached on entry.
func (g *graph) reach(a int32, out []uint8) {
	// The search visits (node, strict) pairs, encoded as 2*node+strict.
	visited := resize(g.visited, 2*len(g.terms))
	queue := append(g.stack[:0], 2*a)
	defer func() { g.visited, g.stack = visited, queue }()
	for len(queue) > 0 {
		it := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if visited[it] {
			continue
		}
		visited[it] = true
		for _, e := range g.out(it / 2) {
			s := it%2 == 1 || e.strict
			if s {
				out[e.to] = reachedStrict
				queue = append(queue, 2*e.to+1)
			} else {
				if out[e.to] == unreached {
					out[e.to] = reached
				}
				queue = append(queue, 2*e.to)
			}
		}
	}
}

// cmp says what fs imply about a compared with b.
func (fs facts) cmp(a, b term) rel {
	if a == b || a.isConst() && b.isConst() {
		return constCmp(a, b)
	}
	// A constant that no fact mentions is still ordered with those that
	// do: t == 0 implies t < 1.
	s := fs.solve(a, b)
	defer s.release()
	return s.cmp(a, b)
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
	g *graph
	// reach[i*n:(i+1)*n] is what is reachable from node i of n (see
	// graph.reach), once done[i].
	reach []uint8
	done  []bool
}

var solvers = sync.Pool{New: func() any { return new(solver) }}

// solve returns a solver for fs (see graph for extra). The caller
// releases it.
func (fs facts) solve(extra ...term) *solver {
	s := solvers.Get().(*solver)
	s.g = fs.graph(extra...)
	n := len(s.g.terms)
	s.reach = resize(s.reach, n*n)
	s.done = resize(s.done, n)
	return s
}

// release returns s and its graph to their pools; s must not be used
// after.
func (s *solver) release() {
	s.g.release()
	s.g = nil
	if len(s.done) <= maxPooled {
		solvers.Put(s)
	}
}

func (s *solver) from(i int32) []uint8 {
	n := int32(len(s.done))
	r := s.reach[i*n : (i+1)*n]
	if !s.done[i] {
		s.g.reach(i, r)
		s.done[i] = true
	}
	return r
}

// cmp says what the solver's facts imply about a compared with b.
func (s *solver) cmp(a, b term) rel {
	if a == b || a.isConst() && b.isConst() {
		return constCmp(a, b)
	}
	ia, ib := s.g.node(a), s.g.node(b)
	if ia < 0 || ib < 0 {
		return relUnknown // a term in no fact is related to nothing
	}
	return s.cmpNodes(ia, ib)
}

// cmpNodes is cmp for two distinct terms, not both constants, given by
// their nodes.
func (s *solver) cmpNodes(ia, ib int32) rel {
	rab, rba := s.from(ia)[ib], s.from(ib)[ia]
	ab, sab := rab != unreached, rab == reachedStrict
	ba, sba := rba != unreached, rba == reachedStrict
	ne := len(s.g.ne) > 0 && s.neNodes(ia, ib)
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

// neNodes reports whether the facts say a != b: a != fact between a term
// equal to a and a term equal to b (m.Term != t2, where t2 is a second
// load of the variable t1 == t2 that m.Term >= t1 is about).
func (s *solver) neNodes(ia, ib int32) bool {
	if s.g.ne[[2]int32{ia, ib}] {
		return true
	}
	eq := func(x, y int32) bool {
		return x == y || s.from(x)[y] != unreached && s.from(y)[x] != unreached
	}
	for p := range s.g.ne {
		if eq(p[0], ia) && eq(p[1], ib) {
			return true
		}
	}
	return false
}

// consistent reports whether fs can all hold at once: no strict edge, no
// != pair and no two distinct constants inside one strongly connected
// component of the order graph (a component's terms are all equal). One
// Tarjan pass, linear in the size of the graph.
func (fs facts) consistent() bool {
	g := fs.graph()
	defer g.release()
	comp := g.components()
	for i := range g.terms {
		for _, e := range g.out(int32(i)) {
			if e.strict && comp[i] == comp[e.to] {
				return false
			}
		}
	}
	for pair := range g.ne {
		if pair[0] == pair[1] || comp[pair[0]] == comp[pair[1]] {
			return false
		}
		if a, b := g.terms[pair[0]], g.terms[pair[1]]; a.isConst() && b.isConst() && constCmp(a, b) == relEQ {
			return false
		}
	}
	// The first constant of each component, +1 (0: none yet).
	var constOf []int32
	for i, t := range g.terms {
		if !t.isConst() {
			continue
		}
		if constOf == nil {
			constOf = make([]int32, len(g.terms))
		}
		c := comp[i]
		if u := constOf[c]; u > 0 && constCmp(t, g.terms[u-1]) != relEQ {
			return false
		}
		constOf[c] = int32(i) + 1
	}
	return true
}

// components numbers the strongly connected components of g's nodes
// (Tarjan's algorithm, iterative so that long chains cannot overflow the
// stack).
func (g *graph) components() []int32 {
	n := len(g.terms)
	g.scc = resize(g.scc, 3*n)
	index, low, comp := g.scc[:n], g.scc[n:2*n], g.scc[2*n:]
	for i := range index {
		index[i] = -1
	}
	onStack := resize(g.visited, n)
	stack := g.stack[:0]
	work := g.work[:0]
	defer func() { g.visited, g.stack, g.work = onStack, stack, work }()
	var next, ncomp int32
	for root := int32(0); root < int32(n); root++ {
		if index[root] >= 0 {
			continue
		}
		work = append(work[:0], sccFrame{root, 0})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(work) > 0 {
			f := &work[len(work)-1]
			if es := g.out(f.t); int(f.i) < len(es) {
				w := es[f.i].to
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					work = append(work, sccFrame{w, 0})
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
