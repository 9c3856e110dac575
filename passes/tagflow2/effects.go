package tagflow2

import (
	"fmt"
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

// storePart records a part of a message that carries tag components
// (b := p.Block) stored into a local: a field of the local (b.Round) is
// then the message's component. Anything else stored there ends that. It
// reports whether the store was one of a part.
func storePart(s *state, addr, val ssa.Value) bool {
	a, ok := addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	if vr, ok := s.regs[val]; ok && vr.comp == partComp {
		s.regs[a] = vr
		return true
	}
	if r, ok := s.regs[a]; ok && r.comp == partComp {
		delete(s.regs, a)
	}
	return false
}

// storeBool keeps, for a boolean stored at addr, the value it holds when
// that is a comparison, a constant or a flag the branches can read back.
func (la *loopAnalysis) storeBool(s *state, addr, val ssa.Value) {
	l, ok := la.accessPath(addr)
	if !ok {
		return
	}
	switch val.(type) {
	case *ssa.BinOp, *ssa.Const, *ssa.UnOp, *ssa.Call, *ssa.Phi, *ssa.Extract:
		s.setBool(l, val)
	default:
		delete(s.bools, l)
	}
}

// store interprets *addr = val.
func (la *loopAnalysis) store(s *state, addr, val ssa.Value, instr ssa.Instruction) {
	la.checkStaleWrite(s, addr, instr)
	la.noteEmptied(s, addr, val)
	if storePart(s, addr, val) {
		return
	}
	if i, ok := la.syncIndex(addr); ok {
		if st, ok := instr.(*ssa.Store); ok && la.jump(s, st) {
			return
		}
		la.assignSync(s, i, val)
		return
	}
	if isBool(val.Type()) {
		la.storeBool(s, addr, val)
	}
	if p, ok := val.(*ssa.Parameter); ok {
		// A parameter spilled to its local: the caller's value, not a new
		// store.
		if r, ok := s.regs[p]; ok {
			if ar, ok := la.addrRef(s, addr); ok && ar.comp == wholeComp {
				s.setTerm(ar.key, s.terms[r.key])
			}
		}
		return
	}
	if la.storesWholeSync(addr) {
		if la.storeSyncLiteral(s, addr, val) || la.storeSyncFromMessage(s, addr, val) {
			return
		}
		// The struct holding the tag is written whole (*p = process{...}):
		// every component it holds becomes what the value has, which the
		// analysis does not follow.
		for i := range la.k {
			if len(la.loop.Vars[i].Fields) > 0 {
				s.assignCur(i, lexrel.Any, unknownConsts, ref{}, false, true)
			}
		}
		return
	}
	r, ok := la.addrRef(s, addr)
	if !ok {
		la.storeCell(s, addr, val)
		la.storeUntracked(s, addr, val, instr)
		return
	}
	switch {
	case r.comp == wholeComp:
		if !la.appendsTo(s, val, r.key) {
			s.forgetElements(r.key)
		}
		la.rebind(s, r.key)
		la.dropParts(s, r.key)
		old := s.terms[r.key]
		vr, ok := s.regs[val]
		if !ok && la.msgOf(val.Type()) != nil && isPointer(val.Type()) {
			// The address of a message variable (mb.pp = &m): the
			// message it holds.
			vr, ok = la.addrRef(s, val)
		}
		if ok && vr.comp == wholeComp {
			t := s.terms[vr.key]
			t.kind = old.kind
			if old.envField > 0 && la.envelopeField(addr.Type().Underlying().(*types.Pointer).Elem()) < 0 {
				// The message put in an envelope's message field: the
				// location still holds the envelope.
				t.envField = old.envField
			}
			if old.kind == collectionTerm && s.terms[vr.key].kind == messageTerm {
				// A single message stored as a collection's content.
				t.kind = collectionTerm
			}
			s.setTerm(r.key, t)
			if must, ok := s.pending[vr.key]; ok && vr.key.reg != nil {
				// A message read out of a pending mailbox, now kept
				// in a variable (p := got[0]): the variable owes
				// the jump, and a jump through it settles it.
				delete(s.pending, vr.key)
				if _, ok := s.pending[r.key]; !ok {
					s.setPending(r.key, must)
				}
			}
			la.stored(s, r.key, t, addr, instr)
			return
		}
		// nil, a zero value, or a value the analysis does not follow.
		if old.kind == collectionTerm {
			empty := isNilOrZero(val)
			t := term{kind: collectionTerm, rel: lexrel.Empty(la.k), msg: old.msg, single: true}
			if !empty {
				t.single = false
				t.rel, t.recv, t.approx = lexrel.Top(la.k), true, true
			}
			s.setTerm(r.key, t)
			delete(s.pending, r.key)
			return
		}
		s.setTerm(r.key, la.freshMessage(s, old.msg, !isNilOrZero(val), token.NoPos))
	case r.comp >= 0:
		la.rebind(s, r.key)
		sc := la.scalarOf(s, val)
		if m := la.mappingOf(s, r); m != nil {
			sc = throughMap(sc, m)
		}
		t := s.terms[r.key]
		rel := sc.relTo(s, int(r.comp))
		t.rel = t.rel.Assign(int(r.comp), rel)
		t.approx = t.approx || !sc.exactTo(s, int(r.comp))
		t.unset &^= 1 << r.comp
		t.fresh &^= 1 << r.comp
		t.consts = t.consts.with(int(r.comp), sc.consts)
		s.setTerm(r.key, t)
	case r.comp == elemComp:
		la.storeElement(s, addr, val, instr)
	case r.comp == partComp:
		la.storeHeader(s, r.key, addr, val)
	}
}

// storeHeader interprets m.Hdr = h, a store to a field of a message that
// holds tag components (a nested header): each component under it takes
// the value of the matching field of h when h is a composite literal
// (naive SSA builds one field by field in a local just before), and
// becomes unknown otherwise.
func (la *loopAnalysis) storeHeader(s *state, key termKey, addr, val ssa.Value) {
	t, ok := s.terms[key]
	if !ok || t.msg == nil {
		return
	}
	prefix, ok := la.pathFrom(s, key, addr)
	if !ok {
		return
	}
	lit, isLit := literalFields(val, nil, make(map[string]ssa.Value))
	builder := false
	if !isLit {
		// A header built by a method of the package from the tag
		// (Hdr: r.hdr(), where hdr returns Header{View: r.view, ...}).
		lit, isLit = la.builtHeader(val)
		builder = isLit
	}
	la.rebind(s, key)
	t.fresh = 0
	for i, c := range t.msg.Components {
		if i >= la.k || !hasFieldPath(c) || len(c.FieldIndex) <= len(prefix) || !equalInts(c.FieldIndex[:len(prefix)], prefix) {
			continue
		}
		rest := c.FieldIndex[len(prefix):]
		v, found := lit[pathString(rest)]
		if !found && isLit && la.copiesTagStruct(lit, rest, i) {
			// Hdr: Header{Zxid: p.zxid}: the tag's own component.
			t.rel = t.rel.Assign(i, lexrel.EQ)
			t.unset &^= 1 << i
			t.consts = t.consts.with(i, s.cur[i])
			continue
		}
		if !found && isLit {
			// A field the literal leaves out: zero.
			v, found = ssa.NewConst(constant.MakeInt64(0), c.Fields[len(c.Fields)-1].Type()), true
		}
		if !found {
			t.rel = t.rel.Assign(i, lexrel.Any)
			t.approx = true
			t.consts = t.consts.with(i, unknownConsts)
			t.unset &^= 1 << i
			continue
		}
		if builder {
			if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
				if j, ok := la.syncIndex(ld.X); ok && j == i {
					// The builder copies the tag's component.
					t.rel = t.rel.Assign(i, lexrel.EQ)
					t.unset &^= 1 << i
					t.consts = t.consts.with(i, s.cur[i])
					continue
				}
			}
			if _, ok := v.(*ssa.Const); !ok {
				t.rel = t.rel.Assign(i, lexrel.Any)
				t.approx = true
				t.consts = t.consts.with(i, unknownConsts)
				t.unset &^= 1 << i
				continue
			}
		}
		sc := la.scalarOf(s, v)
		if c.Kind == annotations.Mapped {
			sc = throughMap(sc, c.Map)
		}
		t.rel = t.rel.Assign(i, sc.relTo(s, i))
		t.approx = t.approx || !sc.exactTo(s, i)
		t.unset &^= 1 << i
		t.consts = t.consts.with(i, sc.consts)
	}
	s.setTerm(key, t)
}

// copiesTagStruct reports whether the literal lit sets a field on the way
// to path (the path of tag component i in the message's part) to the
// struct of the tag that holds component i at the same place below it
// (Header{Zxid: p.zxid} for the tag zxid.Epoch,zxid.Counter).
func (la *loopAnalysis) copiesTagStruct(lit map[string]ssa.Value, path []int, i int) bool {
	for k := 1; k < len(path); k++ {
		v, ok := lit[pathString(path[:k])]
		if !ok {
			continue
		}
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return false
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		if !ok || !la.storesWholeSync(fa) {
			return false
		}
		held := fieldOf(fa)
		if held == nil {
			return false
		}
		suffix, under, ok := la.heldPath(fa, held, i)
		return under && ok && slices.Equal(suffix, path[k:])
	}
	return false
}

