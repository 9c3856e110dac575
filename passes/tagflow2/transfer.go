package tagflow2

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/ssa"
)

// block runs b's instructions on a copy of in and returns the state at
// its end.
func (la *loopAnalysis) block(b *ssa.BasicBlock, in *state) *state {
	if in == nil {
		return nil
	}
	s := in.clone()
	for _, instr := range b.Instrs {
		la.instr(s, instr)
	}
	return s
}

// edge applies what taking the edge from → to tells: the branch taken, and
// entering the tagged loop (a communication point for condition I: the tag
// at the entry is what the first one is compared with).
func (la *loopAnalysis) edge(from, to *ssa.BasicBlock, s *state) *state {
	if s == nil {
		return nil
	}
	if to == la.header && !la.region[from] {
		s = s.clone()
		s.last = equalSet(la.k)
		// A round the code before the loop does not set is compared,
		// at the first communication point, with a value the analysis
		// does not know (see checkI's hint).
		la.entryUnset |= s.assumed & s.partMask
	}
	if iff, ok := from.Instrs[len(from.Instrs)-1].(*ssa.If); ok && from.Succs[0] != from.Succs[1] {
		s = la.branch(s, iff.Cond, from.Succs[0] == to)
	}
	if s == nil {
		return nil
	}
	return la.rangeEdge(from, to, s)
}

func equalSet(k int) lexrel.Set {
	rels := make([]lexrel.Rel, k)
	for i := range rels {
		rels[i] = lexrel.EQ
	}
	return lexrel.Of(rels...)
}

func (la *loopAnalysis) instr(s *state, instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.Alloc:
		la.alloc(s, in)
	case *ssa.Store:
		la.store(s, in.Addr, in.Val, in)
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			la.load(s, in)
		case token.ARROW:
			la.chanRecv(s, in)
		default:
			delete(s.regs, in)
		}
	case *ssa.Send:
		la.chanSend(s, in)
	case *ssa.Select:
		la.selectStmt(s, in)
	case *ssa.FieldAddr:
		la.fieldAddr(s, in)
	case *ssa.Field:
		la.field(s, in)
	case *ssa.IndexAddr:
		if r, ok := la.collectionRef(s, in.X); ok {
			s.regs[in] = ref{key: r.key, comp: elemComp}
		}
	case *ssa.Index:
		la.element(s, in, in.X)
	case *ssa.Lookup:
		if !in.CommaOk {
			la.element(s, in, in.X)
		}
	case *ssa.Slice:
		la.alias(s, in, in.X)
	case *ssa.ChangeType:
		la.alias(s, in, in.X)
	case *ssa.Convert:
		la.alias(s, in, in.X)
	case *ssa.MakeInterface:
		la.alias(s, in, in.X)
	case *ssa.ChangeInterface:
		la.alias(s, in, in.X)
	case *ssa.TypeAssert:
		la.typeAssert(s, in)
	case *ssa.Range:
		la.alias(s, in, in.X)
	case *ssa.Next:
		if r, ok := s.regs[in.Iter]; ok {
			s.regs[in] = ref{key: r.key, comp: elemComp}
		} else {
			delete(s.regs, in)
		}
	case *ssa.Extract:
		la.extract(s, in)
	case *ssa.BinOp:
		la.binop(s, in)
	case *ssa.Phi:
		la.phi(s, in)
	case *ssa.MakeSlice:
		la.newCollection(s, in)
	case *ssa.MakeMap:
		la.newCollection(s, in)
	case *ssa.MapUpdate:
		la.checkStaleWrite(s, in.Map, in)
		la.noteWritten(s, in.Map)
		la.storeElement(s, in.Map, in.Value, in)
		if la.elemMsg(in.Map.Type()) == nil && la.inRegion(in) && la.persistent(in.Map, in) {
			// votes[m.From] = true: the key is the message's data.
			la.keptKey(s, in.Map, in.Key, in)
		}
	case *ssa.Call:
		la.call(s, in.Common(), in)
	case *ssa.Go:
		la.handOver(s, in.Common(), in, "a goroutine")
	case *ssa.Defer:
		la.handOver(s, in.Common(), in, "a deferred call")
	case *ssa.Return:
		la.handlerExit(s, in)
	}
}

// msgOf is the tag mapping of messages of type t (or pointers to them).
func (la *loopAnalysis) msgOf(t types.Type) *annotations.Msg {
	if m := la.ann.MsgOf(t); m != nil {
		return la.kindMapped(m)
	}
	return la.derivedMsg(t)
}

// elemMsg is the mapping of the elements of t when t is a slice, array, map
// or channel of messages (or a pointer to one of these).
func (la *loopAnalysis) elemMsg(t types.Type) *annotations.Msg {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return la.msgOf(u.Elem())
	case *types.Array:
		return la.msgOf(u.Elem())
	case *types.Map:
		return la.msgOf(u.Elem())
	}
	return nil
}

// hasFieldPath reports whether component c is read from a field path of
// the message: a field, or an enum mapping over a field.
func hasFieldPath(c annotations.Component) bool {
	return c.Kind == annotations.Field || c.Kind == annotations.Mapped && c.Method == nil && len(c.FieldIndex) > 0
}

// mappingOf is the enum mapping of the component r names, when it is one.
func (la *loopAnalysis) mappingOf(s *state, r ref) *annotations.EnumMap {
	if r.comp < 0 {
		return nil
	}
	t, ok := s.terms[r.key]
	if !ok || t.msg == nil || int(r.comp) >= len(t.msg.Components) {
		return nil
	}
	if c := t.msg.Components[r.comp]; c.Kind == annotations.Mapped {
		return c.Map
	}
	return nil
}

// throughMap is the constant scalar sc (a constant of the message's own
// enum: Type: PrevoteType) seen as the round constants it stands for
// under m; unknown when a constant is not mapped.
func throughMap(sc scalar, m *annotations.EnumMap) scalar {
	if !sc.consts.known || sc.comp >= 0 {
		return sc
	}
	out := constsOf()
	for _, v := range sc.consts.values() {
		to, ok := m.Lookup(constant.MakeInt64(v))
		if !ok {
			sc.consts = unknownConsts
			return sc
		}
		x, ok := constant.Int64Val(constant.ToInt(to))
		if !ok {
			sc.consts = unknownConsts
			return sc
		}
		out = out.add(x)
	}
	sc.consts = out
	return sc
}

// mapKeeps reports whether comparing with op commutes with the mapping m:
// equality always does; inequality when m is one-to-one; an order when m
// is strictly increasing.
func mapKeeps(m *annotations.EnumMap, op lexrel.Rel) bool {
	if op == lexrel.EQ {
		return true
	}
	increasing, injective := true, true
	for i, p := range m.Pairs {
		for _, q := range m.Pairs[i+1:] {
			sameTo := constant.Compare(p.ToValue, token.EQL, q.ToValue)
			if sameTo && !constant.Compare(p.FromValue, token.EQL, q.FromValue) {
				injective = false
			}
			if constant.Compare(p.FromValue, token.LSS, q.FromValue) != constant.Compare(p.ToValue, token.LSS, q.ToValue) || sameTo {
				increasing = false
			}
		}
	}
	if op == lexrel.NE {
		return injective
	}
	return increasing
}

