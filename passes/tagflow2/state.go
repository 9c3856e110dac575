package tagflow2

import (
	"go/constant"
	"go/token"
	"go/types"
	"maps"

	"github.com/ccvet/ccvet/internal/srcpos"
	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/ssa"
)

// A state is the abstract state at a program point: what the constants
// of the current tag may be, how the current tag relates to the tag at the
// last communication point, the terms (messages, collections, tag
// integers) and what each tracked register holds. A nil *state is bottom:
// the point is unreachable.
type state struct {
	k int
	// fset orders the positions of unknownAt (see srcpos).
	fset *token.FileSet
	// partMask has bit i set when component i partitions states (see
	// partKey).
	partMask uint8
	// cur are the constants each component of the current tag may be.
	cur [lexrel.MaxK]constSet
	// assumed has bit i set while cur[i] is only the assumption that a
	// Go enum holds one of its constants (at the entry), not something
	// the code established: what follows from it is not exact.
	assumed uint8
	// unknownAt is, per component, the position of a call that may have
	// changed it in a way the analysis does not see (the first such), for
	// "cannot prove" findings; NoPos when none did.
	unknownAt [lexrel.MaxK]token.Pos
	// curGeq is, per component, what the current tag's component is at
	// least (see bounds.go): after a max loop written on the tag itself
	// (for _, m := range reqs { if m.Term > p.term { p.term = m.Term } }),
	// every element of reqs.
	curGeq [lexrel.MaxK]bounds
	// last is the relation of the current tag to the tag at the last
	// communication point (or at the loop's entry).
	last lexrel.Set
	// lastApprox marks last as an over-approximation (see term.approx).
	lastApprox bool
	// split has, per component the entry state was split on (see
	// splitAssumed), bit j set when the partition of the j-th assumed
	// constant is joined in this state: a state that lacks some is
	// reached only if the constants it has are possible at the entry.
	split [lexrel.MaxK]uint8
	// terms is shared with the states cloned from this one, or it from,
	// until one of them writes it (copy on write): most clones change
	// few terms or none. Write it through setTerm and delTerm only.
	terms map[termKey]term
	// termsOwned says that no other state shares terms.
	termsOwned bool
	regs       map[ssa.Value]ref
	// pending are the mailboxes that got a message that may be of a later
	// round and that condition IV has not seen the process jump to: the
	// value is true when every path stored one (a must).
	pending map[termKey]bool
	// readPending are the pending mailboxes read since the message went
	// in: what the process does next may depend on it.
	readPending map[termKey]bool
	// owed has bit j set when the tag changed on a component the
	// messages of the handler's mailbox field j carry and the field has
	// not been emptied since; owedByMsg when that change was a jump to a
	// received message. clean has bit j set when field j was emptied and
	// not written since (a change of the tag then owes nothing). See
	// handler.go; loops leave them zero.
	owed, owedByMsg, clean uint64
	// enums are, per component kept in a Go enum, its constants: a
	// component set to a value of unknown constants (a received
	// message's round) is assumed to hold one of them (see assumed).
	// Shared by every state of an analysis.
	enums *[lexrel.MaxK]constSet
	// written has bit j set when this step of the handler put something
	// in mailbox field j: what the field holds at a tag change is then
	// witnessed by the path, not only assumed at the entry.
	written uint64
	// bools are the locations of booleans holding the value of a
	// comparison (or a constant) computed earlier: in naive SSA, a && b
	// used as a value goes through one, and a branch on it is a branch on
	// the comparison.
	bools map[loc]ssa.Value
	// hmsg is, in a handler, the key of the received message's term;
	// atEntry is that message and the tag as they were when the tag
	// first changed in this step, nil while it has not. Condition III
	// compares the message with the tag at the entry (a message of an
	// earlier round than the process was in when it got it must leave
	// the state unchanged), and a handler that moves its own tag forward
	// (n.step = Grant) does not make its message stale.
	hmsg    termKey
	atEntry *entrySnapshot
}

// An entrySnapshot is the handler's message and the current tag at the
// point where the tag first changed in a step: the message's relation
// to the tag at the entry from then on.
type entrySnapshot struct {
	msg term
	cur [lexrel.MaxK]constSet
}