// builtHeader recognises val as the result of a call of a one-block
// function of the package that returns a composite literal, and gives
// that literal's fields (values of the callee's frame: only its loads of
// the tag's components and its constants mean something here).
func (la *loopAnalysis) builtHeader(val ssa.Value) (map[string]ssa.Value, bool) {
	c, ok := val.(*ssa.Call)
	if !ok {
		return nil, false
	}
	f := c.Call.StaticCallee()
	if f == nil || pkgOf(f) != la.fn.Pkg || len(f.Blocks) != 1 {
		return nil, false
	}
	instrs := f.Blocks[0].Instrs
	ret, ok := instrs[len(instrs)-1].(*ssa.Return)
	if !ok || len(ret.Results) != 1 {
		return nil, false
	}
	for _, in := range instrs {
		if st, ok := in.(*ssa.Store); ok {
			if _, isSync := la.syncIndex(st.Addr); isSync {
				return nil, false // it changes the tag
			}
		}
	}
	return literalFields(throughLocal(ret.Results[0]), nil, make(map[string]ssa.Value))
}

// fieldAddrChain is the value v selects fields of through a chain of
// field addresses (&m.Hdr.Zxid: m's address), and the field indices in
// order ([Hdr, Zxid]); v itself and no path when v is no field address.
func fieldAddrChain(v ssa.Value) (ssa.Value, []int) {
	var path []int
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return v, path
		}
		path = append([]int{fa.Field}, path...)
		v = fa.X
	}
}

// pathFrom is the path of field indices from the message under key to
// addr, a chain of field addresses.
func (la *loopAnalysis) pathFrom(s *state, key termKey, addr ssa.Value) ([]int, bool) {
	var path []int
	for x := addr; ; {
		fa, ok := x.(*ssa.FieldAddr)
		if !ok {
			return nil, false
		}
		path = append([]int{fa.Field}, path...)
		if r, ok := s.regs[fa.X]; ok && r.key == key {
			return path, true
		}
		if r, ok := la.addrRef(s, fa.X); ok && r.key == key {
			return path, true
		}
		x = fa.X
	}
}

// literalFields collects, for val loaded from a composite literal's
// local, the value stored to each field path (nested literals
// included), keyed by pathString; it reports whether val is one.
func literalFields(val ssa.Value, prefix []int, out map[string]ssa.Value) (map[string]ssa.Value, bool) {
	ld, ok := val.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return out, false
	}
	a, ok := ld.X.(*ssa.Alloc)
	if !ok || a.Comment != "complit" || a.Block() != ld.Block() {
		return out, false
	}
	for _, instr := range a.Block().Instrs {
		if instr == ssa.Instruction(ld) {
			break
		}
		st, ok := instr.(*ssa.Store)
		if !ok {
			continue
		}
		x, path := fieldAddrChain(st.Addr)
		if x != ssa.Value(a) || len(path) == 0 {
			continue
		}
		full := append(slices.Clone(prefix), path...)
		if _, nested := literalFields(st.Val, full, out); !nested {
			out[pathString(full)] = st.Val
		}
	}
	return out, true
}

func pathString(path []int) string {
	var b strings.Builder
	for _, i := range path {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('.')
	}
	return b.String()
}

// appendsTo reports whether val is append(x, ...) for an x that holds
// what the location under key holds: the new content keeps the old
// elements.
func (la *loopAnalysis) appendsTo(s *state, val ssa.Value, key termKey) bool {
	c, ok := val.(*ssa.Call)
	if !ok {
		return false
	}
	if b, ok := c.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" || len(c.Call.Args) == 0 {
		return false
	}
	r, ok := s.regs[c.Call.Args[0]]
	return ok && r.key == key
}

func isNilOrZero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && (c.Value == nil || c.IsNil())
}

// storeSyncLiteral interprets a composite literal stored whole into a
// struct on the tag's paths (p.zxid = Zxid{Epoch: p.zxid.Epoch + 1}):
// each component it holds takes the literal's field, zero where the
// literal leaves it out. It reports false when val is no literal.
func (la *loopAnalysis) storeSyncLiteral(s *state, addr, val ssa.Value) bool {
	lit, ok := literalFields(val, nil, make(map[string]ssa.Value))
	if !ok {
		return false
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	held := fieldOf(fa)
	if held == nil {
		return false
	}
	type part struct {
		i int
		v ssa.Value
	}
	var parts []part
	for i, sv := range la.loop.Vars {
		path, under, ok := la.heldPath(fa, held, i)
		if !under {
			continue
		}
		if !ok {
			return false
		}
		v, found := lit[pathString(path)]
		if !found {
			v = ssa.NewConst(constant.MakeInt64(0), sv.Fields[len(sv.Fields)-1].Type())
		}
		parts = append(parts, part{i, v})
	}
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		la.assignSync(s, p.i, p.v)
	}
	return true
}

// storeSyncFromMessage interprets a store of a message's sub-struct into
// the struct of the tag that has the same shape (p.zxid = m.Hdr.Zxid, with
// the tag zxid.Epoch,zxid.Counter and the mapping
// Hdr.Zxid.Epoch,Hdr.Zxid.Counter): the components the struct holds are
// set to the message's, together, as a jump to it. It reports false when
// val is not such a part of a message, or some component the struct holds
// is not the message's component at the same place.
func (la *loopAnalysis) storeSyncFromMessage(s *state, addr, val ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	key, t, mask, ok := la.sameShapePart(s, fa, val)
	if !ok {
		return false
	}
	for i := range la.k {
		if mask&(1<<i) != 0 && t.rel.Component(i) != lexrel.EQ {
			la.tagMoved(s, i, true)
		}
	}
	s.assignFrom(key, mask)
	return true
}

// sameShapePart recognises val as a load of a part of a message
// (m.Hdr.Zxid) whose fields are, at the same places, the message's
// components for the tag components the struct at fa holds (p.zxid): it
// returns the message's key and term and those components.
func (la *loopAnalysis) sameShapePart(s *state, fa *ssa.FieldAddr, val ssa.Value) (termKey, term, uint, bool) {
	held := fieldOf(fa)
	ld, ok := val.(*ssa.UnOp)
	if held == nil || !ok || ld.Op != token.MUL {
		return termKey{}, term{}, 0, false
	}
	x, path := fieldAddrChain(ld.X)
	r, ok := la.addrRef(s, x)
	if !ok || r.comp != wholeComp || len(path) == 0 {
		return termKey{}, term{}, 0, false
	}
	t, ok := s.terms[r.key]
	if !ok || t.kind != messageTerm || t.msg == nil || t.envField != 0 {
		return termKey{}, term{}, 0, false
	}
	var mask uint
	for i := range la.loop.Vars {
		suffix, under, ok := la.heldPath(fa, held, i)
		if !under {
			continue
		}
		if !ok || i >= len(t.msg.Components) {
			return termKey{}, term{}, 0, false
		}
		c := t.msg.Components[i]
		if c.Kind != annotations.Field || !slices.Equal(c.FieldIndex, append(slices.Clone(path), suffix...)) {
			return termKey{}, term{}, 0, false
		}
		mask |= 1 << i
	}
	return r.key, t, mask, mask != 0
}

// nothingBetween reports whether from and to are in one block, from first,
// with no store or call between them.
func nothingBetween(from, to ssa.Instruction) bool {
	b := from.Block()
	if b != to.Block() {
		return false
	}
	i, j := slices.Index(b.Instrs, from), slices.Index(b.Instrs, to)
	if i < 0 || j < i {
		return false
	}
	for _, in := range b.Instrs[i+1 : j] {
		switch in.(type) {
		case *ssa.Store, ssa.CallInstruction:
			return false
		}
	}
	return true
}