// freshMessage is a message about which nothing is known but its constant
// components.
func (la *loopAnalysis) freshMessage(s *state, m *annotations.Msg, recv bool, at token.Pos) term {
	t := term{kind: messageTerm, rel: lexrel.Top(la.k), msg: m, recv: recv, approx: true, at: at}
	if m != nil {
		for i, c := range m.Components {
			if i < la.k && c.Kind == annotations.Const && c.Value != nil {
				if v, ok := constInt64(c); ok {
					t.consts = t.consts.with(i, constsOf(v))
					t.rel = t.rel.Restrict(i, constRel(t.consts.at(i), s.cur[i]))
				}
			}
		}
	}
	return t
}

func (la *loopAnalysis) alloc(s *state, a *ssa.Alloc) {
	elem := a.Type().Underlying().(*types.Pointer).Elem()
	if i, ok := la.syncBase[a]; ok {
		// var round Round: a tag variable declared here is zero.
		la.assignSync(s, i, ssa.NewConst(constant.MakeInt64(0), elem))
		return
	}
	key := locKey(loc{base: a})
	switch {
	case la.msgOf(elem) != nil && !isPointer(elem):
		la.rebind(s, key)
		t := la.freshMessage(s, la.msgOf(elem), false, token.NoPos)
		// A zero value: exact once its field components are assigned.
		t.approx = false
		for i, c := range t.msg.Components {
			if i < la.k && hasFieldPath(c) {
				t.unset |= 1 << i
			}
		}
		for i, c := range t.msg.Components {
			if i < la.k && c.Method != nil {
				// A round a method computes (Phase() switching on a
				// Kind field): what the fields make of it is not
				// followed.
				t.approx = true
			}
			if i < la.k && c.Kind == annotations.Const && s.assumed&(1<<i) != 0 && t.rel.Component(i) != lexrel.Any {
				// Its constant round compared with a round known only
				// from the enum's constants, which ruled something out.
				t.approx = true
			}
		}
		s.setTerm(key, t)
	case la.elemMsg(elem) != nil:
		la.rebind(s, key)
		s.setTerm(key, term{kind: collectionTerm, rel: lexrel.Empty(la.k), msg: la.elemMsg(elem), single: atMostOne(elem)})
	}
}

// atMostOne reports whether a zero value of the collection type t holds
// at most one element: a nil slice or map, an array of length 0 or 1.
func atMostOne(t types.Type) bool {
	if a, ok := t.Underlying().(*types.Array); ok {
		return a.Len() <= 1
	}
	return true
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

func (la *loopAnalysis) newCollection(s *state, v ssa.Value) {
	if m := la.elemMsg(v.Type()); m != nil {
		single := true // a new map
		if ms, ok := v.(*ssa.MakeSlice); ok {
			// make([]M, 0, c) is empty; make([]M, n) holds n zero values.
			c, isConst := ms.Len.(*ssa.Const)
			single = isConst && c.Int64() == 0
		}
		s.setTerm(regKey(v), term{kind: collectionTerm, rel: lexrel.Empty(la.k), msg: m, single: single})
		s.regs[v] = ref{key: regKey(v), comp: wholeComp}
	}
}

// rebind gives each register that aliases the term under key a copy of
// it under its own key: the location is about to be written, and the
// registers hold what was read before.
func (la *loopAnalysis) rebind(s *state, key termKey) {
	t, ok := s.terms[key]
	if !ok {
		return
	}
	s.dropBoundsOn(key)
	for v, r := range s.regs {
		if r.key == key {
			own := regKey(v)
			s.setTerm(own, t)
			s.regs[v] = ref{key: own, comp: r.comp}
		}
	}
}

// dropParts forgets what the locations inside the location under key
// hold (the message field of an envelope, e.Msg, given a key of its own
// by addrRef): key is written whole, so they hold parts of the new value,
// not of the old. Registers that read them keep the old value.
func (la *loopAnalysis) dropParts(s *state, key termKey) {
	if key.reg != nil {
		return
	}
	prefix := key.loc.path + "."
	for k := range s.terms {
		if k.reg != nil || k.loc.base != key.loc.base || !strings.HasPrefix(k.loc.path, prefix) {
			continue
		}
		if _, pending := s.pending[k]; pending {
			continue
		}
		la.rebind(s, k)
		s.delTerm(k)
	}
}

// alias makes v hold what x holds.
func (la *loopAnalysis) alias(s *state, v, x ssa.Value) {
	if r, ok := s.regs[x]; ok {
		s.regs[v] = r
		return
	}
	if _, isAddr := x.Type().Underlying().(*types.Pointer); isAddr {
		// Slicing an array variable shares its elements.
		if r, ok := la.collectionRef(s, x); ok {
			s.regs[v] = r
			return
		}
		// The address of a message variable made an interface
		// (broadcast(&Report{...}) to a parameter of type any): the
		// message it holds, as a send of the pointer would see it.
		if la.msgOf(x.Type()) != nil {
			if r, ok := la.addrRef(s, x); ok && r.comp == wholeComp {
				s.regs[v] = r
				return
			}
		}
	}
	delete(s.regs, v)
}

// accessPath is rawAccessPath in the frame of the outermost function
// analysed: what a callee reaches through a pointer parameter is named
// from the caller's location the argument points to, so that a helper
// filling the caller's mailbox (receive(ctx, mb)) writes the location the
// caller reads.
func (la *loopAnalysis) accessPath(addr ssa.Value) (loc, bool) {
	l, ok := rawAccessPath(addr)
	if !ok || !strings.HasPrefix(l.path, "*") {
		return l, ok
	}
	var p *ssa.Parameter
	switch b := l.base.(type) {
	case *ssa.Parameter:
		p = b
	case *ssa.Alloc:
		p, _ = la.paramOf(b)
		if p == nil {
			return l, ok
		}
	default:
		return l, ok
	}
	if to, bound := la.pointees[p]; bound {
		return loc{base: to.base, path: to.path + l.path[1:]}, true
	}
	return l, ok
}

// pointee names the location the pointer v (a value of the current
// frame) points to, if the analysis can name it.
func (la *loopAnalysis) pointee(v ssa.Value) (loc, bool) {
	switch v := v.(type) {
	case *ssa.Alloc:
		return loc{base: v}, true
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return loc{}, false
		}
		if p := la.paramValue(v); p != nil {
			if to, ok := la.pointees[p]; ok {
				return to, true
			}
		}
		l, ok := la.accessPath(v.X)
		if !ok {
			return loc{}, false
		}
		return loc{base: l.base, path: l.path + "*"}, true
	case *ssa.FieldAddr, *ssa.IndexAddr:
		return la.accessPath(v)
	case *ssa.Parameter:
		to, ok := la.pointees[v]
		return to, ok
	}
	return loc{}, false
}

