package tagflow2

import (
	"unique"

	"go/constant"
	"go/token"
	"slices"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/ssa"
)

// maxConsts bounds a constant set: a variable that may hold more constants
// than this is unknown. Round enums have a handful of values.
const maxConsts = 6

// A constSet is the set of integer constants a value may be, or unknown.
// It is comparable, so that states compare with ==.
type constSet struct {
	known bool
	n     uint8
	v     [maxConsts]int64
}

var unknownConsts = constSet{}

func constsOf(vals ...int64) constSet {
	c := constSet{known: true}
	for _, x := range vals {
		c = c.add(x)
	}
	return c
}

func (c constSet) values() []int64 { return c.v[:c.n] }

func (c constSet) add(x int64) constSet {
	if !c.known {
		return c
	}
	if slices.Contains(c.values(), x) {
		return c
	}
	if int(c.n) == maxConsts {
		return unknownConsts
	}
	c.v[c.n] = x
	c.n++
	slices.Sort(c.v[:c.n])
	return c
}

func (c constSet) union(d constSet) constSet {
	if !c.known || !d.known {
		return unknownConsts
	}
	for _, x := range d.values() {
		c = c.add(x)
	}
	return c
}

// intersect is the set of the values both c and d may be.
func (c constSet) intersect(d constSet) constSet {
	switch {
	case !c.known:
		return d
	case !d.known:
		return c
	}
	return c.filter(func(x int64) bool { return slices.Contains(d.values(), x) })
}

// filter keeps the values x of c for which keep(x) holds.
func (c constSet) filter(keep func(int64) bool) constSet {
	if !c.known {
		return c
	}
	out := constSet{known: true}
	for _, x := range c.values() {
		if keep(x) {
			out = out.add(x)
		}
	}
	return out
}

// shift adds d to every value.
func (c constSet) shift(d int64) constSet {
	if !c.known {
		return c
	}
	out := constSet{known: true}
	for _, x := range c.values() {
		out = out.add(x + d)
	}
	return out
}

// compConsts are the constant sets of a tuple's components, interned: a
// term holds a handle (one word, comparable, equal exactly when the sets
// are) rather than the tuple of sets, since states copy every term. The
// zero compConsts has every component unknown.
type compConsts struct {
	h unique.Handle[[lexrel.MaxK]constSet]
}

func makeCompConsts(c [lexrel.MaxK]constSet) compConsts {
	if c == ([lexrel.MaxK]constSet{}) {
		return compConsts{}
	}
	return compConsts{unique.Make(c)}
}

// all are the sets of every component.
func (cc compConsts) all() [lexrel.MaxK]constSet {
	if cc == (compConsts{}) {
		return [lexrel.MaxK]constSet{}
	}
	return cc.h.Value()
}

// at is the set of component i.
func (cc compConsts) at(i int) constSet { return cc.all()[i] }

// with is cc with component i's set c.
func (cc compConsts) with(i int, c constSet) compConsts {
	a := cc.all()
	if a[i] == c {
		return cc
	}
	a[i] = c
	return makeCompConsts(a)
}

func cmpRel(a, b int64) lexrel.Rel {
	switch {
	case a < b:
		return lexrel.LT
	case a == b:
		return lexrel.EQ
	}
	return lexrel.GT
}

// constRel is the relation of a value in c to one in d; Any when either is
// unknown.
func constRel(c, d constSet) lexrel.Rel {
	if !c.known || !d.known {
		return lexrel.Any
	}
	var r lexrel.Rel
	for _, x := range c.values() {
		for _, y := range d.values() {
			r |= cmpRel(x, y)
		}
	}
	return r
}