// structTest interprets a branch on cmp, x == y (eq) or x != y, between a part
// of a message and the struct of the tag of the same shape (m.Hdr.Zxid ==
// p.zxid): equal, the message's components are the tag's. It reports
// false when x and y are not such a pair.
func (la *loopAnalysis) structTest(s *state, cmp *ssa.BinOp, eq bool) (*state, bool) {
	for _, p := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
		ld, ok := p[1].(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || !nothingBetween(ld, cmp) {
			continue // the tag read here may not be the tag at the test
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		if !ok || !la.storesWholeSync(fa) {
			continue
		}
		key, t, mask, ok := la.sameShapePart(s, fa, p[0])
		if !ok {
			continue
		}
		if !eq {
			return s, true // some component differs: nothing to learn
		}
		for i := range la.k {
			if mask&(1<<i) != 0 {
				t.rel = t.rel.Restrict(i, lexrel.EQ)
			}
		}
		if t.rel.IsEmpty() {
			return nil, true
		}
		s = s.clone()
		s.setTerm(key, t)
		s.refine(key)
		return s, true
	}
	return nil, false
}

// heldPath is the path, below the struct field held that fa addresses, of
// tag component i: under reports whether the struct holds component i
// (p.zxid holds zxid.Epoch), ok whether the path could be resolved.
func (la *loopAnalysis) heldPath(fa *ssa.FieldAddr, held *types.Var, i int) (path []int, under, ok bool) {
	sv := la.loop.Vars[i]
	j := slices.IndexFunc(sv.Fields, func(f *types.Var) bool { return f.Origin() == held.Origin() })
	if j < 0 || j == len(sv.Fields)-1 || !matchesPath(fa, sv.Fields[:j+1]) {
		return nil, false, false
	}
	path, ok = fieldIndices(held.Type(), sv.Fields[j+1:])
	return path, true, ok
}

// fieldIndices are the indices of the fields path, selected one after the
// other from a value of type t.
func fieldIndices(t types.Type, path []*types.Var) ([]int, bool) {
	var out []int
	for _, f := range path {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil, false
		}
		idx := -1
		for k := range st.NumFields() {
			if st.Field(k).Origin() == f.Origin() {
				idx = k
			}
		}
		if idx < 0 {
			return nil, false
		}
		out = append(out, idx)
		t = f.Type()
	}
	return out, true
}

// storesWholeSync reports whether addr is the address of a struct that
// holds a synchronization variable's last field (so a store to it writes
// the tag).
func (la *loopAnalysis) storesWholeSync(addr ssa.Value) bool {
	p, ok := addr.Type().Underlying().(*types.Pointer)
	if !ok || !la.holdsSync(p.Elem()) {
		return false
	}
	switch a := addr.(type) {
	case *ssa.IndexAddr:
		return false // an element of a slice or array: a copy, not the process's
	case *ssa.Alloc:
		return a.Comment != "complit" && a.Comment != "varargs"
	case *ssa.FieldAddr:
		// A struct on a tag variable's path (p.zxid of
		// p.zxid.Epoch): only the process's own.
		for _, sv := range la.loop.Vars {
			for k := range len(sv.Fields) - 1 {
				if matchesPath(a, sv.Fields[:k+1]) {
					return true
				}
			}
		}
		return false
	}
	return true
}

// holdsSync reports whether t is a struct with a field that is a
// synchronization variable's last field.
func (la *loopAnalysis) holdsSync(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for _, sv := range la.loop.Vars {
		if len(sv.Fields) == 0 {
			continue
		}
		last := sv.Fields[len(sv.Fields)-1].Origin()
		for f := range st.Fields() {
			if f.Origin() == last {
				return true
			}
		}
	}
	return false
}

// assignSync interprets component i of the tag := val.
func (la *loopAnalysis) assignSync(s *state, i int, val ssa.Value) {
	s.unknownAt[i] = token.NoPos
	if d, ok := la.stepOf(val, i); ok {
		la.tagMoved(s, i, false)
		s.stepCur(i, d)
		return
	}
	sc := la.scalarOf(s, val)
	rel := sc.relTo(s, i)
	consts := sc.consts
	exact := sc.exactTo(s, i)
	if sc.comp != i && sc.comp >= 0 {
		rel, consts, exact = lexrel.Any, unknownConsts, false
	}
	if rel != lexrel.EQ {
		la.tagMoved(s, i, sc.recv)
	}
	s.assignCur(i, rel, consts, sc.r, sc.ok, !exact)
	if sc.comp == i {
		s.curGeq[i] = sc.geq.filter(func(x bound) bool { return int(x.comp) == i })
	}
}

// jump interprets a tuple assignment of the tag from one message
// (r.view, r.op = p.Hdr.View, p.Hdr.Op): the stores of the components
// that follow st in its block, each taking the same message's component,
// are one update, so that how the message's components relate to the tag
// together is kept (a later view, or the same view and a later op). It
// reports false when st is not the first of two or more such stores.
func (la *loopAnalysis) jump(s *state, st *ssa.Store) bool {
	if la.skipStores[st] {
		delete(la.skipStores, st)
		return true
	}
	first, ok := s.regs[st.Val]
	if !ok || first.comp < 0 {
		return false
	}
	t, ok := s.terms[first.key]
	if !ok || t.kind != messageTerm {
		return false
	}
	var stores []*ssa.Store
	var mask uint
	instrs := st.Block().Instrs
	for idx := slices.Index(instrs, ssa.Instruction(st)); idx < len(instrs); idx++ {
		next, ok := instrs[idx].(*ssa.Store)
		if !ok {
			if addressing(instrs[idx]) {
				continue // the address of the next component's store
			}
			break
		}
		i, isSync := la.syncIndex(next.Addr)
		if !isSync || mask&(1<<i) != 0 {
			break
		}
		r, tracked := s.regs[next.Val]
		if !(tracked && r.key == first.key && int(r.comp) == i) && !la.msgConst(s, t, i, next.Val) {
			break
		}
		mask |= 1 << i
		stores = append(stores, next)
	}
	if len(stores) < 2 {
		return false
	}
	for _, next := range stores[1:] {
		la.skipStores[next] = true
	}
	for i := range la.k {
		if mask&(1<<i) != 0 && t.rel.Component(i) != lexrel.EQ {
			la.tagMoved(s, i, true)
		}
	}
	s.assignFrom(first.key, mask)
	return true
}

// msgConst reports whether val is the constant that the message t's type
// gives component i (enter(m.Phase, StepCollect) for a message mapped
// Phase,StepCollect): part of a jump to t's tag.
func (la *loopAnalysis) msgConst(s *state, t term, i int, val ssa.Value) bool {
	if t.msg == nil || i >= len(t.msg.Components) || t.msg.Components[i].Kind != annotations.Const {
		return false
	}
	want, ok := constInt64(t.msg.Components[i])
	if !ok {
		return false
	}
	c := la.scalarOf(s, val).consts
	return c.known && c.n == 1 && c.v[0] == want
}

// addressing reports whether instr only computes an address or reads
// memory: the steps between the stores of a tuple assignment.
func addressing(instr ssa.Instruction) bool {
	switch in := instr.(type) {
	case *ssa.FieldAddr, *ssa.IndexAddr:
		return true
	case *ssa.UnOp:
		return in.Op == token.MUL
	}
	return false
}

// stepOf recognises val as component i of the tag plus or minus one
// (p.r++, p.r = p.r + 1).
func (la *loopAnalysis) stepOf(val ssa.Value, i int) (int64, bool) {
	b, ok := val.(*ssa.BinOp)
	if !ok || (b.Op != token.ADD && b.Op != token.SUB) {
		return 0, false
	}
	ld, ok := b.X.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return 0, false
	}
	if j, ok := la.syncIndex(ld.X); !ok || j != i {
		return 0, false
	}
	c, ok := b.Y.(*ssa.Const)
	if !ok {
		return 0, false
	}
	d, ok := int64Const(c)
	if !ok || (d != 1 && d != -1) {
		return 0, false
	}
	if b.Op == token.SUB {
		d = -d
	}
	return d, true
}

// storeElement interprets coll[_] = val: a weak update, the collection's
// elements now include val.
func (la *loopAnalysis) storeElement(s *state, coll, val ssa.Value, instr ssa.Instruction) {
	r, ok := s.regs[coll]
	if !ok {
		if r, ok = la.collectionRef(s, coll); !ok {
			la.storeUntracked(s, coll, val, instr)
			return
		}
	}
	c, ok := s.terms[r.key]
	if !ok || c.kind != collectionTerm {
		return
	}
	s.dropBoundsOn(r.key)
	vr, ok := s.regs[val]
	if !ok || vr.comp != wholeComp {
		c.rel, c.recv, c.approx = lexrel.Top(la.k), true, true
		s.setTerm(r.key, c)
		return
	}
	v := s.terms[vr.key]
	// A slice's or an array's length is what it was; a map may get a key.
	_, isMap := coll.Type().Underlying().(*types.Map)
	single := c.single && (!isMap || c.rel.IsEmpty())
	c = c.join(term{kind: collectionTerm, rel: v.rel, consts: v.consts, recv: v.recv, direct: v.direct, approx: v.inexact(), kindFree: v.kindFree, loose: v.loose, at: v.at, msg: v.msg, single: true})
	c.single = single
	s.setTerm(r.key, c)
	la.stored(s, r.key, v, coll, instr)
}

// stored is called when the message or collection t was written to the
// location named key (whose address is addr): condition III when it is a
// received message kept beyond the current iteration of the reception,
// and the jump condition IV owes from then on.
func (la *loopAnalysis) stored(s *state, key termKey, t term, addr ssa.Value, instr ssa.Instruction) {
	if !t.direct || !la.inRegion(instr) || !la.persistent(addr, instr) {
		return
	}
	la.checkIII(s, t, instr.Pos(), "stored")
	if lex := la.carriedRel(t).Lex(); lex&lexrel.GT != 0 {
		if _, ok := s.pending[key]; !ok {
			s.setPending(key, lex == lexrel.GT)
		}
	}
}