// accessPath names the location addr is the address of, from a root that
// is the same on every iteration: an Alloc, a Global, a Parameter or a
// FreeVar, then fields (".i"), loads of pointers ("*") and elements
// ("[]").
func rawAccessPath(addr ssa.Value) (loc, bool) {
	var suffix []string
	for {
		switch a := addr.(type) {
		case *ssa.Alloc, *ssa.Global, *ssa.Parameter, *ssa.FreeVar:
			var b strings.Builder
			for i := len(suffix) - 1; i >= 0; i-- {
				b.WriteString(suffix[i])
			}
			return loc{base: a, path: b.String()}, true
		case *ssa.FieldAddr:
			suffix = append(suffix, "."+strconv.Itoa(a.Field))
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return loc{}, false
			}
			suffix = append(suffix, "*")
			addr = a.X
		case *ssa.IndexAddr:
			suffix = append(suffix, "[]")
			addr = a.X
		default:
			return loc{}, false
		}
	}
}

// addrRef is what the address addr points to, as far as the tag is
// concerned: a message or collection in a location, a component of a
// message, or an element of a collection.
func (la *loopAnalysis) addrRef(s *state, addr ssa.Value) (ref, bool) {
	if r, ok := s.regs[addr]; ok {
		return r, true
	}
	if p, ok := la.paramOf(addr); ok {
		// The local a parameter is spilled to, never written again: it
		// holds the caller's value, under the caller's name.
		if r, ok := s.regs[p]; ok {
			return r, true
		}
	}
	p, ok := addr.Type().Underlying().(*types.Pointer)
	if !ok {
		return ref{}, false
	}
	elem := p.Elem()
	// A location holds a message (or a pointer to one: messages are not
	// changed once received), a collection of them, or an interface that
	// may hold one.
	m, coll := la.msgOf(elem), la.elemMsg(elem)
	env := la.envelopeField(elem)
	if m == nil && coll == nil && !la.interfaceOfMessages(elem) && env < 0 {
		return ref{}, false
	}
	l, ok := la.accessPath(addr)
	if !ok {
		return ref{}, false
	}
	key := locKey(l)
	if _, ok := s.terms[key]; !ok {
		// A location not written in this function: its content is
		// whatever the code before left there.
		switch {
		case coll != nil && la.isMailbox(addr) && la.emptyAtEntry(s, la.mailboxAt(addr)):
			// A mailbox never filled in the round of the entry.
			s.setTerm(key, term{kind: collectionTerm, rel: lexrel.Empty(la.k), msg: coll, single: true})
		case coll != nil && la.isMailbox(addr):
			// A mailbox of a handler's process at the entry: it holds
			// messages of the current round only, an invariant every
			// handler keeps (checkMailboxes, condition IV at exits).
			s.setTerm(key, term{kind: collectionTerm, rel: equalOn(lexrel.Top(la.k), la.mapped(coll)), msg: coll, recv: true})
		case coll != nil:
			s.setTerm(key, term{kind: collectionTerm, rel: lexrel.Top(la.k), msg: coll, recv: true, approx: true})
		case env >= 0:
			t := la.freshMessage(s, la.msgOf(elem.Underlying().(*types.Struct).Field(env).Type()), true, token.NoPos)
			t.envField = int8(env + 1)
			s.setTerm(key, t)
		default:
			s.setTerm(key, la.freshMessage(s, m, true, token.NoPos))
		}
	}
	return ref{key: key, comp: wholeComp}, true
}

// collectionRef is the collection x is (a slice or map register) or
// points to (an array's address).
func (la *loopAnalysis) collectionRef(s *state, x ssa.Value) (ref, bool) {
	if r, ok := s.regs[x]; ok && r.comp == wholeComp {
		if t, ok := s.terms[r.key]; ok && t.kind == collectionTerm {
			return r, true
		}
	}
	if r, ok := la.addrRef(s, x); ok && r.comp == wholeComp {
		if t, ok := s.terms[r.key]; ok && t.kind == collectionTerm {
			return r, true
		}
	}
	return ref{}, false
}

func (la *loopAnalysis) load(s *state, u *ssa.UnOp) {
	if i, ok := la.syncIndex(u.X); ok {
		t := term{kind: scalarTerm, comp: int8(i), rel: lexrel.Top(la.k).Restrict(i, lexrel.EQ), geq: s.curGeq[i]}
		t.consts = t.consts.with(i, s.cur[i])
		s.setTerm(regKey(u), t)
		s.regs[u] = ref{key: regKey(u), comp: int8(i)}
		return
	}
	if p, ok := la.paramOf(u.X); ok {
		if _, tracked := s.regs[p]; tracked {
			la.alias(s, u, p)
			return
		}
	}
	r, ok := la.addrRef(s, u.X)
	if !ok {
		delete(s.regs, u)
		if key, ok := la.cellKey(u.X); ok {
			if t, ok := s.terms[key]; ok && t.kind == scalarTerm {
				s.regs[u] = ref{key: key, comp: t.comp}
			}
		}
		return
	}
	if r.comp == elemComp {
		la.elementOf(s, u, r)
		return
	}
	if s.terms[r.key].kind == messageTerm {
		// A single kept message read whole; a collection's length or
		// an append to it reads no message.
		s.noteRead(r.key)
	}
	s.regs[u] = r
}

// element makes v an element of the collection x.
func (la *loopAnalysis) element(s *state, v, x ssa.Value) {
	if r, ok := la.collectionRef(s, x); ok {
		la.elementOf(s, v, r)
		return
	}
	delete(s.regs, v)
}

// elementOf makes v a message related to the tag as every element of the
// collection r is.
func (la *loopAnalysis) elementOf(s *state, v ssa.Value, r ref) {
	c := s.terms[r.key]
	t := term{kind: messageTerm, rel: c.rel, msg: c.msg, recv: c.recv, approx: c.inexact(), kindFree: c.kindFree, loose: c.loose, at: c.at, from: r.key} // not direct: read back from a mailbox
	t.consts = c.consts
	s.setTerm(regKey(v), t)
	s.noteElementRead(r.key, regKey(v))
	s.regs[v] = ref{key: regKey(v), comp: wholeComp}
}

func (la *loopAnalysis) fieldAddr(s *state, fa *ssa.FieldAddr) {
	if _, ok := la.syncIndex(fa); ok {
		return
	}
	if r, ok := la.messageComponent(s, fa); ok {
		s.regs[fa] = r
		return
	}
	if r, ok := la.addrRef(s, fa); ok {
		s.regs[fa] = r
		return
	}
	delete(s.regs, fa)
}

func (la *loopAnalysis) field(s *state, f *ssa.Field) {
	if r, ok := la.messageComponent(s, f); ok {
		s.regs[f] = r
		return
	}
	delete(s.regs, f)
}