func int64Const(c *ssa.Const) (int64, bool) {
	if c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// A termKind says what a term is the value of.
type termKind uint8

const (
	scalarTerm     termKind = iota + 1 // an integer compared as one tag component
	messageTerm                        // a message: its tag is the mapped components
	collectionTerm                     // a slice, array or map of messages: rel holds for every element
)

// A term is a value the analysis relates to the current tag: a message, a
// collection of messages, or an integer that is (or is compared with) a
// tag component. Terms are values: states copy them.
type term struct {
	kind termKind
	// rel is the relation of the term's tag (of each element's, for a
	// collection) to the current tag. For a scalar, only component comp
	// means something. An empty rel is an empty collection, or an
	// unreachable value.
	rel lexrel.Set
	// consts are the constants each component may be, where known.
	consts compConsts
	comp   int8             // scalarTerm: the component
	msg    *annotations.Msg // messageTerm, collectionTerm
	// recv marks a received message, a collection holding received
	// messages, or an integer read from a received message's data.
	recv bool
	// direct marks the message just received, and a collection it was
	// just added to, until the next communication point: what a store
	// then writes is the reception's write, which condition III is
	// about. A message read back from a mailbox later is not direct:
	// using it updates the state after the reception.
	direct bool
	// envField is, for a received envelope (a struct carrying a message
	// in one field), the index of that field plus one; 0 otherwise.
	// Selecting it gives the message.
	envField int8
	// approx marks a relation that over-approximates: some of its vectors
	// may be realised by no execution (the value came from code the
	// analysis does not follow, a join with an unknown content, a test it
	// cannot interpret). A relation without it is exact: each vector is
	// realised on some path, given that data tests unrelated to tags can
	// go either way and that a message of any round may arrive. Only an
	// exact relation's bad vectors are violations.
	approx bool
	// unset are the components of a message variable not assigned since
	// it was declared (a zero value); the message is exact once each is.
	unset uint8
	// fresh are the integer components of a received message that no
	// test or assignment has touched since it arrived: the network may
	// deliver any value there, so a first test against an integer of
	// known relation to the tag leaves every relation realised that some
	// value on the right side of it has (see realisedBy), even when the
	// test's other side is not the tag itself.
	fresh uint8
	// kindFree are the components of a handler's message that the
	// message carries in a field of the round's enum (its kind) and that
	// the driver may choose: a handler per kind (OnPromise) is called
	// with one kind only, so the vectors of those components are not all
	// realised. A violation rests only on vectors decided before them
	// (see claimable).
	kindFree uint8
	// loose are the components whose relation over-approximates: one
	// narrowed by a constant the tag's component is only assumed to hold
	// (one of its enum's, at an entry nothing set it before), or mapped
	// to several relations by a change of the tag (a later round's
	// message after round++). Vectors decided before them are still
	// realised (see claimable); a test of a loose component may keep
	// unrealised vectors only, and makes the relation inexact.
	loose uint8
	// geq are the bounds an integer (a scalar term) is known to be at
	// or above (see bounds.go).
	geq bounds
	// from is, for a message read out of a collection, the collection's
	// key: an integer at least its component is at least that element.
	from termKey
	// single marks a collection that holds at most one element (empty
	// when made, one append since): reading an element reads them all,
	// so a jump to the element's tag leaves none above it.
	single bool
	// at is where a received message was received (the receive call);
	// findings of condition III and IV point back to it.
	at token.Pos
}

func (t term) join(u term) term {
	t.rel = t.rel.Union(u.rel)
	if t.consts != u.consts {
		var c [lexrel.MaxK]constSet
		for i := range c {
			c[i] = t.consts.at(i).union(u.consts.at(i))
		}
		t.consts = makeCompConsts(c)
	}
	t.recv = t.recv || u.recv
	t.direct = t.direct || u.direct
	t.approx = t.approx || u.approx
	t.unset |= u.unset
	t.fresh &= u.fresh
	t.kindFree |= u.kindFree
	t.loose |= u.loose
	t.single = t.single && u.single
	t.geq = t.geq.meet(u.geq)
	if t.from != u.from {
		t.from = termKey{}
	}
	if t.at == token.NoPos || (u.at != token.NoPos && u.at < t.at) {
		t.at = u.at
	}
	if t.msg == nil {
		t.msg = u.msg
	}
	return t
}

// inexact reports whether the term's relation may hold vectors no
// execution realises.
func (t term) inexact() bool { return t.approx || t.unset != 0 }

// claimable is the part of the bad vectors of t that a violation can
// rest on: none if t's relation over-approximates; else, if the driver
// chooses a kind component or a component's relation rests on an
// assumed constant, those decided (at their first component not equal)
// before it: a message of an earlier view is one whatever its kind.
func (t term) claimable(bad lexrel.Set) lexrel.Set {
	if t.inexact() {
		return lexrel.Empty(bad.K())
	}
	loose := t.kindFree | t.loose
	if loose == 0 {
		return bad
	}
	k := bad.K()
	decided := lexrel.Empty(k)
	for j := 0; j < k && loose&(1<<j) == 0; j++ {
		d := lexrel.Top(k)
		for i := range j {
			d = d.Restrict(i, lexrel.EQ)
		}
		decided = decided.Union(d.Restrict(j, lexrel.LT|lexrel.GT))
	}
	return bad.Intersect(decided)
}

// freshAt reports whether component i of t is still any value the
// network may deliver.
func (t term) freshAt(i int) bool {
	return i >= 0 && t.fresh&(1<<i) != 0 && t.rel.Component(i) == lexrel.Any && !t.inexact()
}

// A loc is a memory location: a base (an Alloc, a Global, or a Parameter
// or FreeVar standing for the object it points to) and a path of field
// indices (and "[]" for every element).
type loc struct {
	base ssa.Value
	path string
}

// A termKey names a term: the register that made it, or the memory
// location whose content it is.
type termKey struct {
	reg ssa.Value
	loc loc
}

func regKey(v ssa.Value) termKey { return termKey{reg: v} }
func locKey(l loc) termKey       { return termKey{loc: l} }

// Components of a ref beyond the tag's.
const (
	wholeComp int8 = -1 // the whole message or collection
	dataComp  int8 = -2 // a field of a message that is not part of its tag
	elemComp  int8 = -3 // an element of a collection (an address only)
	partComp  int8 = -4 // a field holding tag components (m.Hdr of m.Hdr.View): tag data, not plain data
)

// A ref is what a register holds, as far as the tag is concerned: a term,
// or one component of one.
type ref struct {
	key  termKey
	comp int8
	// sub is, for comp == partComp, the message's field holding tag
	// components that the value is (m.Hdr): selecting from it (h.View,
	// in a helper it was handed to) selects from the message.
	sub int8
}