// carriedRel is t's relation to the tag on the components its message
// type carries: a message that does not carry the round is of a later
// round only if it is on the components it carries.
func (la *loopAnalysis) carriedRel(t term) lexrel.Set {
	if t.msg == nil || !t.msg.Partial() {
		return t.rel
	}
	r := t.rel
	mapped := la.mapped(t.msg)
	for i := range la.k {
		if !slices.Contains(mapped, i) {
			r = r.Assign(i, lexrel.EQ)
		}
	}
	return r
}

// persistent reports whether the location addr points to outlives the
// current iteration of the innermost loop around instr: a variable
// declared outside it, a field, a global. A variable of the iteration (the
// m of m := recv()) is not a mailbox.
func (la *loopAnalysis) persistent(addr ssa.Value, instr ssa.Instruction) bool {
	l, ok := la.accessPath(addr)
	if !ok {
		return true
	}
	a, ok := l.base.(*ssa.Alloc)
	if !ok || a.Heap && strings.Contains(l.path, "*") {
		return true
	}
	nl := la.innermost(instr.Block())
	if la.loop.Handler != nil && nl == nil && !strings.Contains(l.path, "*") {
		// A handler's local outside any loop lives for one step (what
		// it points to may not).
		return false
	}
	if a.Parent() != la.fn {
		// A local of a called function is a mailbox when it outlives an
		// iteration of the reception loop around the store (collect's
		// got); without a loop it dies with the call, and what it holds
		// reaches the loop only through the function's results.
		return nl != nil && !nl.blocks[a.Block()]
	}
	return nl == nil || !nl.blocks[a.Block()]
}

// storeUntracked interprets a store to a location the analysis does not
// track: data of the message just received kept in the state is a store
// of that message (condition III). Condition IV is checked at the next
// communication point, not at such updates: the local statements between
// two communication points are one step of the round, so a process may
// record its old ballot, then jump.
func (la *loopAnalysis) storeUntracked(s *state, addr, val ssa.Value, instr ssa.Instruction) {
	if !la.inRegion(instr) || !la.persistent(addr, instr) {
		return
	}
	la.keptVia(s, addr, val, instr)
	if ia, ok := addr.(*ssa.IndexAddr); ok {
		// acks[m.From] = true: the index is the message's data too.
		la.keptKey(s, addr, ia.Index, instr)
	}
}

// keptKey is keptVia for the index or map key k a value is written
// under. Only a message of one known type counts: the data of an
// envelope, or of a message behind an interface, is not related to the
// message its filter tested (e.From of an Envelope whose Msg was tested
// after a type switch).
func (la *loopAnalysis) keptKey(s *state, addr, k ssa.Value, instr ssa.Instruction) {
	vr, ok := s.regs[k]
	if !ok {
		return
	}
	t := s.terms[vr.key]
	if t.msg == nil || t.envField > 0 || !t.direct || t.kind != messageTerm {
		return
	}
	la.keptVia(s, addr, k, instr)
}

// keptVia checks v, written into the state at addr (as the value, or as
// the index or map key it is written under), for data of the message just
// received: a store of that message (condition III), and data a later
// round's message owes a jump for (condition IV).
func (la *loopAnalysis) keptVia(s *state, addr, v ssa.Value, instr ssa.Instruction) {
	if key, ok := la.receivedData(s, v, 3); ok {
		t := s.terms[key]
		if !la.staleWriteChecked(s, addr) {
			la.checkIII(s, t, instr.Pos(), "kept in the state")
		}
		la.keptData(s, addr, t)
	}
}

// receivedData finds the message just received that v is computed from,
// through at most depth instructions (slices.Clone(m.Entries), m.Val+1,
// min(m.Commit, n)): the term's key.
func (la *loopAnalysis) receivedData(s *state, v ssa.Value, depth int) (termKey, bool) {
	if vr, ok := s.regs[v]; ok {
		if t := s.terms[vr.key]; t.direct && t.kind == messageTerm {
			return vr.key, true
		}
		return termKey{}, false
	}
	instr, ok := v.(ssa.Instruction)
	if !ok || depth == 0 {
		return termKey{}, false
	}
	switch instr.(type) {
	case *ssa.Alloc, *ssa.Phi:
		// A variable or a merge: what it holds is the state's, not this
		// computation's.
		return termKey{}, false
	}
	var ops [8]*ssa.Value
	for _, op := range instr.Operands(ops[:0]) {
		if op == nil || *op == nil {
			continue
		}
		if key, ok := la.receivedData(s, *op, depth-1); ok {
			return key, true
		}
	}
	return termKey{}, false
}

// keptData records that data of the message t just received was kept at
// addr (echoes[m.From] = m.Value, a field): if t may be of a later round,
// the jump condition IV owes from then on is owed for that data, under a
// key of its own beside the location's (what the location holds is not a
// message).
func (la *loopAnalysis) keptData(s *state, addr ssa.Value, t term) {
	if la.carriedRel(t).Lex()&lexrel.GT == 0 {
		return
	}
	if ld, ok := addr.(*ssa.UnOp); ok && ld.Op == token.MUL {
		addr = ld.X // a map or slice loaded from its variable
	}
	l, ok := la.accessPath(addr)
	if !ok {
		return
	}
	l.path += "#data"
	key := locKey(l)
	d := term{kind: collectionTerm, rel: t.rel, consts: t.consts, msg: t.msg, recv: true, approx: t.approx, unset: t.unset, kindFree: t.kindFree, loose: t.loose, at: t.at}
	if old, ok := s.terms[key]; ok {
		d = old.join(d)
	}
	s.setTerm(key, d)
	if _, ok := s.pending[key]; !ok {
		s.setPending(key, false)
	}
	// Reads of the data are not followed apart from the location's:
	// take it as read.
	s.setReadPending(key)
}

func (la *loopAnalysis) call(s *state, c *ssa.CallCommon, instr *ssa.Call) {
	if comm := la.commOf(c); comm != nil {
		if comm.Kind == annotations.Send {
			la.send(s, c, instr)
		} else {
			la.recv(s, instr)
		}
		return
	}
	if b, ok := c.Value.(*ssa.Builtin); ok {
		la.builtin(s, b, c, instr)
		return
	}
	if la.methodComponent(s, c, instr) {
		return
	}
	if f := la.followable(c); f != nil {
		la.callFunction(s, f, c, instr)
		return
	}
	la.opaqueCall(s, c, instr)
}

// methodComponent interprets a call of a method that the receiver's
// message type maps as a tag component (m.Height(), m.GetTerm()): its
// result is that component of the message, as a field would be.
func (la *loopAnalysis) methodComponent(s *state, c *ssa.CallCommon, instr *ssa.Call) bool {
	var fn *types.Func
	var recv ssa.Value
	switch {
	case c.IsInvoke():
		fn, recv = c.Method, c.Value
	case c.StaticCallee() != nil && len(c.Args) > 0:
		fn, _ = c.StaticCallee().Object().(*types.Func)
		recv = c.Args[0]
	}
	if fn == nil || instr == nil {
		return false
	}
	r, ok := s.regs[recv]
	if !ok && isPointer(recv.Type()) {
		r, ok = la.addrRef(s, recv)
	}
	if !ok || r.comp != wholeComp && r.comp != partComp && r.comp != dataComp {
		return false
	}
	t, ok := s.terms[r.key]
	if !ok || t.kind != messageTerm || t.msg == nil {
		return false
	}
	var prefix []int
	if r.comp != wholeComp {
		// A method of an embedded header (m.header.View(), what
		// m.View() is when View is promoted): the path of a getter
		// goes through the header's field.
		idx, ok := fieldIndexOf(recv)
		if !ok {
			return false
		}
		prefix = []int{idx}
	}
	direct := prefix == nil || promoted(recv, fn)
	for i, comp := range t.msg.Components {
		if direct && i < la.k && (comp.Kind == annotations.Method || comp.Kind == annotations.Mapped) && comp.Method != nil && comp.Method.Name() == fn.Name() {
			s.regs[instr] = ref{key: r.key, comp: int8(i)}
			return true
		}
	}
	// A getter of a component's field (m.GetPhase() returning m.Phase,
	// protobuf style): that component.
	if g := c.StaticCallee(); g != nil && g.Pkg == la.fn.Pkg {
		if _, index, ok := la.getterPath(g); ok {
			index = append(slices.Clone(prefix), index...)
			for i, comp := range t.msg.Components {
				if i < la.k && comp.Kind == annotations.Field && slices.Equal(comp.FieldIndex, index) {
					s.regs[instr] = ref{key: r.key, comp: int8(i)}
					return true
				}
			}
		}
	}
	return false
}

// fieldIndexOf is the index of the field v selects.
func fieldIndexOf(v ssa.Value) (int, bool) {
	switch f := v.(type) {
	case *ssa.Field:
		return f.Field, true
	case *ssa.FieldAddr:
		return f.Field, true
	}
	return 0, false
}

