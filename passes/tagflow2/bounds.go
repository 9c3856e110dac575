package tagflow2

import (
	"unique"

	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/ssa"
)

// Bounds are the relational part of the domain that the conditions need
// beyond each value's relation to the tag: that an integer is at least a
// message's component, or at least the component of every element of a
// collection. A max loop
//
//	hi := n.term
//	for _, rv := range reqs { hi = max(hi, rv.Term) }
//	n.term = hi
//
// leaves hi >= every element of reqs, by induction over the range loop
// (boundSeen holds at its head: hi is at least each element visited so
// far); the jump then leaves every element of reqs at or below the tag,
// so no later round's message is kept.

// A boundKind says what an integer is at least.
type boundKind uint8

const (
	boundWhole boundKind = iota + 1 // the component of one message
	boundElem                       // of the element of a collection read in this iteration of a range over it
	boundSeen                       // of every element a range over the collection has visited
	boundAll                        // of every element of the collection
)

// A bound is one fact: the integer is >= component comp of what key
// names, as kind says.
type bound struct {
	key  termKey
	kind boundKind
	comp int8
}

// maxBounds bounds the facts an integer carries.
const maxBounds = 6

// boundList is a small set of facts.
type boundList struct {
	n uint8
	b [maxBounds]bound
}

// bounds is a boundList, interned: terms are copied with every state, and
// most carry no bound, so a term holds a handle (one word, comparable, equal
// exactly when the lists are) rather than the list's 344 bytes. The zero
// bounds is the empty list.
type bounds struct {
	h unique.Handle[boundList]
}

func makeBounds(l boundList) bounds {
	if l.n == 0 {
		return bounds{}
	}
	return bounds{unique.Make(l)}
}

func (bs bounds) empty() bool { return bs == bounds{} }

func (bs bounds) list() []bound {
	if bs.empty() {
		return nil
	}
	l := bs.h.Value()
	return l.b[:l.n]
}

func (bs bounds) has(x bound) bool {
	for _, y := range bs.list() {
		if y == x {
			return true
		}
	}
	return false
}

func (bs bounds) add(x bound) bounds {
	var l boundList
	if !bs.empty() {
		l = bs.h.Value()
	}
	if bs.has(x) || int(l.n) == maxBounds {
		return bs
	}
	l.b[l.n] = x
	l.n++
	return makeBounds(l)
}

func (bs bounds) union(cs bounds) bounds {
	for _, x := range cs.list() {
		bs = bs.add(x)
	}
	return bs
}

// meet keeps the facts both hold: a fact holds after a join only if it
// holds on every path.
func (bs bounds) meet(cs bounds) bounds {
	var out bounds
	for _, x := range bs.list() {
		if cs.has(x) {
			out = out.add(x)
		}
	}
	return out
}

func (bs bounds) filter(keep func(bound) bool) bounds {
	var out bounds
	for _, x := range bs.list() {
		if keep(x) {
			out = out.add(x)
		}
	}
	return out
}

// boundOn is the fact "at least component comp of the term under key":
// of the element of the collection it was read from, if it was.
func boundOn(s *state, key termKey, comp int) (bound, bool) {
	t, ok := s.terms[key]
	if !ok || t.kind != messageTerm {
		return bound{}, false
	}
	if t.from != (termKey{}) {
		return bound{key: t.from, kind: boundElem, comp: int8(comp)}, true
	}
	return bound{key: key, kind: boundWhole, comp: int8(comp)}, true
}

// dropBoundsOn forgets every fact about the term under key: it is about to
// change (a new element, a new content).
func (s *state) dropBoundsOn(key termKey) {
	for i := range s.curGeq {
		s.curGeq[i] = s.curGeq[i].filter(func(x bound) bool { return x.key != key })
	}
	for k, t := range s.terms {
		if t.geq.empty() {
			continue
		}
		nb := t.geq.filter(func(x bound) bool { return x.key != key })
		if nb != t.geq {
			t.geq = nb
			s.setTerm(k, t)
		}
	}
}

// applyBounds restricts what the integer t is at least (every element of
// a collection, or a message) to be related to component i of the tag
// as rel (LE after the tag was set to t; LT or LE after a test showed t
// below or at the tag).
func (s *state) applyBounds(i int, t term, rel lexrel.Rel) {
	for _, x := range t.geq.list() {
		if int(x.comp) != i {
			continue
		}
		u, ok := s.terms[x.key]
		// At least the element read from a collection that holds at most
		// one is at least all of them.
		single := x.kind == boundElem && u.kind == collectionTerm && u.single
		if x.kind != boundAll && x.kind != boundWhole && !single {
			continue
		}
		if ok {
			u.rel = u.rel.Restrict(i, rel)
			s.setTerm(x.key, u)
		}
	}
}