// messageComponent resolves a chain of field selections (addresses or
// values) from a message to the tag component it reaches, or to the
// message's data.
func (la *loopAnalysis) messageComponent(s *state, v ssa.Value) (ref, bool) {
	var path []int
	x := v
	for {
		switch f := x.(type) {
		case *ssa.FieldAddr:
			path = append([]int{f.Field}, path...)
			x = f.X
		case *ssa.Field:
			path = append([]int{f.Field}, path...)
			x = f.X
		default:
			var base ref
			if p, ok := la.paramOf(x); ok {
				if _, tracked := s.regs[p]; tracked {
					x = p
				}
			}
			if r, ok := s.regs[x]; ok {
				base = r
			} else if r, ok := la.addrRef(s, x); ok {
				base = r
			} else {
				return ref{}, false
			}
			if base.comp == elemComp {
				// A field of an element, selected in place
				// (coll[0].Ballot): the element is a message related to
				// the tag as every element is.
				c := s.terms[base.key]
				s.setTerm(regKey(x), term{kind: messageTerm, rel: c.rel, consts: c.consts, msg: c.msg, recv: c.recv, approx: c.inexact(), kindFree: c.kindFree, loose: c.loose, at: c.at, from: base.key})
				s.noteElementRead(base.key, regKey(x))
				base = ref{key: regKey(x), comp: wholeComp}
			} else {
				s.noteRead(base.key)
			}
			if base.comp == partComp {
				// m.Hdr handed on and selected from (h.View).
				path = append([]int{int(base.sub)}, path...)
				base.comp, base.sub = wholeComp, 0
			}
			t, ok := s.terms[base.key]
			if !ok || base.comp != wholeComp || t.kind != messageTerm {
				return ref{}, false
			}
			if t.envField > 0 {
				// Selecting the message out of a received envelope.
				if path[0] != int(t.envField)-1 {
					return ref{key: base.key, comp: dataComp}, true
				}
				if fa, ok := v.(*ssa.FieldAddr); ok && len(path) == 1 && base.key.reg == nil {
					// The address of the message field of an envelope
					// in memory (a struct with one message field, such
					// as a mailbox): the field is a location of its own,
					// holding the message, so that storing through it
					// and reading it back see the message, not the
					// envelope.
					if l, ok := la.accessPath(fa); ok {
						key := locKey(l)
						if _, ok := s.terms[key]; !ok {
							mt := t
							mt.envField = 0
							s.setTerm(key, mt)
						}
						return ref{key: key, comp: wholeComp}, true
					}
				}
				if base.key.reg == nil {
					// The message field has a location of its own once
					// its address was taken (above): a component read
					// through the envelope (e.Msg.Term) is one of it,
					// so that a test of it tells what e.Msg holds.
					sub := locKey(loc{base: base.key.loc.base, path: base.key.loc.path + "." + strconv.Itoa(path[0])})
					if st, ok := s.terms[sub]; ok && st.kind == messageTerm {
						base.key, t = sub, st
					}
				}
				path = path[1:]
				if len(path) == 0 {
					return ref{key: base.key, comp: wholeComp}, true
				}
			}
			c := componentOf(t.msg, path)
			if c == partComp && len(path) == 1 {
				return ref{key: base.key, comp: c, sub: int8(path[0])}, true
			}
			return ref{key: base.key, comp: c}, true
		}
	}
}

