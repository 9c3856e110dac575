// Package lexrel is the relational domain of ccvet's second tag dataflow:
// what is known of the order between two tag tuples of k integer
// components (k ≤ 4), such as the current tag and a received message's
// tag, or the tag now and at the last communication point.
//
// An element is a set of component-wise relation vectors in {<,=,>}^k:
// the vectors the pair of tuples may be in. The four conditions are
// statements about the lexicographic order, which is a function of the
// vector, so every boolean combination of component comparisons is
// represented exactly (a filter m.B < b || (m.B == b && m.S < s) removes
// vectors), and the join of two paths is plain set union: only the
// correlation between different pairs is lost at a join, never a
// disjunction of one pair. With at most 81 vectors an element is a
// 128-bit set, so the lattice is finite and a fixpoint needs no widening.
package lexrel

import (
	"fmt"
	"math/bits"
	"strings"
)

// MaxK is the largest number of components a tuple may have.
const MaxK = 4

// Rel is a set of relations between two integers a and b: a subset of
// {a<b, a=b, a>b}.
type Rel uint8

// The relations, and their unions used most.
const (
	LT  Rel = 1 << iota // a < b
	EQ                  // a = b
	GT                  // a > b
	LE  = LT | EQ
	GE  = GT | EQ
	NE  = LT | GT
	Any = LT | EQ | GT
)

// Inverse is the relation of b to a.
func (r Rel) Inverse() Rel {
	return r&EQ | (r&LT)<<2 | (r&GT)>>2
}

func (r Rel) String() string {
	switch r {
	case 0:
		return "∅"
	case LT:
		return "<"
	case EQ:
		return "="
	case GT:
		return ">"
	case LE:
		return "≤"
	case GE:
		return "≥"
	case NE:
		return "≠"
	}
	return "?"
}

// comp are the relation codes of one component of a vector: 0 <, 1 =, 2 >.
func relOf(code int) Rel { return Rel(1) << code }

var pow3 = [MaxK + 1]int{1, 3, 9, 27, 81}

// A Set is a set of relation vectors between two k-component tuples a and
// b. The zero Set is the empty set of 0-component tuples; use Top or
// Empty to make one of k components.
type Set struct {
	k    uint8
	bits [2]uint64
}

// Empty is the set of no vector: the pair of tuples is unreachable.
func Empty(k int) Set {
	if k < 0 || k > MaxK {
		panic(fmt.Sprintf("lexrel: %d components (at most %d)", k, MaxK))
	}
	return Set{k: uint8(k)}
}

// Top is the set of every vector: nothing is known.
func Top(k int) Set {
	s := Empty(k)
	for v := range pow3[k] {
		s.add(v)
	}
	return s
}

// Of is the set of the vectors whose component i is in rels[i]: the
// product of independent component relations.
func Of(rels ...Rel) Set {
	s := Top(len(rels))
	for i, r := range rels {
		s = s.Restrict(i, r)
	}
	return s
}

// K is the number of components.
func (s Set) K() int { return int(s.k) }

func (s *Set) add(v int)             { s.bits[v>>6] |= 1 << (v & 63) }
func (s Set) component(v, i int) int { return v / pow3[i] % 3 }

// vectors calls f with each vector of s.
func (s Set) vectors(f func(v int)) {
	for w, word := range s.bits {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << b
			f(w*64 + b)
		}
	}
}

// IsEmpty reports whether no vector is possible.
func (s Set) IsEmpty() bool { return s.bits == [2]uint64{} }

// Len is the number of vectors.
func (s Set) Len() int { return bits.OnesCount64(s.bits[0]) + bits.OnesCount64(s.bits[1]) }

// Equal reports whether s and t are the same set.
func (s Set) Equal(t Set) bool { return s == t }

func (s Set) same(t Set) {
	if s.k != t.k {
		panic(fmt.Sprintf("lexrel: sets of %d and %d components", s.k, t.k))
	}
}

// Union is the join: the vectors of either.
func (s Set) Union(t Set) Set {
	s.same(t)
	return Set{s.k, [2]uint64{s.bits[0] | t.bits[0], s.bits[1] | t.bits[1]}}
}

// Intersect is the meet: the vectors of both.
func (s Set) Intersect(t Set) Set {
	s.same(t)
	return Set{s.k, [2]uint64{s.bits[0] & t.bits[0], s.bits[1] & t.bits[1]}}
}

// Minus is the vectors of s that are not in t.
func (s Set) Minus(t Set) Set {
	s.same(t)
	return Set{s.k, [2]uint64{s.bits[0] &^ t.bits[0], s.bits[1] &^ t.bits[1]}}
}

// Subset reports whether every vector of s is in t.
func (s Set) Subset(t Set) bool { return s.Union(t) == t }

// Restrict keeps the vectors whose component i is in r: what a test
// a_i r b_i that held leaves.
func (s Set) Restrict(i int, r Rel) Set {
	out := Empty(s.K())
	s.vectors(func(v int) {
		if relOf(s.component(v, i))&r != 0 {
			out.add(v)
		}
	})
	return out
}

// Component is the set of relations component i may be in.
func (s Set) Component(i int) Rel {
	var r Rel
	s.vectors(func(v int) { r |= relOf(s.component(v, i)) })
	return r
}

// lex is the lexicographic relation of one vector: its first component
// that is not =, or = if all are.
func (s Set) lex(v int) Rel {
	for i := range s.K() {
		if c := s.component(v, i); c != 1 {
			return relOf(c)
		}
	}
	return EQ
}