// A rangeLoop is a range over a slice, array or map: its header and the
// register holding the collection.
type rangeLoop struct {
	header *ssa.BasicBlock
	coll   ssa.Value
	blocks map[*ssa.BasicBlock]bool
}

// rangeLoops finds the range loops of f by the blocks go/ssa builds for
// them (rangeindex.loop for slices and arrays, rangeiter.loop for maps).
func (la *loopAnalysis) rangeLoops(f *ssa.Function) map[*ssa.BasicBlock]*rangeLoop {
	if m, ok := la.ranges[f]; ok {
		return m
	}
	m := make(map[*ssa.BasicBlock]*rangeLoop)
	loops, ok := la.funcLoops[f]
	if !ok {
		loops = naturalLoops(f)
		la.funcLoops[f] = loops
	}
	for _, nl := range loops {
		h := nl.header
		if h.Comment != "rangeindex.loop" && h.Comment != "rangeiter.loop" {
			continue
		}
		var coll ssa.Value
		for b := range nl.blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.IndexAddr:
					if coll == nil && b.Comment == "rangeindex.body" {
						coll = in.X
					}
				case *ssa.Index:
					if coll == nil && b.Comment == "rangeindex.body" {
						coll = in.X
					}
				case *ssa.Next:
					if r, ok := in.Iter.(*ssa.Range); ok {
						coll = r.X
					}
				}
			}
		}
		if coll != nil {
			m[h] = &rangeLoop{header: h, coll: coll, blocks: nl.blocks}
		}
	}
	la.ranges[f] = m
	return m
}

// rangeEdge carries the induction of a range loop over the edge from →
// to: entering, every integer is at least every element visited (none
// yet); around, it stays so for an integer that is at least the element
// of this iteration too; leaving, it is at least every element.
func (la *loopAnalysis) rangeEdge(from, to *ssa.BasicBlock, s *state) *state {
	rl := la.rangeLoops(from.Parent())
	if r, ok := rl[to]; ok {
		c, ok := la.collectionRef(s, r.coll)
		if !ok {
			return s
		}
		s = s.clone()
		seen := func(comp int8) bound { return bound{key: c.key, kind: boundSeen, comp: comp} }
		elem := func(comp int8) bound { return bound{key: c.key, kind: boundElem, comp: comp} }
		for k, t := range s.terms {
			if t.kind != scalarTerm {
				continue
			}
			if !r.blocks[from] {
				t.geq = t.geq.add(seen(t.comp))
			} else if !t.geq.has(elem(t.comp)) {
				t.geq = t.geq.filter(func(x bound) bool { return x != seen(t.comp) })
			}
			t.geq = t.geq.filter(func(x bound) bool { return x != elem(t.comp) })
			s.setTerm(k, t)
		}
		// The tag's components, as integers (a max loop on the tag).
		for i := range s.k {
			g, ci := s.curGeq[i], int8(i)
			if !r.blocks[from] {
				g = g.add(seen(ci))
			} else if !g.has(elem(ci)) {
				g = g.filter(func(x bound) bool { return x != seen(ci) })
			}
			s.curGeq[i] = g.filter(func(x bound) bool { return x != elem(ci) })
		}
		return s
	}
	if r, ok := rl[from]; ok && !r.blocks[to] {
		c, ok := la.collectionRef(s, r.coll)
		if !ok {
			return s
		}
		s = s.clone()
		for k, t := range s.terms {
			if t.kind != scalarTerm || t.geq.empty() {
				continue
			}
			var nb bounds
			for _, x := range t.geq.list() {
				switch {
				case x.key == c.key && x.kind == boundSeen:
					nb = nb.add(bound{key: c.key, kind: boundAll, comp: x.comp})
				case x.key == c.key && x.kind == boundElem:
				default:
					nb = nb.add(x)
				}
			}
			t.geq = nb
			s.setTerm(k, t)
		}
		for i := range s.k {
			var nb bounds
			for _, x := range s.curGeq[i].list() {
				switch {
				case x.key == c.key && x.kind == boundSeen:
					nb = nb.add(bound{key: c.key, kind: boundAll, comp: x.comp})
				case x.key == c.key && x.kind == boundElem:
				default:
					nb = nb.add(x)
				}
			}
			s.curGeq[i] = nb
			// The tag at least every element: every element at or
			// below it.
			s.applyBounds(i, term{geq: nb}, lexrel.LE)
		}
		s.refineAll()
	}
	return s
}