// componentOf is the tag component a field path of a message reaches, or
// dataComp.
func componentOf(m *annotations.Msg, path []int) int8 {
	if m == nil {
		return dataComp
	}
	part := false
	for i, c := range m.Components {
		if !hasFieldPath(c) {
			continue
		}
		if equalInts(c.FieldIndex, path) {
			return int8(i)
		}
		if len(path) < len(c.FieldIndex) && equalInts(c.FieldIndex[:len(path)], path) {
			part = true
		}
	}
	if part {
		return partComp
	}
	return dataComp
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (la *loopAnalysis) binop(s *state, b *ssa.BinOp) {
	delete(s.regs, b)
	if b.Op != token.ADD && b.Op != token.SUB {
		return
	}
	x, c := b.X, b.Y
	if _, ok := x.(*ssa.Const); ok && b.Op == token.ADD {
		x, c = c, x
	}
	k, ok := c.(*ssa.Const)
	if !ok {
		return
	}
	d, ok := int64Const(k)
	if !ok {
		return
	}
	if b.Op == token.SUB {
		d = -d
	}
	rel, consts, comp := s.scalarRel(s.regs[x])
	if _, tracked := s.regs[x]; !tracked || comp < 0 {
		return
	}
	t := term{kind: scalarTerm, comp: int8(comp), rel: lexrel.Top(la.k).Restrict(comp, shiftRel(rel, d))}
	t.consts = t.consts.with(comp, consts.shift(d))
	t.recv = s.terms[s.regs[x].key].recv
	t.approx = s.terms[s.regs[x].key].approx || d > 1 || d < -1
	if d > 0 {
		t.geq = la.scalarOf(s, x).geq
	}
	s.setTerm(regKey(b), t)
	s.regs[b] = ref{key: regKey(b), comp: int8(comp)}
}

// shiftRel is the relation of x+d to y given the relation r of x to y, over
// the integers.
func shiftRel(r lexrel.Rel, d int64) lexrel.Rel {
	switch {
	case d == 0:
		return r
	case d == 1:
		return lexrel.Of(r).Increment(0).Component(0)
	case d == -1:
		return lexrel.Of(r).Decrement(0).Component(0)
	case d > 0:
		out := lexrel.Rel(0)
		if r&lexrel.LT != 0 {
			out |= lexrel.Any
		}
		if r&lexrel.GE != 0 {
			out |= lexrel.GT
		}
		return out
	default:
		return shiftRel(r.Inverse(), -d).Inverse()
	}
}

func (la *loopAnalysis) phi(s *state, p *ssa.Phi) {
	var first ref
	same := true
	for i, e := range p.Edges {
		r, ok := s.regs[e]
		if !ok {
			if _, isConst := e.(*ssa.Const); isConst {
				continue
			}
			delete(s.regs, p)
			return
		}
		if i == 0 || first == (ref{}) {
			first = r
		} else if r != first {
			same = false
		}
	}
	if first == (ref{}) {
		delete(s.regs, p)
		return
	}
	if same {
		s.regs[p] = first
		return
	}
	var t term
	for i, e := range p.Edges {
		r, ok := s.regs[e]
		if !ok {
			continue
		}
		if i == 0 {
			t = s.terms[r.key]
		} else {
			t = t.join(s.terms[r.key])
		}
	}
	s.setTerm(regKey(p), t)
	s.regs[p] = ref{key: regKey(p), comp: first.comp}
}

// scalar is what is known of the integer v: its relation to the component
// comp of the current tag (comp < 0 when v is not related to one), and the
// constants it may be.
type scalar struct {
	r      ref
	ok     bool // r is a tracked term
	rel    lexrel.Rel
	consts constSet
	comp   int
	recv   bool
	approx bool // the tracked term's relation over-approximates
	geq    bounds
}

func (la *loopAnalysis) scalarOf(s *state, v ssa.Value) scalar {
	if c, ok := la.constArgs[la.paramValue(v)]; ok {
		v = c
	}
	if c, ok := v.(*ssa.Const); ok {
		if x, ok := int64Const(c); ok {
			return scalar{rel: lexrel.Any, consts: constsOf(x), comp: -1}
		}
		return scalar{rel: lexrel.Any, comp: -1}
	}
	r, ok := s.regs[v]
	if !ok {
		return scalar{rel: lexrel.Any, comp: -1}
	}
	t := s.terms[r.key]
	rel, consts, comp := s.scalarRel(r)
	if t.kind == scalarTerm {
		comp = int(t.comp)
		rel, consts = t.rel.Component(comp), t.consts.at(comp)
	}
	sc := scalar{r: r, ok: comp >= 0, rel: rel, consts: consts, comp: comp, recv: t.recv, approx: t.approx || comp >= 0 && (t.unset|t.loose)&(1<<comp) != 0}
	if t.kind == scalarTerm {
		sc.geq = t.geq
	} else if comp >= 0 {
		// A message's component: what a test showed it at least, and
		// (as a fact for whoever takes it) the component itself.
		sc.geq = t.geq.filter(func(x bound) bool { return int(x.comp) == comp })
		if b, ok := boundOn(s, r.key, comp); ok {
			sc.geq = sc.geq.add(b)
		}
	}
	return sc
}

// exactTo reports whether relTo(s, i) is exact: a tracked integer whose
// relation is, or a constant compared with a tag component whose
// constants are known.
func (sc scalar) exactTo(s *state, i int) bool {
	if sc.comp == i {
		return sc.ok && !sc.approx
	}
	return sc.consts.known && s.cur[i].known && s.assumed&(1<<i) == 0
}

// relTo completes a scalar whose component is only known from the other
// operand: a constant's relation to component i of the tag.
func (sc scalar) relTo(s *state, i int) lexrel.Rel {
	if sc.comp == i {
		return sc.rel
	}
	return constRel(sc.consts, s.cur[i])
}

var tokenRel = map[token.Token]lexrel.Rel{
	token.EQL: lexrel.EQ, token.NEQ: lexrel.NE,
	token.LSS: lexrel.LT, token.LEQ: lexrel.LE,
	token.GTR: lexrel.GT, token.GEQ: lexrel.GE,
}

// branch restricts s to the executions where cond is taken (true) or
// not; nil when none is possible.
func (la *loopAnalysis) branch(s *state, cond ssa.Value, taken bool) *state {
	switch c := cond.(type) {
	case *ssa.Call:
		// A predicate helper: the state its returns of that value left,
		// if nothing happened since the call.
		if p, ok := la.predicates[c]; ok && (lattice{}).Equals(p.after, s) {
			out := p.ifFalse
			if taken {
				out = p.ifTrue
			}
			// An argument the analysis does not follow, or the result of a
			// call (current(m.Header()), a copy of what m holds), was
			// tested by the helper without the terms it comes from
			// knowing.
			var untracked []ssa.Value
			for _, a := range c.Call.Args {
				if _, ok := s.regs[a]; !ok {
					untracked = append(untracked, a)
				} else if _, isCall := a.(*ssa.Call); isCall {
					untracked = append(untracked, a)
				}
			}
			if len(untracked) > 0 && out != nil {
				out = la.taint(out, untracked...)
			}
			return out
		}
	case *ssa.Extract:
		// The ok of m, ok := f(): the state had f returned ok.
		if out, ok := la.commaOK(s, c, taken); ok {
			return out
		}
		if okOfLookup(c) {
			if ta, ok := c.Tuple.(*ssa.TypeAssert); ok && taken {
				// The message is of the asserted type on this edge.
				return la.narrowToType(s, ta)
			}
			return s
		}
	case *ssa.UnOp:
		if c.Op == token.NOT {
			return la.branch(s, c.X, !taken)
		}
		if c.Op == token.MUL {
			// A boolean read back from where a comparison was kept.
			if l, ok := la.accessPath(c.X); ok {
				if v, ok := s.bools[l]; ok && v != cond {
					return la.branch(s, v, taken)
				}
				if isPlainLocal(l) {
					// A flag of the function's own (entered := true): on
					// this edge it holds the value taken, until written.
					out := s.clone()
					out.setBool(l, boolConst(taken))
					return out
				}
			}
		}
	case *ssa.Const:
		// A flag known to hold a constant: the other edge is not taken.
		if c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value) != taken {
			return nil
		}
		return s
	case *ssa.BinOp:
		if c.Op == token.EQL || c.Op == token.NEQ {
			if out, ok := la.structTest(s, c, (c.Op == token.EQL) == taken); ok {
				return out
			}
		}
		op, ok := tokenRel[c.Op]
		if !ok {
			return la.taint(s, cond)
		}
		if !taken {
			op = lexrel.Any &^ op
		}
		if out, ok := la.lenTest(s, c.X, c.Y, op); ok {
			return out
		}
		return la.restrict(s, c.X, c.Y, op)
	}
	return la.taint(s, cond)
}

// embeddedField reports whether v selects, or is loaded from, an
// embedded field of a struct.
func embeddedField(v ssa.Value) bool {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	var st types.Type
	var i int
	switch f := v.(type) {
	case *ssa.Field:
		st, i = f.X.Type(), f.Field
	case *ssa.FieldAddr:
		st, i = f.X.Type().Underlying().(*types.Pointer).Elem(), f.Field
	default:
		return false
	}
	s, ok := st.Underlying().(*types.Struct)
	return ok && s.Field(i).Anonymous()
}

// okOfLookup reports whether x is the ok of a range step, a type
// assertion, a map lookup or a channel receive: whether there is a next
// element, what type a message has, whether a key is present, whether a
// channel is open. None tests a tag: a sender may put any tag on a
// message of any type, and a collection may hold more messages.
func okOfLookup(x *ssa.Extract) bool {
	switch t := x.Tuple.(type) {
	case *ssa.Next:
		return x.Index == 0
	case *ssa.TypeAssert, *ssa.Lookup:
		return x.Index == 1
	case *ssa.UnOp:
		return t.Op == token.ARROW && x.Index == 1
	}
	return false
}