// Lex is the set of lexicographic relations between a and b that s
// allows.
func (s Set) Lex() Rel {
	var r Rel
	s.vectors(func(v int) { r |= s.lex(v) })
	return r
}

// RestrictLex keeps the vectors whose lexicographic relation is in r: what
// a lexicographic test that held leaves.
func (s Set) RestrictLex(r Rel) Set {
	out := Empty(s.K())
	s.vectors(func(v int) {
		if s.lex(v)&r != 0 {
			out.add(v)
		}
	})
	return out
}

// Inverse is the relation of b to a.
func (s Set) Inverse() Set {
	out := Empty(s.K())
	s.vectors(func(v int) {
		w := 0
		for i := range s.K() {
			w += (2 - s.component(v, i)) * pow3[i]
		}
		out.add(w)
	})
	return out
}

// composeRel composes two component relations: from a r b and b q c, the
// relations a may have to c, over the integers (or any dense or discrete
// total order without end points).
func composeRel(r, q Rel) Rel {
	var out Rel
	for _, x := range [...]Rel{LT, EQ, GT} {
		if r&x == 0 {
			continue
		}
		for _, y := range [...]Rel{LT, EQ, GT} {
			if q&y == 0 {
				continue
			}
			switch {
			case x == EQ:
				out |= y
			case y == EQ || x == y:
				out |= x
			default:
				out |= Any
			}
		}
	}
	return out
}

// Compose is the relation of a to c given s, the relation of a to b, and
// t, the relation of b to c. It is exact for vectors taken one by one: a
// vector is in the result if some integers realise it through some b.
func (s Set) Compose(t Set) Set {
	s.same(t)
	table := composeTables[s.k]
	out := Empty(s.K())
	s.vectors(func(v int) {
		row := table[v]
		t.vectors(func(w int) {
			out.bits[0] |= row[w].bits[0]
			out.bits[1] |= row[w].bits[1]
		})
	})
	return out
}

// ComposeOn composes s and t (s relating a to b, t relating b to c) on
// the components in mask only; on the others the result keeps s's
// component (keepLeft) or t's. It is the update of a jump that sets the
// components in mask of one tuple to those of another together: the
// vectors of s are taken whole, so that how a message's components relate
// to the tag together (a later view, or the same view and a later op) is
// kept through the jump.
func (s Set) ComposeOn(t Set, mask uint, keepLeft bool) Set {
	s.same(t)
	k := s.K()
	out := Empty(k)
	s.vectors(func(v int) {
		t.vectors(func(w int) {
			part := Top(k)
			for i := range k {
				cv, cw := relOf(s.component(v, i)), relOf(t.component(w, i))
				switch {
				case mask&(1<<i) != 0:
					part = part.Restrict(i, composeRel(cv, cw))
				case keepLeft:
					part = part.Restrict(i, cv)
				default:
					part = part.Restrict(i, cw)
				}
			}
			out = out.Union(part)
		})
	})
	return out
}

// composeTables[k][v][w] is the composition of the single vectors v and w
// of k components: the product of their component compositions.
var composeTables = func() (tables [MaxK + 1][][]Set) {
	for k := 0; k <= MaxK; k++ {
		n := pow3[k]
		tables[k] = make([][]Set, n)
		for v := range n {
			tables[k][v] = make([]Set, n)
			for w := range n {
				prod := Top(k)
				for i := range k {
					cv, cw := v/pow3[i]%3, w/pow3[i]%3
					prod = prod.Restrict(i, composeRel(relOf(cv), relOf(cw)))
				}
				tables[k][v][w] = prod
			}
		}
	}
	return tables
}()

// MapComponent replaces component i of each vector by f of it: the
// effect on the pair of an update of a_i whose new relation to b_i is
// f of the old one (see Increment).
func (s Set) MapComponent(i int, f func(Rel) Rel) Set {
	out := Empty(s.K())
	s.vectors(func(v int) {
		c := s.component(v, i)
		base := v - c*pow3[i]
		r := f(relOf(c))
		for d := range 3 {
			if r&relOf(d) != 0 {
				out.add(base + d*pow3[i])
			}
		}
	})
	return out
}

// Increment is the relation after a_i++ over the integers: < becomes < or
// =, = and > become >.
func (s Set) Increment(i int) Set { return s.MapComponent(i, incrementRel) }

// Decrement is the relation after a_i--.
func (s Set) Decrement(i int) Set {
	return s.MapComponent(i, func(r Rel) Rel { return incrementRel(r.Inverse()).Inverse() })
}

func incrementRel(r Rel) Rel {
	var out Rel
	if r&LT != 0 {
		out |= LE
	}
	if r&GE != 0 {
		out |= GT
	}
	return out
}

// Assign is the relation after a_i is set to a value whose relation to
// b_i is r, independently of the other components.
func (s Set) Assign(i int, r Rel) Set {
	return s.MapComponent(i, func(Rel) Rel { return r })
}

func (s Set) String() string {
	if s.IsEmpty() {
		return "∅"
	}
	var parts []string
	s.vectors(func(v int) {
		var b strings.Builder
		for i := range s.K() {
			b.WriteString(relOf(s.component(v, i)).String())
		}
		parts = append(parts, b.String())
	})
	return "{" + strings.Join(parts, " ") + "}"
}