// entryView is the handler's message related to the tag at the entry,
// and what the tag was there; ok is false outside handlers.
func (s *state) entryView() (entrySnapshot, bool) {
	if s.atEntry != nil {
		return *s.atEntry, true
	}
	if s.hmsg == (termKey{}) {
		return entrySnapshot{}, false
	}
	t, ok := s.terms[s.hmsg]
	return entrySnapshot{msg: t, cur: s.cur}, ok
}

// freezeEntry keeps the entry view before the tag first changes.
func (s *state) freezeEntry() {
	if s.atEntry != nil || s.hmsg == (termKey{}) {
		return
	}
	if v, ok := s.entryView(); ok {
		s.atEntry = &v
	}
}

// joinEntry is the entry view of the join of a and b: kept apart only
// where one of them changed the tag.
func joinEntry(a, b *state) *entrySnapshot {
	if a.atEntry == nil && b.atEntry == nil {
		return nil
	}
	va, okA := a.entryView()
	vb, okB := b.entryView()
	switch {
	case !okA:
		return &vb
	case !okB:
		return &va
	}
	out := entrySnapshot{msg: va.msg.join(vb.msg)}
	for i := range out.cur {
		out.cur[i] = va.cur[i].union(vb.cur[i])
	}
	return &out
}

func sameEntry(a, b *entrySnapshot) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func newState(k int, fset *token.FileSet) *state {
	return &state{
		k:          k,
		fset:       fset,
		last:       lexrel.Top(k),
		terms:      make(map[termKey]term),
		termsOwned: true,
		regs:       make(map[ssa.Value]ref),
	}
}

// setTerm sets the term under key, copying terms first if another state
// shares it.
func (s *state) setTerm(key termKey, t term) {
	s.ownTerms()
	s.terms[key] = t
}

// delTerm removes the term under key, copying terms first if another
// state shares it.
func (s *state) delTerm(key termKey) {
	if _, ok := s.terms[key]; !ok {
		return
	}
	s.ownTerms()
	delete(s.terms, key)
}

func (s *state) ownTerms() {
	if !s.termsOwned {
		s.terms = maps.Clone(s.terms)
		s.termsOwned = true
	}
}

func (s *state) clone() *state {
	if s == nil {
		return nil
	}
	c := *s
	// Both now share terms (see state.terms).
	s.termsOwned, c.termsOwned = false, false
	c.regs = maps.Clone(s.regs)
	c.pending = cloneNonEmpty(s.pending)
	c.readPending = cloneNonEmpty(s.readPending)
	c.bools = cloneNonEmpty(s.bools)
	return &c
}

// cloneNonEmpty is a copy of m, nil if m is empty: most states have no
// pending jump and no kept boolean, and a clone of an empty map still
// allocates. The setters below make them when needed.
func cloneNonEmpty[M ~map[K]V, K comparable, V any](m M) M {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

func (s *state) setPending(key termKey, must bool) {
	if s.pending == nil {
		s.pending = make(map[termKey]bool)
	}
	s.pending[key] = must
}

func (s *state) setReadPending(key termKey) {
	if s.readPending == nil {
		s.readPending = make(map[termKey]bool)
	}
	s.readPending[key] = true
}

func (s *state) setBool(l loc, v ssa.Value) {
	if s.bools == nil {
		s.bools = make(map[loc]ssa.Value)
	}
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
		// One constant per value, so that two paths that stored true
		// join to true.
		v = boolConst(constant.BoolVal(c.Value))
	}
	s.bools[l] = v
}

// The boolean constants the state records (see setBool).
var (
	constTrue  = ssa.NewConst(constant.MakeBool(true), types.Typ[types.Bool])
	constFalse = ssa.NewConst(constant.MakeBool(false), types.Typ[types.Bool])
)

func boolConst(b bool) *ssa.Const {
	if b {
		return constTrue
	}
	return constFalse
}

// isPlainLocal reports whether l is a local variable of its function
// whose address does not escape: only the function's own stores write it.
func isPlainLocal(l loc) bool {
	a, ok := l.base.(*ssa.Alloc)
	return ok && !a.Heap && l.path == ""
}

// lattice is the semilattice of states for the monotone framework.
type lattice struct{}