// commaOK interprets a branch on the last (bool) result of a call of a
// function the analysis followed, in the call's block: the state at the
// branch is the state after the call's returns of that value, carried
// through the instructions from the call to the branch (which store the
// results into variables). It reports false when the call is not in the
// branch's block, when a call lies between, or when the state reached
// from the call's joined returns is not s (the predicate is of another
// partition's run of the block).
func (la *loopAnalysis) commaOK(s *state, x *ssa.Extract, taken bool) (*state, bool) {
	call, ok := x.Tuple.(*ssa.Call)
	if !ok || x.Index != call.Call.Signature().Results().Len()-1 {
		return nil, false
	}
	p, ok := la.predicates[call]
	if !ok {
		return nil, false
	}
	b := call.Block()
	var between []ssa.Instruction
	for _, instr := range b.Instrs[la.indexOf(call)+1 : len(b.Instrs)-1] {
		if _, isCall := instr.(*ssa.Call); isCall {
			return nil, false
		}
		between = append(between, instr)
	}
	carry := func(from *state) *state {
		if from == nil {
			return nil
		}
		out := from.clone()
		for _, instr := range between {
			la.instr(out, instr)
		}
		return out
	}
	if !(lattice{}).Equals(carry(p.after), s) {
		return nil, false
	}
	if taken {
		return carry(p.ifTrue), true
	}
	return carry(p.ifFalse), true
}

// trackScalar makes the integer v, compared with component i of the tag,
// a term of its own: the parameter or local variable it was loaded from
// (so that its later loads are the same term), or else the register.
// Its relation to the tag is what the comparison leaves.
func (la *loopAnalysis) trackScalar(s *state, v ssa.Value, i int) (scalar, bool) {
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return scalar{}, false
	}
	key, names := regKey(v), []ssa.Value{v}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if p, ok := la.paramOf(u.X); ok {
			key, names = regKey(p), append(names, p)
		} else if k, ok := la.cellKey(u.X); ok {
			key = k
		} else {
			return scalar{}, false // memory the analysis does not follow
		}
	} else if _, ok := v.(*ssa.Call); ok {
		return scalar{}, false // a call's result is another each time
	}
	s.setTerm(key, term{kind: scalarTerm, comp: int8(i), rel: lexrel.Top(la.k)})
	r := ref{key: key, comp: int8(i)}
	for _, n := range names {
		s.regs[n] = r
	}
	return scalar{r: r, ok: true, rel: lexrel.Any, comp: i}, true
}

// lenTest interprets len(coll) op k, or k op len(coll), for a constant
// k: where it implies that coll is empty (len(coll) == 0, len(coll) < 1),
// coll's term becomes the empty collection. ok is false when the test is
// not of that form.
func (la *loopAnalysis) lenTest(s *state, x, y ssa.Value, op lexrel.Rel) (*state, bool) {
	x, y = la.constOf(x), la.constOf(y)
	coll, k, ok := lenOperand(x, y)
	if !ok {
		coll, k, ok = lenOperand(y, x)
		// k op len: len is related to k by the converse.
		op = op&lexrel.EQ | (op&lexrel.LT)<<2 | (op&lexrel.GT)>>2
	}
	if !ok {
		if la.lenOfCollection(s, x) || la.lenOfCollection(s, y) {
			// len(votes) >= quorum: a count of messages against data
			// excludes no tag an element may have (more may arrive).
			return s, true
		}
		return nil, false
	}
	// Whether some length n >= 1 satisfies n op k.
	if op&lexrel.GT != 0 || op&lexrel.EQ != 0 && k >= 1 || op&lexrel.LT != 0 && k > 1 {
		if _, tracked := la.collectionRef(s, coll); tracked {
			return s, true // len(acks) >= 3: as above
		}
		return nil, false
	}
	if !(op&lexrel.EQ != 0 && k == 0 || op&lexrel.LT != 0 && k > 0) {
		return nil, true // no length satisfies it
	}
	r, ok := la.collectionRef(s, coll)
	if !ok {
		return nil, false
	}
	s = s.clone()
	t := s.terms[r.key]
	t.rel, t.single, t.approx, t.recv, t.direct = lexrel.Empty(la.k), true, false, false, false
	s.setTerm(r.key, t)
	return s, true
}

// lenOfCollection reports whether v is len(c) of a collection of
// messages the analysis tracks.
func (la *loopAnalysis) lenOfCollection(s *state, v ssa.Value) bool {
	coll, ok := lenArg(v)
	if !ok {
		return false
	}
	_, ok = la.collectionRef(s, coll)
	return ok
}

// lenArg returns coll if v is len(coll).
func lenArg(v ssa.Value) (ssa.Value, bool) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, false
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
		return nil, false
	}
	return call.Call.Args[0], true
}

// lenOperand returns coll and k if x is len(coll) and y the constant k.
func lenOperand(x, y ssa.Value) (ssa.Value, int64, bool) {
	coll, ok := lenArg(x)
	if !ok {
		return nil, 0, false
	}
	c, ok := y.(*ssa.Const)
	if !ok {
		return nil, 0, false
	}
	k, ok := int64Const(c)
	return coll, k, ok
}

// constOf is v if it is a constant, or the constant the caller passed
// for the parameter v is loaded from (collect(1, ...)).
func (la *loopAnalysis) constOf(v ssa.Value) ssa.Value {
	if c, ok := la.constArgs[la.paramValue(v)]; ok {
		return c
	}
	return v
}

// taint marks the terms the values vals are computed from (through a few
// instructions) as over-approximated: a test on them the analysis did not
// interpret may exclude some of their vectors on this path.
func (la *loopAnalysis) taint(s *state, vals ...ssa.Value) *state {
	var keys []termKey
	seen := make(map[ssa.Value]bool)
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		r, tracked := s.regs[v]
		if tracked && r.comp == dataComp && !embeddedField(v) {
			// A test of a message's data (m.Stand) says nothing of its
			// tag, nor of the message it was read from. (An embedded
			// header may hold the tag behind a method: m.View().)
			return
		}
		if tracked {
			if t, ok := s.terms[r.key]; ok && !t.approx {
				keys = append(keys, r.key)
			}
		}
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL && !tracked {
			// A load whose register is no longer tracked (dead after
			// the call that tests it): the location it read.
			if l, ok := la.accessPath(u.X); ok {
				if t, ok := s.terms[locKey(l)]; ok && !t.approx {
					keys = append(keys, locKey(l))
				}
			}
		}
		instr, ok := v.(ssa.Instruction)
		if !ok || depth == 0 || seen[v] {
			return
		}
		seen[v] = true
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL && !tracked {
			if a, ok := u.X.(*ssa.Alloc); ok && !a.Heap {
				// A local (h := m.Header(); current(h)): what was
				// stored in it.
				for _, r := range *a.Referrers() {
					if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(a) {
						walk(st.Val, depth-1)
					}
				}
			}
		}
		for _, op := range instr.Operands(nil) {
			if op != nil && *op != nil {
				walk(*op, depth-1)
			}
		}
	}
	for _, v := range vals {
		walk(v, 4)
	}
	if len(keys) == 0 {
		return s
	}
	s = s.clone()
	for _, k := range keys {
		t := s.terms[k]
		t.approx = true
		s.setTerm(k, t)
	}
	return s
}