// promoted reports whether fn, called on recv, a field of a message
// selected in place, is a method the message's own type promotes from
// that embedded field: m.header.View() is m.View().
func promoted(recv ssa.Value, fn *types.Func) bool {
	var outer types.Type
	switch f := recv.(type) {
	case *ssa.Field:
		outer = f.X.Type()
	case *ssa.FieldAddr:
		outer = f.X.Type()
	default:
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(outer, true, fn.Pkg(), fn.Name())
	return obj == fn
}

// ownMethod reports whether operand n of c (in c.Args, then c.Value) is
// the receiver of a method of the message type it holds, with no other
// operand that may reach the process's state: an interface message's
// method called on it, or a method of a message type.
func (la *loopAnalysis) ownMethod(c *ssa.CallCommon, n int) bool {
	var recv ssa.Value
	switch {
	case c.IsInvoke() && n == len(c.Args):
		recv = c.Value
	case !c.IsInvoke() && n == 0 && c.Signature().Recv() != nil && len(c.Args) > 0:
		recv = c.Args[0]
	default:
		return false
	}
	if !la.mayBeMessage(recv.Type()) || la.msgOf(recv.Type()) == nil && !la.interfaceOfMessages(recv.Type()) {
		return false
	}
	for i, a := range c.Args {
		if (c.IsInvoke() || i > 0) && holdsReference(a.Type()) {
			return false
		}
	}
	return true
}

func (la *loopAnalysis) commOf(c *ssa.CallCommon) *annotations.Comm {
	return commOfCall(la.ann, c)
}

func (la *loopAnalysis) send(s *state, c *ssa.CallCommon, instr *ssa.Call) {
	if comm := la.commOf(c); comm != nil && comm.Stamps {
		if mask, ok := la.stampedComponents(c.StaticCallee()); ok {
			// The send puts the current tag's components it writes on
			// what it sends; the others are the caller's (a Kind) and
			// are checked.
			la.sendValuesStamped(s, instr, c.Args, mask)
			return
		}
		// A stamping send whose body the analysis does not see (an
		// interface method): condition II holds by the directive; I
		// and IV are checked as at any send.
		la.sendValues(s, instr, nil)
		return
	}
	la.sendValues(s, instr, c.Args)
}

// stampedComponents is the set of tag components whose fields the
// stamping send f writes into the message it is handed (m.Epoch =
// n.epoch); false when f has no body to read.
func (la *loopAnalysis) stampedComponents(f *ssa.Function) (uint8, bool) {
	if f == nil || len(f.Blocks) == 0 {
		return 0, false
	}
	var mask uint8
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && la.handsMessageOn(call.Common()) {
				// m.stamp(r.round, r.id): what the call writes is not
				// read here; the directive says the tag is put on.
				return 0, false
			}
			st, ok := instr.(*ssa.Store)
			if !ok || !onEveryPath(st.Block()) {
				// A store on some paths only (if m.Term == 0 { m.Term =
				// r.Term }) leaves the caller's value on the others.
				continue
			}
			x, path := fieldAddrChain(st.Addr)
			if len(path) == 0 {
				continue
			}
			m := la.msgOf(derefAll(x.Type())) // through its pointer or spill
			if m == nil {
				continue
			}
			for i, c := range m.Components {
				// A store of the component, or of a header holding it
				// (body.Hdr = Header{...}).
				if cp := la.componentPath(c); i < la.k && len(cp) >= len(path) && slices.Equal(cp[:len(path)], path) {
					mask |= 1 << i
				}
			}
		}
	}
	return mask, true
}

// onEveryPath reports whether b is on every path from its function's
// entry to a return: it dominates every block that returns.
func onEveryPath(b *ssa.BasicBlock) bool {
	for _, r := range b.Parent().Blocks {
		if _, ok := r.Instrs[len(r.Instrs)-1].(*ssa.Return); ok && !b.Dominates(r) {
			return false
		}
	}
	return true
}

// handsMessageOn reports whether the call c, in a stamping send, hands a
// message (or a pointer to one) to code other than a send or a builtin:
// code that may write its tag.
func (la *loopAnalysis) handsMessageOn(c *ssa.CallCommon) bool {
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return false
	}
	if la.commOf(c) != nil {
		return false
	}
	args := c.Args
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, args...)
	}
	for _, a := range args {
		if t := derefAll(a.Type()); la.msgOf(t) != nil || la.interfaceOfMessages(t) {
			return true
		}
	}
	return false
}

// derefAll is what t points to through any number of pointers, or t.
func derefAll(t types.Type) types.Type {
	for {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return t
		}
		t = p.Elem()
	}
}

// componentPath is the field path component c reads: its own, or that
// of the getter it calls (GetTerm() returning m.Term); nil if none.
func (la *loopAnalysis) componentPath(c annotations.Component) []int {
	if hasFieldPath(c) {
		return c.FieldIndex
	}
	if c.Kind == annotations.Method && c.Method != nil {
		if g := la.fn.Prog.FuncValue(c.Method); g != nil {
			if _, index, ok := la.getterPath(g); ok {
				return index
			}
			return optionalFieldPath(g)
		}
	}
	return nil
}

// optionalFieldPath is the field path of an optional (pointer) field
// whose value the getter g returns (protobuf's GetTerm() returning
// *m.Term when both are non-nil), or nil.
func optionalFieldPath(g *ssa.Function) []int {
	for _, b := range g.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		v := throughLocal(ret.Results[0])
		outer, ok := v.(*ssa.UnOp)
		if !ok || outer.Op != token.MUL {
			continue
		}
		inner, ok := outer.X.(*ssa.UnOp)
		if !ok || inner.Op != token.MUL {
			continue
		}
		_, path := fieldAddrChain(inner.X)
		if len(path) > 0 {
			return path
		}
	}
	return nil
}

// sendValuesStamped is sendValues for a stamping send that writes the
// components in mask: the messages sent carry the current tag there.
func (la *loopAnalysis) sendValuesStamped(s *state, instr ssa.Instruction, vals []ssa.Value, mask uint8) {
	pos := instr.Pos()
	if la.inRegion(instr) {
		la.checkI(s, pos)
		la.checkIV(s, instr, "sends")
		for _, a := range vals {
			t, ok, _ := la.sentMessage(s, a)
			if !ok || t.msg == nil {
				continue
			}
			for i := range la.k {
				if mask&(1<<i) != 0 {
					t.rel = t.rel.Assign(i, lexrel.EQ)
					t.consts = t.consts.with(i, s.cur[i])
					t.unset &^= 1 << i
				}
			}
			if la.reporting {
				la.sum.witness.recordSend(instr.Pos(), t)
			}
			la.checkII(s, t, pos)
		}
	}
	s.last = equalSet(la.k)
	s.endDirect()
}

// sendValues is a send of the messages among vals at instr: conditions I,
// II and IV there, and a communication point.
func (la *loopAnalysis) sendValues(s *state, instr ssa.Instruction, vals []ssa.Value) {
	la.sendValuesAt(s, instr, instr.Pos(), vals)
}

// sendValuesAt is sendValues with the findings at pos (a select's case).
func (la *loopAnalysis) sendValuesAt(s *state, instr ssa.Instruction, pos token.Pos, vals []ssa.Value) {
	if !pos.IsValid() {
		pos = instr.Pos()
	}
	if la.inRegion(instr) {
		la.checkI(s, pos)
		la.checkIV(s, instr, "sends")
		for _, a := range vals {
			t, ok, isMsg := la.sentMessage(s, a)
			if ok && la.reporting {
				sent := t
				if im, ok := la.sum.ifaceOf[t.msg]; ok {
					sent.msg = im // sent as the interface message it implements
				}
				la.sum.witness.recordSend(instr.Pos(), sent)
			}
			switch {
			case ok && t.msg != nil:
				la.checkII(s, t, pos)
			case isMsg:
				la.report(2, pos, true, "the message sent is not one the analysis follows")
			}
		}
	}
	s.last = equalSet(la.k)
	s.endDirect()
}

func (la *loopAnalysis) recv(s *state, instr *ssa.Call) {
	la.receivePoint(s, instr)
	t := instr.Type()
	if tup, ok := t.(*types.Tuple); ok && tup.Len() > 0 {
		t = tup.At(0).Type()
	}
	la.received(s, instr, t)
}

// receivePoint is a receive as a communication point: condition I there,
// the end of the previous message's reception, and condition IV when it
// is not part of the reception that stored a later round's message.
func (la *loopAnalysis) receivePoint(s *state, instr ssa.Instruction) {
	if la.inRegion(instr) {
		la.checkI(s, instr.Pos())
		la.checkIV(s, instr, "receives")
	}
	s.last = equalSet(la.k)
	s.endDirect()
}