func (lattice) Ident() *state { return nil }

func (lattice) Equals(a, b *state) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.cur == b.cur && a.curGeq == b.curGeq && a.unknownAt == b.unknownAt && a.last == b.last && a.lastApprox == b.lastApprox &&
		a.assumed == b.assumed && a.split == b.split && a.owed == b.owed && a.owedByMsg == b.owedByMsg && a.clean == b.clean && a.written == b.written &&
		sameEntry(a.atEntry, b.atEntry) &&
		maps.Equal(a.terms, b.terms) && maps.Equal(a.regs, b.regs) && maps.Equal(a.pending, b.pending) && maps.Equal(a.readPending, b.readPending) && maps.Equal(a.bools, b.bools)
}

func (lattice) Merge(a, b *state) *state {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := a.clone()
	out.atEntry = joinEntry(a, b)
	for i := range a.k {
		out.cur[i] = a.cur[i].union(b.cur[i])
		out.curGeq[i] = a.curGeq[i].meet(b.curGeq[i])
		if b.unknownAt[i] != token.NoPos && (out.unknownAt[i] == token.NoPos || srcpos.Less(a.fset, b.unknownAt[i], out.unknownAt[i])) {
			out.unknownAt[i] = b.unknownAt[i]
		}
	}
	out.last = a.last.Union(b.last)
	out.assumed = a.assumed | b.assumed
	for i := range out.split {
		out.split[i] = a.split[i] | b.split[i]
	}
	out.owed, out.owedByMsg = a.owed|b.owed, a.owedByMsg|b.owedByMsg
	out.clean = a.clean & b.clean
	out.written = a.written | b.written
	out.lastApprox = a.lastApprox || b.lastApprox
	for key, bt := range b.terms {
		at, ok := out.terms[key]
		switch {
		case ok:
			out.setTerm(key, at.join(bt))
		case key.reg != nil:
			out.setTerm(key, bt)
		default:
			out.setTerm(key, absentJoin(key.loc, bt))
		}
	}
	for key, at := range a.terms {
		if _, ok := b.terms[key]; !ok && key.reg == nil {
			out.setTerm(key, absentJoin(key.loc, at))
		}
	}
	// A register that aliases a location on one path and holds its own
	// copy on the other (the location was written after the load) holds
	// the join of both, under its own key.
	for v, br := range b.regs {
		ar, ok := out.regs[v]
		if !ok || ar == br {
			out.regs[v] = br
			continue
		}
		own := regKey(v)
		t := a.terms[ar.key].join(b.terms[br.key])
		out.setTerm(own, t)
		out.regs[v] = ref{key: own, comp: ar.comp}
	}
	for key, am := range a.pending {
		bm, ok := b.pending[key]
		out.setPending(key, am && bm && ok)
	}
	for key := range b.pending {
		if _, ok := a.pending[key]; !ok {
			out.setPending(key, false)
		}
	}
	for key := range b.readPending {
		out.setReadPending(key)
	}
	for l, v := range a.bools {
		if b.bools[l] != v {
			delete(out.bools, l)
		}
	}
	return out
}

// absentJoin joins a location's term with the path on which the location
// has no term. An Alloc's location has none only before the Alloc ran, so
// the other path does not matter; any other location's content is unknown
// there.
func absentJoin(l loc, t term) term {
	if _, ok := l.base.(*ssa.Alloc); ok {
		return t
	}
	t.rel = lexrel.Top(t.rel.K())
	t.consts = compConsts{}
	t.recv = true
	t.approx = true
	return t
}

// resolve returns the term a ref names, and whether there is one.
func (s *state) resolve(r ref) (term, bool) {
	t, ok := s.terms[r.key]
	return t, ok
}

// scalarRel is the relation of the integer r holds to component i of the
// current tag, with the constants it may be.
func (s *state) scalarRel(r ref) (lexrel.Rel, constSet, int) {
	t, ok := s.resolve(r)
	if !ok || r.comp < 0 {
		return lexrel.Any, unknownConsts, -1
	}
	return t.rel.Component(int(r.comp)), t.consts.at(int(r.comp)), int(r.comp)
}