// restrict restricts s to the executions where x op y.
func (la *loopAnalysis) restrict(s *state, x, y ssa.Value, op lexrel.Rel) *state {
	xs, ys := la.scalarOf(s, x), la.scalarOf(s, y)
	// A component under an enum mapping compared with a constant of the
	// message's enum (vote.Type == PrevoteType): the constant it stands
	// for, where the comparison means the same of both.
	for _, p := range []struct{ comp, other *scalar }{{&xs, &ys}, {&ys, &xs}} {
		if m := la.mappingOf(s, p.comp.r); m != nil && p.comp.ok && p.other.comp < 0 {
			if !mapKeeps(m, op) {
				return la.taint(s, x, y)
			}
			*p.other = throughMap(*p.other, m)
		}
	}
	i := xs.comp
	if i < 0 {
		i = ys.comp
	}
	if xs.comp >= 0 && ys.comp >= 0 && xs.comp != ys.comp {
		return la.taint(s, x, y)
	}
	xc, yc, feasible := narrowConsts(x.Type(), y.Type(), op, xs.consts, ys.consts)
	if !feasible {
		return nil
	}
	if i < 0 {
		if la.nilTest(s, x, y) {
			// A message compared with nil has a tag or none.
			return s
		}
		// Neither side is a tag component: a test of plain data says
		// nothing of the tag, one of a header (m.Hdr != h.hdr()) does,
		// in a way the analysis does not interpret.
		return la.taint(s, x, y)
	}
	// The restriction is exact when one side is the tag itself or a
	// constant of known relation to it; between two other integers (m.B
	// against a local maximum) it keeps each side's possible relations
	// but not how they go together.
	exact := (xs.exactTo(s, i) && (xs.rel == lexrel.EQ || xs.comp != i)) ||
		(ys.exactTo(s, i) && (ys.rel == lexrel.EQ || ys.comp != i))
	xr, yr := xs.relTo(s, i), ys.relTo(s, i)
	nx := xr & composeRel(op, yr)
	ny := yr & composeRel(op.Inverse(), xr)
	if nx == 0 || ny == 0 {
		return nil
	}
	xFresh, yFresh := la.freshScalar(s, xs), la.freshScalar(s, ys)
	s = s.clone()
	var below []term
	for _, side := range []restrictSide{
		{xs, nx, xc, x, exact || xFresh && realisedBy(op, yr)&nx == nx || yFresh && ny == yr},
		{ys, ny, yc, y, exact || yFresh && realisedBy(op.Inverse(), xr)&ny == ny || xFresh && nx == xr},
	} {
		t, ok := la.restrictOne(s, side, i, xs, ys, op)
		if !ok {
			return nil
		}
		if t != nil && t.kind == scalarTerm && t.rel.Component(i)&^lexrel.LE == 0 {
			below = append(below, *t)
		}
	}
	// An integer at or below the tag: so is what it is at least.
	for _, t := range below {
		rel := lexrel.LE
		if t.rel.Component(i) == lexrel.LT {
			rel = lexrel.LT
		}
		s.applyBounds(i, t, rel)
	}
	s.refineAll()
	if op == lexrel.EQ {
		la.markLocal(s, xs, yc)
		la.markLocal(s, ys, xc)
	}
	return s
}

// A restrictSide is one operand of a comparison: what the comparison
// leaves of its relation to component i of the tag and of its constants,
// and whether that is exact.
type restrictSide struct {
	sc     scalar
	rel    lexrel.Rel
	consts constSet
	v      ssa.Value
	exact  bool
}

// restrictOne restricts the term of one operand of a comparison (see
// restrict) in s and returns it (nil for an operand it cannot track);
// false if no value is left. An operand the analysis did not track
// becomes a term of its own.
func (la *loopAnalysis) restrictOne(s *state, side restrictSide, i int, xs, ys scalar, op lexrel.Rel) (*term, bool) {
	if !side.sc.ok {
		// An integer the analysis did not relate to the tag (a
		// parameter, a local): from now on it does.
		sc, ok := la.trackScalar(s, side.v, i)
		if !ok {
			return nil, true
		}
		side.sc = sc
	}
	t := s.terms[side.sc.r.key]
	t.rel = t.rel.Restrict(i, side.rel)
	t.approx = t.approx || !side.exact || t.loose&(1<<i) != 0
	t.fresh &^= 1 << i
	t.geq = t.geq.union(la.lowerBounds(side.sc, xs, ys, op, i))
	if t.kind == scalarTerm && int(t.comp) == i && t.rel.Component(i) == lexrel.EQ && !t.approx {
		// The tag's own component, read and not changed since: what
		// the test showed it at least, the tag is.
		s.curGeq[i] = s.curGeq[i].union(t.geq.filter(func(x bound) bool { return int(x.comp) == i }))
	}
	if side.consts.known {
		t.consts = t.consts.with(i, side.consts)
		if side.consts.n == 1 {
			// A test for one kind (m.Kind == Promise): the code
			// expects that kind here.
			t.kindFree &^= 1 << i
		}
	}
	if t.rel.IsEmpty() {
		return nil, false
	}
	s.setTerm(side.sc.r.key, t)
	// An integer (or a message's component) equal to the tag's
	// component on every path tells the tag's constants too.
	if side.rel == lexrel.EQ && side.consts.known && t.kind != collectionTerm {
		s.cur[i] = side.consts
	}
	return &t, true
}

// nilTest reports whether x == y compares a message or a collection of
// messages with nil.
func (la *loopAnalysis) nilTest(s *state, x, y ssa.Value) bool {
	for _, p := range [][2]ssa.Value{{x, y}, {y, x}} {
		c, ok := p[1].(*ssa.Const)
		if !ok || !c.IsNil() {
			continue
		}
		if r, ok := s.regs[p[0]]; ok && r.comp == wholeComp {
			return true
		}
	}
	return false
}

// freshScalar reports whether sc is a fresh component of a received
// message (see term.fresh).
func (la *loopAnalysis) freshScalar(s *state, sc scalar) bool {
	if !sc.ok || sc.approx {
		return false
	}
	t, ok := s.terms[sc.r.key]
	return ok && t.kind == messageTerm && t.freshAt(sc.comp)
}

// realisedBy is the set of relations to a tag component c that a value x
// the network may set to anything realises while x op y holds, whatever
// y is among the integers whose relation to c is in yr: for y < c, x = y
// is below c and x = c, x = c+1 are above y; but x > y realises x < c
// only if y < c-1, which yr does not say.
func realisedBy(op, yr lexrel.Rel) lexrel.Rel {
	if yr == 0 {
		return 0
	}
	out := lexrel.Any
	for _, r := range []lexrel.Rel{lexrel.LT, lexrel.EQ, lexrel.GT} {
		if yr&r == 0 {
			continue
		}
		var got lexrel.Rel
		for _, b := range []lexrel.Rel{lexrel.LT, lexrel.EQ, lexrel.GT} {
			if op&b == 0 {
				continue
			}
			switch {
			case r == lexrel.EQ:
				got |= b
			case r == lexrel.LT && b == lexrel.GT:
				got |= lexrel.EQ | lexrel.GT
			case r == lexrel.LT:
				got |= lexrel.LT
			case r == lexrel.GT && b == lexrel.LT:
				got |= lexrel.LT | lexrel.EQ
			default: // r == GT, x >= y
				got |= lexrel.GT
			}
		}
		out &= got
	}
	return out
}