// received makes v the message just received, of static type t (a
// message type, an interface whose dynamic type is asserted later, or an
// envelope carrying one).
func (la *loopAnalysis) received(s *state, v ssa.Value, t types.Type) {
	key := regKey(v)
	env := la.envelopeField(t)
	if env >= 0 {
		t = t.Underlying().(*types.Struct).Field(env).Type()
	}
	nt := la.freshMessage(s, la.msgOf(t), true, v.Pos())
	nt.direct = true
	nt.approx = false // a message of any round may arrive: every vector is realised
	nt.envField = int8(env + 1)
	la.assumeMsgEnums(s, &nt)
	if nt.msg != nil {
		for i, c := range nt.msg.Components {
			if i < la.k && c.Kind != annotations.Const && c.Kind != annotations.Absent && !nt.consts.at(i).known {
				nt.fresh |= 1 << i
			}
		}
	}
	s.setTerm(key, nt)
	s.regs[v] = ref{key: key, comp: wholeComp}
	s.refine(key)
}

// assumeMsgEnums makes each component of the received message t that is
// kept in the tag's Go enum one of the enum's constants, as the tag's
// own component is assumed to be (see initialParts): a Phase field of a
// message is PhaseEstimate, PhasePropose, ..., never below the first.
func (la *loopAnalysis) assumeMsgEnums(s *state, t *term) {
	if t.msg == nil || s.enums == nil {
		return
	}
	for i, c := range t.msg.Components {
		if i >= la.k || !s.enums[i].known || t.consts.at(i).known {
			continue
		}
		if c.Kind != annotations.Field && c.Kind != annotations.Method {
			continue
		}
		if ct := c.Type(); ct != nil && types.Identical(ct, la.loop.Vars[i].Type) {
			t.consts = t.consts.with(i, s.enums[i])
		}
	}
}

// carriesMessages reports whether a channel's element type may be a
// message: a message type, an interface, or an envelope.
func (la *loopAnalysis) carriesMessages(ch types.Type) (types.Type, bool) {
	c, ok := ch.Underlying().(*types.Chan)
	if !ok {
		return nil, false
	}
	e := c.Elem()
	return e, la.mayBeMessage(e) || la.envelopeField(e) >= 0
}

// mayBeMessage reports whether a value of type t may be a message: a
// message type, a pointer to one, or an interface.
func (la *loopAnalysis) mayBeMessage(t types.Type) bool {
	return la.msgOf(t) != nil || la.interfaceOfMessages(t)
}

// interfaceOfMessages reports whether t is an interface a message type
// (or a pointer to one) implements: a value of another interface (an
// error, a context.Context) is never a message.
func (la *loopAnalysis) interfaceOfMessages(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	v, ok := la.ifaceMsgs[iface]
	if !ok {
		v = ifaceOfMessages(la.ann, iface)
		la.ifaceMsgs[iface] = v
	}
	return v
}

// envelopeField is the index of the field of the struct t that carries a
// message (an envelope: the message and who sent it), or -1 when t is no
// envelope: a struct, not itself a message type, with exactly one field
// that may hold a message.
func (la *loopAnalysis) envelopeField(t types.Type) int {
	if la.msgOf(t) != nil {
		return -1
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || la.holdsSync(t) {
		// The process's own state (it holds the tag) is no envelope.
		return -1
	}
	found := -1
	for i := range st.NumFields() {
		if la.mayBeMessage(st.Field(i).Type()) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// chanRecv interprets <-ch on a channel of messages: a receive.
func (la *loopAnalysis) chanRecv(s *state, u *ssa.UnOp) {
	elem, ok := la.carriesMessages(u.X.Type())
	if !ok {
		delete(s.regs, u)
		return
	}
	la.receivePoint(s, u)
	la.received(s, u, elem)
}

// chanSend interprets ch <- m on a channel of messages: a send.
func (la *loopAnalysis) chanSend(s *state, in *ssa.Send) {
	if _, ok := la.carriesMessages(in.Chan.Type()); !ok {
		return
	}
	la.sendValues(s, in, []ssa.Value{in.X})
}

// selectStmt interprets a select: each case that sends a message is a
// send (checked as if taken), and a select with a case receiving messages
// is a receive point; the values are made by selectValue.
func (la *loopAnalysis) selectStmt(s *state, sel *ssa.Select) {
	recvs := false
	for _, st := range sel.States {
		if _, ok := la.carriesMessages(st.Chan.Type()); !ok {
			continue
		}
		if st.Dir == types.SendOnly {
			la.sendValuesAt(s, sel, st.Pos, []ssa.Value{st.Send})
		} else {
			recvs = true
		}
	}
	if recvs {
		la.receivePoint(s, sel)
	}
}

// selectValue makes the value a select received in one of its cases.
func (la *loopAnalysis) selectValue(s *state, sel *ssa.Select, x *ssa.Extract) {
	delete(s.regs, x)
	i := x.Index - 2 // the tuple is (index, recvOk, r_0, r_1, ...)
	if i < 0 {
		return
	}
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			continue
		}
		if i == 0 {
			if elem, ok := la.carriesMessages(st.Chan.Type()); ok {
				la.received(s, x, elem)
			}
			return
		}
		i--
	}
}

func (la *loopAnalysis) builtin(s *state, b *ssa.Builtin, c *ssa.CallCommon, instr *ssa.Call) {
	if b.Name() == "max" || b.Name() == "min" {
		la.extremum(s, b.Name() == "max", c.Args, instr)
		return
	}
	if b.Name() == "clear" && len(c.Args) == 1 {
		la.clearMap(s, c.Args[0])
		return
	}
	if b.Name() != "append" || la.elemMsg(instr.Type()) == nil {
		return
	}
	t := term{kind: collectionTerm, rel: lexrel.Empty(la.k), msg: la.elemMsg(instr.Type()), single: true}
	// The result holds at most one element if at most one argument
	// holds any, and that one at most one.
	nonEmpty := 0
	for _, a := range c.Args {
		if isNilOrZero(a) {
			continue
		}
		r, ok := s.regs[a]
		if !ok {
			t.rel, t.recv, t.approx, t.single = lexrel.Top(la.k), true, true, false
			continue
		}
		u := s.terms[r.key]
		if !u.rel.IsEmpty() || !u.single {
			nonEmpty++
		}
		t = t.join(u)
	}
	t.single = t.single && nonEmpty <= 1
	t.kind = collectionTerm
	s.setTerm(regKey(instr), t)
	s.regs[instr] = ref{key: regKey(instr), comp: wholeComp}
}

// clearMap interprets clear(m) for a map m: it is empty afterwards, as
// after m = map[K]V{} (a slice's clear zeroes its elements, which are
// still there). A mailbox field cleared owes nothing for the tag's change.
func (la *loopAnalysis) clearMap(s *state, m ssa.Value) {
	if _, isMap := m.Type().Underlying().(*types.Map); !isMap {
		return
	}
	if ld, ok := m.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if j := la.mailboxAt(ld.X); j >= 0 {
			s.owed &^= 1 << j
			s.owedByMsg &^= 1 << j
			s.clean |= 1 << j
		}
	}
	if r, ok := la.collectionRef(s, m); ok {
		t := s.terms[r.key]
		s.setTerm(r.key, term{kind: collectionTerm, rel: lexrel.Empty(la.k), msg: t.msg, single: true})
		delete(s.pending, r.key)
	}
}

// extremum interprets max(args...) (or min): an integer related to a tag
// component as the largest (smallest) of the arguments may be.
func (la *loopAnalysis) extremum(s *state, isMax bool, args []ssa.Value, instr *ssa.Call) {
	delete(s.regs, instr)
	comp := -1
	for _, a := range args {
		if sc := la.scalarOf(s, a); sc.comp >= 0 {
			if comp >= 0 && sc.comp != comp {
				return
			}
			comp = sc.comp
		}
	}
	if comp < 0 {
		return
	}
	var rel lexrel.Rel
	consts := constsOf()
	recv, approx := false, false
	for i, a := range args {
		sc := la.scalarOf(s, a)
		approx = approx || !sc.exactTo(s, comp)
		r := sc.relTo(s, comp)
		if i == 0 {
			rel = r
		} else {
			rel = extremeRel(rel, r, isMax)
		}
		if i == 0 {
			consts = sc.consts
		} else {
			consts = unknownConsts
		}
		recv = recv || sc.recv
	}
	t := term{kind: scalarTerm, comp: int8(comp), rel: lexrel.Top(la.k).Restrict(comp, rel), recv: recv, approx: approx}
	t.consts = t.consts.with(comp, consts)
	if isMax {
		// max(a, b) is at least a and b, and what they are at least.
		for _, a := range args {
			t.geq = t.geq.union(la.scalarOf(s, a).geq)
		}
	}
	s.setTerm(regKey(instr), t)
	s.regs[instr] = ref{key: regKey(instr), comp: int8(comp)}
}

// extremeRel is the relation of max(x, y) (min when !isMax) to z given x
// a z and y b z.
func extremeRel(a, b lexrel.Rel, isMax bool) lexrel.Rel {
	order := []lexrel.Rel{lexrel.LT, lexrel.EQ, lexrel.GT}
	var out lexrel.Rel
	for i, x := range order {
		for j, y := range order {
			if a&x == 0 || b&y == 0 {
				continue
			}
			if (i >= j) == isMax {
				out |= x
			} else {
				out |= y
			}
		}
	}
	return out
}