// refine makes each term's relation on a component exact where both its
// constants and the current tag's are known.
func (s *state) refine(key termKey) {
	t := s.terms[key]
	changed := false
	for i := range s.k {
		if t.kind == scalarTerm && int(t.comp) != i {
			continue
		}
		if t.consts.at(i).known && s.cur[i].known {
			r := t.rel.Restrict(i, constRel(t.consts.at(i), s.cur[i]))
			if r != t.rel && s.assumed&(1<<i) != 0 {
				// Known only from the enum's constants: a relation
				// narrowed by an assumption is not exact on i.
				t.loose |= 1 << i
			}
			t.rel = r
			changed = true
		}
	}
	if changed {
		s.setTerm(key, t)
	}
}

func (s *state) refineAll() {
	for key := range s.terms {
		s.refine(key)
	}
}

// assignCur sets component i of the current tag to the value of src, an
// integer whose relation to the old component is rel and whose constants
// are consts; approx says rel over-approximates. Every term's relation to
// the tag follows: the new component relates to the old as rel's inverse
// (a composition, exact only where one side is equality). If src is a
// component of a term, that term's component is now equal to the tag's.
func (s *state) assignCur(i int, rel lexrel.Rel, consts constSet, src ref, srcOK, approx bool) {
	s.freezeEntry()
	s.curGeq[i] = bounds{} // the caller says what the new value is at least
	oldToNew := rel.Inverse()
	for key, t := range s.terms {
		if t.kind == scalarTerm && int(t.comp) != i {
			continue
		}
		if approx || t.kind == scalarTerm && !mapsOneToOne(t.rel.Component(i), oldToNew) {
			t.approx = true
		} else if !mapsOneToOne(t.rel.Component(i), oldToNew) && !t.freshAt(i) {
			// A vector may become one of several: which ones are
			// realised is not known on i, though the components
			// before it still tell what they told. A fresh component
			// is any value: it stays so, with every relation to the
			// new tag realised.
			t.loose |= 1 << i
		}
		t.rel = t.rel.MapComponent(i, func(r lexrel.Rel) lexrel.Rel { return composeRel(r, oldToNew) })
		s.setTerm(key, t)
	}
	if approx || (rel != lexrel.EQ && s.last.Component(i) != lexrel.EQ) {
		s.lastApprox = true
	}
	s.last = s.last.MapComponent(i, func(r lexrel.Rel) lexrel.Rel { return composeRel(rel, r) })
	s.cur[i] = consts
	s.assumed &^= 1 << i
	s.assumeEnum(i)
	if srcOK && int(src.comp) == i {
		if t, ok := s.terms[src.key]; ok {
			t.rel = t.rel.Assign(i, lexrel.EQ)
			s.setTerm(src.key, t)
			s.settleSingle(t, i)
		}
	}
	if srcOK {
		if t, ok := s.terms[src.key]; ok {
			s.applyBounds(i, t, lexrel.LE)
		}
	}
	s.refineAll()
}

// mapsOneToOne reports whether each relation in c to the old component
// gives one relation to the new one, which relates to the old as
// oldToNew (one relation): after an increment, a value below or equal to
// the old component is below the new one; one above it may be anything.
func mapsOneToOne(c, oldToNew lexrel.Rel) bool {
	for _, r := range []lexrel.Rel{lexrel.LT, lexrel.EQ, lexrel.GT} {
		if c&r == 0 {
			continue
		}
		switch composeRel(r, oldToNew) {
		case lexrel.LT, lexrel.EQ, lexrel.GT:
		default:
			return false
		}
	}
	return true
}