// narrowConsts is what x op y tells of the constants x and y may hold
// (xc and yc, of x's and y's types); false if no pair of them satisfies it.
func narrowConsts(xt, yt types.Type, op lexrel.Rel, xc, yc constSet) (constSet, constSet, bool) {
	// Equal to a value of known constants: so is the other side.
	if op == lexrel.EQ && xc.known != yc.known {
		if xc.known {
			yc = xc
		} else {
			xc = yc
		}
	}
	// An unsigned integer at most a small constant is one of the few
	// values from 0 to it (p.phase > 0 false: p.phase is 0).
	if !xc.known && yc.known {
		xc = belowUnsigned(xt, op, yc)
	}
	if !yc.known && xc.known {
		yc = belowUnsigned(yt, op.Inverse(), xc)
	}
	if xc.known && yc.known {
		x0, y0 := xc, yc
		xc = xc.filter(func(a int64) bool {
			return y0.filter(func(b int64) bool { return cmpRel(a, b)&op != 0 }).n > 0
		})
		yc = yc.filter(func(b int64) bool {
			return x0.filter(func(a int64) bool { return cmpRel(a, b)&op != 0 }).n > 0
		})
		if xc.n == 0 || yc.n == 0 {
			return xc, yc, false
		}
	}
	return xc, yc, true
}

// belowUnsigned is what an integer of type t is when it is op (< or <=)
// a value of the constants c, if t is unsigned and that leaves at most
// maxConsts values: 0 up to the largest; unknown otherwise.
func belowUnsigned(t types.Type, op lexrel.Rel, c constSet) constSet {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsUnsigned == 0 || op&lexrel.GT != 0 || op&(lexrel.LT|lexrel.EQ) == 0 {
		return unknownConsts
	}
	vals := c.values()
	if len(vals) == 0 {
		return unknownConsts
	}
	hi := slices.Max(vals)
	if op&lexrel.EQ == 0 {
		hi--
	}
	if hi < 0 || hi >= maxConsts {
		return unknownConsts
	}
	out := constsOf()
	for v := int64(0); v <= hi; v++ {
		out = out.add(v)
	}
	return out
}

// markLocal interprets a test that a received message's component equals
// the constant of one of its type's //sync:local conditions (m.GetTerm()
// == 0): on this path the message is a local event of the process, not a
// network message, and no condition is about it.
func (la *loopAnalysis) markLocal(s *state, side scalar, other constSet) {
	if !side.ok || side.comp < 0 || !other.known || other.n != 1 {
		return
	}
	t, ok := s.terms[side.r.key]
	if !ok || t.kind != messageTerm || t.msg == nil || len(t.msg.Locals) == 0 || int(side.comp) >= len(t.msg.Components) {
		return
	}
	comp := t.msg.Components[side.comp]
	for _, lc := range t.msg.Locals {
		if lc.Value == nil {
			continue
		}
		v, ok := constant.Int64Val(constant.ToInt(lc.Value))
		if !ok || v != other.v[0] || lc.Left.Text != comp.Text {
			continue
		}
		t.rel = equalSet(la.k)
		t.recv, t.direct, t.approx, t.unset = false, false, false, 0
		s.setTerm(side.r.key, t)
		delete(s.pending, side.r.key)
		return
	}
}

// lowerBounds are the facts side (x or y of x op y) gains from the test:
// if it is at least the other, it is at least what the other is at least.
func (la *loopAnalysis) lowerBounds(side, xs, ys scalar, op lexrel.Rel, i int) bounds {
	other := ys
	if side.r != xs.r {
		other, op = xs, op.Inverse()
	}
	if op&^lexrel.GE != 0 || other.comp != i {
		return bounds{}
	}
	return other.geq.filter(func(x bound) bool { return int(x.comp) == i })
}

// typeAssert makes the asserted value hold what the interface holds; an
// interface received whole (whose message type the receive did not say)
// becomes a message of the asserted type.
func (la *loopAnalysis) typeAssert(s *state, in *ssa.TypeAssert) {
	r, ok := s.regs[in.X]
	if !ok {
		delete(s.regs, in)
		return
	}
	m := la.msgOf(in.AssertedType)
	if t := s.terms[r.key]; m != nil && t.kind == messageTerm && t.msg == nil {
		nt := la.freshMessage(s, m, t.recv, t.at)
		nt.rel = nt.rel.Intersect(t.rel)
		nt.direct = t.direct
		nt.approx = t.inexact()
		nt.kindFree = t.kindFree
		nt.loose = t.loose
		s.setTerm(regKey(in), nt)
		s.regs[in] = ref{key: regKey(in), comp: r.comp}
		return
	}
	if !in.CommaOk {
		// x.(T) panics unless x is a T.
		if out := la.narrowToType(s, in); out != s {
			*s = *out
		}
	}
	s.regs[in] = r
}

// narrowToType gives the interface message in.X the constant components
// of the asserted type's mapping (a Step() method returning Commit): on
// the path where the assertion holds, the message is of that type, and
// the kind the driver chose is known.
func (la *loopAnalysis) narrowToType(s *state, in *ssa.TypeAssert) *state {
	r, ok := s.regs[in.X]
	if !ok || r.comp != wholeComp {
		return s
	}
	t, ok := s.terms[r.key]
	m := la.msgOf(in.AssertedType)
	if !ok || t.kind != messageTerm || t.msg == nil || !t.msg.Interface() || m == nil || m == t.msg || len(m.Components) != len(t.msg.Components) {
		return s
	}
	out := s.clone()
	for i, c := range m.Components {
		if i >= la.k || c.Kind != annotations.Const || c.Value == nil {
			continue
		}
		v, ok := constInt64(c)
		if !ok {
			continue
		}
		t.consts = t.consts.with(i, constsOf(v))
		t.kindFree &^= 1 << i
	}
	out.setTerm(r.key, t)
	out.refine(r.key)
	if out.terms[r.key].rel.IsEmpty() {
		return nil
	}
	return out
}

// extract picks a result out of a tuple: the message of a receive or of a
// comma-ok assertion (index 0), the element of a map's range (index 2).
func (la *loopAnalysis) extract(s *state, in *ssa.Extract) {
	if _, isNext := in.Tuple.(*ssa.Next); isNext {
		if r, ok := s.regs[in.Tuple]; ok && in.Index == 2 {
			la.elementOf(s, in, ref{key: r.key, comp: wholeComp})
			return
		}
		delete(s.regs, in)
		return
	}
	if sel, isSelect := in.Tuple.(*ssa.Select); isSelect {
		la.selectValue(s, sel, in)
		return
	}
	if in.Index == 0 {
		la.alias(s, in, in.Tuple)
		return
	}
	delete(s.regs, in)
}