// storeCell interprets a store to a local integer variable: it holds the
// stored value's relation to the tag (hi := n.term; hi = max(hi, m.Term)),
// or nothing known.
func (la *loopAnalysis) storeCell(s *state, addr, val ssa.Value) {
	key, ok := la.cellKey(addr)
	if !ok {
		return
	}
	la.rebind(s, key)
	sc := la.scalarOf(s, val)
	if sc.comp < 0 {
		s.delTerm(key)
		return
	}
	t := term{kind: scalarTerm, comp: int8(sc.comp), rel: lexrel.Top(la.k).Restrict(sc.comp, sc.rel), recv: sc.recv, approx: !sc.exactTo(s, sc.comp), geq: sc.geq}
	t.consts = t.consts.with(sc.comp, sc.consts)
	s.setTerm(key, t)
}

// cellKey names the local integer variable addr is the address of, when
// the analysis keeps its relation to the tag: a local of the function
// being analysed whose address does not escape (so that no call writes
// it behind the analysis's back).
func (la *loopAnalysis) cellKey(addr ssa.Value) (termKey, bool) {
	a, ok := addr.(*ssa.Alloc)
	if !ok || a.Heap {
		return termKey{}, false
	}
	p, ok := a.Type().Underlying().(*types.Pointer)
	if !ok {
		return termKey{}, false
	}
	if b, ok := p.Elem().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return termKey{}, false
	}
	return locKey(loc{base: a}), true
}

// opaqueCall interprets a call of a function the analysis does not
// summarise yet: what it may write of the tag becomes unknown, and a
// message or collection handed to it may be kept.
func (la *loopAnalysis) opaqueCall(s *state, c *ssa.CallCommon, instr *ssa.Call) {
	name := calleeName(c)
	eff := la.sum.of(c)
	if eff.comm && la.inRegion(instr) {
		for cond := 1; cond <= 4; cond++ {
			la.report(cond, instr.Pos(), true, "%s sends or receives in code the analysis does not follow (a call through an interface or a function value, recursion, or more than %d calls deep)", name, maxCallDepth)
		}
	}
	for i := range la.k {
		if eff.writes(la.loop.Vars[i]) || (!eff.known && la.handsTag(c)) {
			s.assignCur(i, lexrel.Any, unknownConsts, ref{}, false, true)
			s.unknownAt[i] = instr.Pos()
		}
	}
	la.noteOpaqueFill(s, c)
	if la.inRegion(instr) && !eff.std {
		for n, a := range append(c.Args, c.Value) {
			r, ok := s.regs[a]
			if !ok {
				continue
			}
			if la.ownMethod(c, n) {
				// A message's own method (m.GetChangeView(), an
				// accessor of an interface message) reads it: it is
				// handed no state of the process to keep it in.
				continue
			}
			t := s.terms[r.key]
			if !t.recv || t.rel.Lex()&^lexrel.GE == 0 {
				continue
			}
			switch {
			case r.comp == wholeComp:
				la.report(3, instr.Pos(), true, "a received message is handed to %s, which may keep it", name)
			case r.comp == partComp || r.comp == dataComp && holdsReference(a.Type()):
				// A pointer, slice, map or struct out of a received
				// message (the Vote inside a VoteMessage) may be the
				// part that carries its tag.
				la.report(3, instr.Pos(), true, "a part of a received message is handed to %s, which may keep it", name)
			}
		}
	}
	if m := la.msgOf(instr.Type()); m != nil {
		s.setTerm(regKey(instr), la.freshMessage(s, m, eff.comm, instr.Pos()))
		s.regs[instr] = ref{key: regKey(instr), comp: wholeComp}
	} else if m := la.elemMsg(instr.Type()); m != nil {
		s.setTerm(regKey(instr), term{kind: collectionTerm, rel: lexrel.Top(la.k), msg: m, recv: true, approx: true, at: instr.Pos()})
		s.regs[instr] = ref{key: regKey(instr), comp: wholeComp}
	} else {
		delete(s.regs, instr)
	}
}

// holdsReference reports whether a value of type t can share memory with
// the message it was read from: anything but a basic value.
func holdsReference(t types.Type) bool {
	if types.IsInterface(t) {
		return true
	}
	_, basic := t.Underlying().(*types.Basic)
	return !basic
}

// handsTag reports whether a call hands over a pointer through which the
// tag may be written: the address of a synchronization variable or of a
// struct holding one.
func (la *loopAnalysis) handsTag(c *ssa.CallCommon) bool {
	for _, a := range append(c.Args, c.Value) {
		for {
			if mi, ok := a.(*ssa.MakeInterface); ok {
				a = mi.X
			} else if ct, ok := a.(*ssa.ChangeType); ok {
				a = ct.X
			} else {
				break
			}
		}
		if _, ok := la.syncIndex(a); ok || la.storesWholeSync(a) {
			return true
		}
	}
	return false
}

// handOver interprets go and defer statements: a received message handed
// to code that runs later may be kept where the analysis does not see.
func (la *loopAnalysis) handOver(s *state, c *ssa.CallCommon, instr ssa.Instruction, what string) {
	if !la.inRegion(instr) {
		return
	}
	if f := c.StaticCallee(); f != nil && la.sum.of(c).comm {
		la.report(2, instr.Pos(), true, "%s sends a message after this point, at a tag the analysis does not know", what)
	}
	for _, a := range append(c.Args, c.Value) {
		if r, ok := s.regs[a]; ok {
			if t := s.terms[r.key]; t.recv && t.rel.Lex()&^lexrel.GE != 0 {
				la.report(3, instr.Pos(), true, "a received message is handed to %s, which may keep it", what)
			}
		}
	}
}

func calleeName(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return "the call of " + c.Method.Name()
	}
	if f := c.StaticCallee(); f != nil {
		return "the call of " + f.Name()
	}
	return "a call of a function value"
}

// tagText is the tag as written in the directive.
func (la *loopAnalysis) tagText() string { return "(" + la.loop.TagString() + ")" }

func (la *loopAnalysis) checkI(s *state, pos token.Pos) {
	lex := s.last.Lex()
	if lex&lexrel.LT == 0 {
		return
	}
	if v, at := la.unknownVar(s); at != token.NoPos {
		// One finding at the cause, not one at every later send.
		la.report(1, at, true, "this call may change %s in a way the analysis does not follow: the tag %s may be lower at the next communication point", v, la.tagText())
		return
	}
	if lex == lexrel.LT {
		// Lower on every vector: an over-approximation that says so
		// says it of every execution reaching here, if any does: a
		// partition of an assumed entry constant may be reached by none,
		// so the partitions are counted (see lowerFindings).
		la.noteLower(s, pos)
		return
	}
	if !s.lastApprox {
		la.report(1, pos, false, "the tag %s can be lower here than at the last communication point", la.tagText())
		return
	}
	la.report(1, pos, true, "the tag %s may be lower here than at the last communication point%s", la.tagText(), la.unsetHint())
}