// assignFrom sets the components in mask of the tag to those of the
// message under key, together (see loopAnalysis.jump).
func (s *state) assignFrom(key termKey, mask uint) {
	s.freezeEntry()
	m := s.terms[key]
	inv := m.rel.Inverse()
	exactOn := func(r lexrel.Set) bool {
		for i := range s.k {
			if mask&(1<<i) != 0 && m.rel.Component(i) != lexrel.EQ && r.Component(i) != lexrel.EQ {
				return false
			}
		}
		return true
	}
	for k, t := range s.terms {
		if k == key || t.kind == scalarTerm && mask&(1<<t.comp) == 0 {
			continue
		}
		if m.inexact() || !exactOn(t.rel) {
			t.approx = true
		}
		t.rel = t.rel.ComposeOn(inv, mask, true)
		s.setTerm(k, t)
	}
	if m.inexact() || !exactOn(s.last) {
		s.lastApprox = true
	}
	s.last = m.rel.ComposeOn(s.last, mask, false)
	for i := range s.k {
		if mask&(1<<i) != 0 {
			m.rel = m.rel.Assign(i, lexrel.EQ)
			s.cur[i] = m.consts.at(i)
			s.curGeq[i] = bounds{}
			if b, ok := boundOn(s, key, i); ok {
				s.curGeq[i] = s.curGeq[i].add(b)
			}
			s.assumed &^= 1 << i
			s.assumeEnum(i)
			s.unknownAt[i] = token.NoPos
		}
	}
	s.setTerm(key, m)
	for i := range s.k {
		if mask&(1<<i) != 0 {
			s.settleSingle(m, i)
		}
	}
	s.refineAll()
}

// assumeEnum makes component i, if its constants are unknown and it is
// kept in a Go enum, one of the enum's constants, as an assumption.
func (s *state) assumeEnum(i int) {
	if s.cur[i].known || s.enums == nil || !s.enums[i].known {
		return
	}
	s.cur[i] = s.enums[i]
	s.assumed |= 1 << i
}

// settleSingle notes that component i of the tag was just set to that of
// the message m: if m was read out of a collection that holds at most one
// element, m is that element, and the collection is equal to the tag on
// component i too.
func (s *state) settleSingle(m term, i int) {
	if m.from == (termKey{}) {
		return
	}
	if c, ok := s.terms[m.from]; ok && c.kind == collectionTerm && c.single {
		c.rel = c.rel.Assign(i, lexrel.EQ)
		s.setTerm(m.from, c)
	}
}

// stepCur interprets component i of the tag += d for d = 1 or -1, exactly
// over the integers: a term equal to the old tag is now below (above) it,
// one above it is now at or above it.
func (s *state) stepCur(i int, d int64) {
	s.freezeEntry()
	for key, t := range s.terms {
		if t.kind == scalarTerm && int(t.comp) != i {
			continue
		}
		if d > 0 {
			t.rel = t.rel.Decrement(i)
		} else {
			t.rel = t.rel.Increment(i)
		}
		s.setTerm(key, t)
	}
	if d > 0 {
		s.last = s.last.Increment(i)
	} else {
		s.last = s.last.Decrement(i)
	}
	s.cur[i] = s.cur[i].shift(d)
	if d < 0 {
		s.curGeq[i] = bounds{}
	}
	s.refineAll()
}

// composeRel is a∘b on single components: the relation of x to z from x a y
// and y b z.
func composeRel(a, b lexrel.Rel) lexrel.Rel {
	x := lexrel.Of(a).Compose(lexrel.Of(b))
	return x.Component(0)
}

// noteRead records a read of the term under key, if it is a pending
// mailbox.
func (s *state) noteRead(key termKey) {
	if _, ok := s.pending[key]; ok && !s.readPending[key] {
		s.setReadPending(key)
	}
}

// noteElementRead records that the message under elem was read out of
// the collection under coll. If the collection is a pending mailbox, the
// element is pending in its place: what the process may owe condition IV
// from then on is what that message may be (a jump to it settles it),
// while the other elements, if the mailbox is never read again, change
// nothing. A read of the collection as a whole (its length, a copy)
// still counts as a read of it.
func (s *state) noteElementRead(coll, elem termKey) {
	if _, ok := s.pending[coll]; ok {
		if _, ok := s.pending[elem]; !ok {
			s.setPending(elem, false)
		}
	}
}

// forgetElements records that the collection under key gets a new
// content: the messages read out of the old one are no longer among its
// elements.
func (s *state) forgetElements(key termKey) {
	for k, t := range s.terms {
		if t.from == key {
			t.from = termKey{}
			s.setTerm(k, t)
		}
	}
}

// endDirect ends the reception of the message last received: from the
// next communication point on, what it was stored into is a mailbox read
// back, not the reception's write.
func (s *state) endDirect() {
	for key, t := range s.terms {
		if t.direct {
			t.direct = false
			s.setTerm(key, t)
		}
	}
}