// unsetHint names the rounds the code before the tagged loop leaves
// unset, whose value when the loop is entered the first communication
// point is compared with.
func (la *loopAnalysis) unsetHint() string {
	var names []string
	for i := range la.k {
		if la.entryUnset&(1<<i) != 0 {
			names = append(names, la.loop.Vars[i].Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" (nothing before the loop sets %s: its value when the loop is entered is not known; set it before the loop)", strings.Join(names, ", "))
}

// unknownVar is the first synchronization variable a call the analysis
// does not follow may have changed, and that call's position.
func (la *loopAnalysis) unknownVar(s *state) (string, token.Pos) {
	for i := range la.k {
		if p := s.unknownAt[i]; p != token.NoPos {
			return la.loop.Vars[i].Name, p
		}
	}
	return "", token.NoPos
}

// mapped are the components a message's mapping carries (all, unless some
// are _).
func (la *loopAnalysis) mapped(m *annotations.Msg) []int {
	var out []int
	for i := range la.k {
		if m == nil || i >= len(m.Components) || m.Components[i].Kind != annotations.Absent {
			out = append(out, i)
		}
	}
	return out
}

// equalOn keeps the vectors of rel equal on the components comps.
func equalOn(rel lexrel.Set, comps []int) lexrel.Set {
	for _, i := range comps {
		rel = rel.Restrict(i, lexrel.EQ)
	}
	return rel
}

func (la *loopAnalysis) checkII(s *state, t term, pos token.Pos) {
	good := equalOn(t.rel, la.mapped(t.msg))
	if good == t.rel {
		return
	}
	name := msgName(la, t.msg)
	if v, at := la.unknownVar(s); at != token.NoPos {
		la.report(2, at, true, "this call may change %s in a way the analysis does not follow: a %s sent after it may carry a tag other than the current one %s", v, name, la.tagText())
		return
	}
	if good.IsEmpty() && !t.inexact() && t.kindFree|t.loose == 0 {
		la.report(2, pos, false, "%s is sent with a tag other than the current one %s", name, la.tagText())
		return
	}
	if !t.claimable(t.rel.Minus(good)).IsEmpty() {
		la.report(2, pos, false, "%s can be sent with a tag other than the current one %s", name, la.tagText())
		return
	}
	la.report(2, pos, true, "%s may be sent with a tag other than the current one %s", name, la.tagText())
}

func msgName(la *loopAnalysis, m *annotations.Msg) string {
	if m == nil {
		return "the message"
	}
	return m.Name(la.pass.Pkg)
}

func (la *loopAnalysis) checkIII(s *state, t term, pos token.Pos, how string) {
	var good lexrel.Set
	if t.msg != nil && t.msg.Partial() {
		good = equalOn(t.rel, la.mapped(t.msg))
	} else {
		good = t.rel.RestrictLex(lexrel.GE)
	}
	if good == t.rel {
		return
	}
	name := msgName(la, t.msg)
	want := ">="
	if t.msg != nil && t.msg.Partial() {
		want = "=="
	}
	if good.IsEmpty() && !t.inexact() && t.kindFree|t.loose == 0 {
		which := "lower than"
		if t.rel.Lex()&lexrel.LT == 0 {
			which = "other than" // a partial mapping's later round
		}
		la.report(3, pos, false, "%s %s with a tag %s the current one %s", name, how, which, la.tagText())
		return
	}
	if bad := t.claimable(t.rel.Minus(good)); !bad.IsEmpty() {
		msg := fmt.Sprintf("%s %s without checking that its tag is %s %s", name, how, want, la.tagText())
		la.reportWitnessed(3, pos, witnessNeed{msg: t.msg, bad: bad, cur: s.cur, unproven: msg}, msg)
		return
	}
	la.report(3, pos, true, "%s %s without checking that its tag is %s %s", name, how, want, la.tagText())
}

// checkIV reports a pending jump at instr: a mailbox holds a message that
// may be of a later round, and the process has not jumped to it. A
// receive in the same reception loop as the store is part of the
// reception, not after it.
func (la *loopAnalysis) checkIV(s *state, instr ssa.Instruction, what string) {
	la.checkIVAt(s, instr, instr.Pos(), what)
}

// liveReceived makes pending (see state.pending) a received message that
// may be of a later round and that a local variable of the function still
// holds for use after instr: the variable is the reception variable of the
// paper's condition IV (an event loop's m := <-in), which owes the jump
// before the process acts with the message at hand (replying to its
// sender, reading its data).
func (la *loopAnalysis) liveReceived(s *state, instr ssa.Instruction) {
	if s.last.Lex()&lexrel.LT != 0 {
		// The tag may have gone down since the message was handled:
		// condition I's finding, not this one.
		return
	}
	for key, t := range s.terms {
		a, ok := key.loc.base.(*ssa.Alloc)
		if !ok || a.Heap || key.loc.path != "" || key.reg != nil || a.Parent() != instr.Parent() {
			continue
		}
		if t.kind != messageTerm || !t.recv || t.msg == nil || la.carriedRel(t).Lex()&lexrel.GT == 0 {
			continue
		}
		if _, ok := s.pending[key]; ok || !la.liveAfter(instr, a) {
			continue
		}
		s.setPending(key, false)
		s.setReadPending(key)
	}
	// Data of such a message the communication itself uses (the
	// destination of a reply to its sender, a field echoed).
	var ops [8]*ssa.Value
	for _, op := range instr.Operands(ops[:0]) {
		if op == nil || *op == nil {
			continue
		}
		key, ok := la.receivedData(s, *op, 3)
		if !ok {
			continue
		}
		if t := s.terms[key]; t.recv && t.msg != nil && la.carriedRel(t).Lex()&lexrel.GT != 0 {
			if _, ok := s.pending[key]; !ok {
				s.setPending(key, false)
				s.setReadPending(key)
			}
		}
	}
}

// checkIVAt is checkIV with the findings at pos.
func (la *loopAnalysis) checkIVAt(s *state, instr ssa.Instruction, pos token.Pos, what string) {
	la.liveReceived(s, instr)
	for key, must := range s.pending {
		t := s.terms[key]
		if c, ok := s.terms[t.from]; ok && t.from != (termKey{}) && c.kind == collectionTerm && !c.rel.IsEmpty() {
			// A message read out of a mailbox that still holds it: it
			// relates to the tag as every element does (a jump to the
			// maximum of the mailbox settles it).
			t.rel = t.rel.Intersect(c.rel)
		}
		if la.carriedRel(t).Lex()&lexrel.GT == 0 {
			delete(s.pending, key)
			continue
		}
		if what == "receives" && la.sameReception(s, key, instr) {
			continue
		}
		if a, ok := key.loc.base.(*ssa.Alloc); ok && !a.Heap && a.Parent() == instr.Parent() && !strings.Contains(key.loc.path, "*") && !s.readPending[key] && !la.liveAfter(instr, a) {
			// A local nothing has read since the later round's message
			// went in, and no later statement reads: the message
			// changes nothing the process does.
			delete(s.pending, key)
			continue
		}
		delete(s.pending, key)
		delete(s.readPending, key)
		if !la.inRegion(instr) {
			continue
		}
		name := msgName(la, t.msg)
		if must && t.rel.Lex() == lexrel.GT && !t.inexact() && t.kindFree|t.loose == 0 {
			la.report(4, pos, false, "the process %s while a %s of a later round is kept, without jumping to its round first", what, name)
			continue
		}
		if _, at := la.unknownVar(s); !t.claimable(t.rel.RestrictLex(lexrel.GT)).IsEmpty() && at == token.NoPos {
			need := witnessNeed{msg: t.msg, bad: t.claimable(t.rel.RestrictLex(lexrel.GT)), cur: s.cur,
				unproven: fmt.Sprintf("the process %s while a %s that may be of a later round is kept, without a jump to its round first", what, name)}
			la.reportWitnessed(4, pos, need, fmt.Sprintf("the process %s while a %s of a later round can be kept, without a jump to its round first", what, name))
			continue
		}
		la.report(4, pos, true, "the process %s while a %s that may be of a later round is kept, without a jump to its round first", what, name)
	}
}

// sameReception reports whether instr is in the innermost loop around the
// receive where the message kept under key was received.
//
// A receive in a helper (m, ok := r.recv(t)) is placed at the helper's
// call in the analysed function, and a message received by a helper
// that the loop calls counts as received in the loop.
func (la *loopAnalysis) sameReception(s *state, key termKey, instr ssa.Instruction) bool {
	at := s.terms[key].at
	if instr.Parent() != la.fn && la.callInstr != nil {
		instr = la.callInstr
	}
	nl := la.innermost(instr.Block())
	if nl == nil || nl == la.outer() {
		return false
	}
	for b := range nl.blocks {
		for _, in := range b.Instrs {
			if in.Pos() == at || receivesAt(in, at) {
				return true
			}
		}
	}
	return false
}

// receivesAt reports whether in calls a function whose body holds the
// position at: the receive of a helper.
func receivesAt(in ssa.Instruction, at token.Pos) bool {
	call, ok := in.(*ssa.Call)
	if !ok || !at.IsValid() {
		return false
	}
	f := call.Call.StaticCallee()
	if f == nil || f.Syntax() == nil {
		return false
	}
	return f.Syntax().Pos() <= at && at < f.Syntax().End()
}

// outer is the tagged loop itself.
func (la *loopAnalysis) outer() *natLoop {
	for _, nl := range la.loops {
		if nl.header == la.header {
			return nl
		}
	}
	return nil
}

// sentMessage finds the message a sent value is or carries: the value
// itself, or the message field of an envelope built in place (a composite
// literal) or received. isMsg says whether the value's type makes it a
// message the send must be checked for.
func (la *loopAnalysis) sentMessage(s *state, v ssa.Value) (t term, ok, isMsg bool) {
	isMsg = la.msgOf(v.Type()) != nil
	env := la.envelopeField(v.Type())
	if env >= 0 {
		// An envelope: what matters is the message in its field, which
		// may be a message if the field's type allows one.
		ft := v.Type().Underlying().(*types.Struct).Field(env).Type()
		isMsg = la.msgOf(ft) != nil || la.interfaceOfMessages(ft)
		if u, isLoad := v.(*ssa.UnOp); isLoad && u.Op == token.MUL {
			if l, found := la.accessPath(u.X); found {
				l.path += "." + strconv.Itoa(env)
				if t, found := s.terms[locKey(l)]; found && t.kind == messageTerm {
					return t, t.msg != nil, isMsg || t.msg != nil
				}
			}
		}
	}
	r, found := s.regs[v]
	if !found && isMsg && isPointer(v.Type()) {
		// The address of a message variable (&Msg{...}): the message
		// it holds.
		r, found = la.addrRef(s, v)
	}
	if found && r.comp == wholeComp {
		if t, found := s.terms[r.key]; found && t.kind == messageTerm && (t.envField == 0 || env < 0) {
			return t, t.msg != nil, isMsg || t.msg != nil
		}
		if t, found := s.terms[r.key]; found && t.kind == messageTerm && t.envField > 0 && t.msg != nil {
			// A received envelope sent on as it is: its message.
			t.envField = 0
			return t, true, true
		}
	}
	return term{}, false, isMsg
}
