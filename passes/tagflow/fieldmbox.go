package tagflow

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Field mailboxes. The paper's reception variables are local to a round:
// the mailbox holds the messages received in the current round, and is
// empty when the round starts. Protocol code often keeps it in a field of
// the process that it empties at the start of the round (p.votes =
// make(map[int]Vote), p.decision = nil) and fills inside the reception,
// directly or through handlers. Such a field is a mailbox, like a local
// variable declared before the reception loop, when on the current path it
// can only hold messages received in the current round.
//
// The rule. A location of the process state (a field path from a
// parameter, a free variable or a package variable, with no index on the
// way) is marked emptied, on a path, where the code outside any reception
// stores its zero value into it (nil, 0, false, a zero struct), a fresh
// make, an empty composite literal or a zero-length reslice (x[:0]), or
// clears it (clear(m) of a map just loaded from it). The mark holds while
// the location holds only messages received at the current tag:
//   - a store to the location (or to memory inside or around it) outside
//     a reception, other than another emptying, removes it; so does a
//     builtin copy into it, a call the engine does not follow that is
//     handed its value (unless a function of the package that writes no
//     memory but its locals: p.isLeader()), and such a call that may
//     reach code of the
//     package writing the process state (statically, through an
//     interface or a function value);
//   - a write of the location inside a reception, accepted as a mailbox
//     write below, makes the mark dirty: the location now holds messages
//     received at the current tag;
//   - a change of the tag (an assignment to a synchronization variable, or
//     a call that may change it) removes a dirty mark: its messages were
//     received at the previous tag. A clean mark survives it: an empty
//     mailbox emptied before the round changed is as empty after.
//
// Communication points do not remove the mark themselves: a send stores
// nothing in the mailbox, and a reception writes the mailbox only through
// the writes checked here; what matters is the tag at which the messages
// were stored. (A reception of the same round may add to the mailbox, as a
// second reception loop after a timeout does; one of another round first
// changes the tag.) Functions annotated //sync:send or //sync:recv are
// communication points, not followed: they are taken not to write the
// process state. Like the synchronization variables, a location is named
// by its path from the process: a write through another pointer to the
// same struct is not seen.
//
// An emptying in a function that the code before the reception calls (a
// handler of the round change, p.startRound(), followed because it sets
// the tag) marks the location as one in place does. An emptying inside a
// reception never marks: the reception may write only the mailbox, and a
// handler that changes the round there (p.round = m.Round; p.votes =
// nil) is already reported for setting the tag inside the reception; the
// jump belongs after the reception, where the emptying then counts.
//
// What the facts say of a marked location (its length is 0 once emptied)
// is kept from block to block, as for a tainted one (project): the writes
// that could change it are the ones that remove the mark.
//
// Inside a reception, a write of a marked location is a write of the
// mailbox, checked as the write of a local mailbox is (recvWrite and
// mailboxStore: condition III's filter check, condition IV's pending jump)
// when its shape shows it adds to the location's current content: a
// message, an empty value, append to the location loaded inside the
// reception (of elements given one by one), a scalar computed from loads
// of it made inside the reception, an element of it reached through such
// a load, a map update of such a load. Anything else (a value loaded
// before the reception, when the term of a load names the location and
// not the moment) is the write of an algorithm variable, as is the write
// of an unmarked location: reported as before.

// mboxMarks is the set of emptied locations of a path, each with whether a
// reception wrote it since (dirty). It is never modified: replaced.
type mboxMarks map[term]bool

// markOf returns the marked location that loc lies in.
func (st *pstate) markOf(loc term) (term, bool) {
	for m := range st.mbox {
		if within(loc, m) {
			return m, true
		}
	}
	return "", false
}

func (st *pstate) setMarks(f func(m mboxMarks)) {
	n := make(mboxMarks, len(st.mbox)+1)
	for k, v := range st.mbox {
		n[k] = v
	}
	f(n)
	if len(n) == 0 {
		n = nil
	}
	st.mbox = n
}

// marked reports whether t lies in a marked location: a field mailbox,
// written only where the marks are maintained, so what the facts say of
// it stays true from block to block.
func (st *pstate) marked(t term) bool {
	_, ok := st.markOf(t)
	return ok
}

// unmark removes the marks of the locations that loc overlaps.
func (st *pstate) unmark(loc term) {
	hit := false
	for m := range st.mbox {
		hit = hit || within(m, loc) || within(loc, m)
	}
	if !hit {
		return
	}
	st.setMarks(func(n mboxMarks) {
		for m := range n {
			if within(m, loc) || within(loc, m) {
				delete(n, m)
			}
		}
	})
}

// unmarkWhere removes the marks that drop selects.
func (st *pstate) unmarkWhere(drop func(m term, dirty bool) bool) {
	hit := false
	for m, d := range st.mbox {
		hit = hit || drop(m, d)
	}
	if hit {
		st.setMarks(func(n mboxMarks) {
			for m, d := range n {
				if drop(m, d) {
					delete(n, m)
				}
			}
		})
	}
}

// unmarkAll removes every mark.
func (st *pstate) unmarkAll() { st.mbox = nil }

// unmarkDirty is called when the tag changes.
func (st *pstate) unmarkDirty() {
	st.unmarkWhere(func(_ term, dirty bool) bool { return dirty })
}

// markEmptied marks loc emptied: it no longer holds the messages it held.
func (st *pstate) markEmptied(loc term) {
	for k := range st.taint {
		if within(k, loc) {
			delete(st.mutTaint(), k)
		}
	}
	st.setMarks(func(n mboxMarks) {
		for m := range n {
			if within(m, loc) || within(loc, m) {
				delete(n, m)
			}
		}
		n[loc] = false
	})
}

// dirty notes that a reception wrote the marked location m.
func (st *pstate) dirty(m term) {
	if st.mbox[m] {
		return
	}
	st.setMarks(func(n mboxMarks) { n[m] = true })
}

func (st *pstate) writeMarks(b *strings.Builder) {
	if len(st.mbox) == 0 {
		return
	}
	keys := make([]term, 0, len(st.mbox))
	for k := range st.mbox {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b.WriteString("|E")
	for _, k := range keys {
		b.WriteByte(',')
		b.WriteString(string(k))
		if st.mbox[k] {
			b.WriteByte('!')
		}
	}
}

// stateLoc reports whether addr is a field path of the process state that
// a mark may name: fields (through pointers) from a parameter, a free
// variable or a package variable, without an index; or a package variable.
func stateLoc(addr ssa.Value) bool {
	switch addr.(type) {
	case *ssa.FieldAddr, *ssa.Global:
	default:
		return false // the whole struct a pointer points to
	}
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return false
			}
			if _, ok := a.X.(*ssa.FieldAddr); !ok {
				if _, ok := a.X.(*ssa.Global); !ok {
					return false
				}
			}
			addr = a.X
		case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
			return true
		default:
			return false
		}
	}
}

// emptyValue reports whether v is a value that holds no message: the zero
// value of its type, a fresh make, an empty composite literal, a
// zero-length reslice.
func emptyValue(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil {
			return true // nil, or the zero value of a struct or array
		}
		return v.Value.String() == "0" || v.Value.String() == "false"
	case *ssa.MakeMap, *ssa.MakeSlice:
		return true
	case *ssa.MakeInterface:
		return false
	case *ssa.ChangeType:
		return emptyValue(v.X)
	case *ssa.Slice:
		if isZeroConst(v.High) && (v.Low == nil || isZeroConst(v.Low)) {
			return true // x[:0]
		}
		// []T{}: a slice of a new empty array.
		if a, ok := v.X.(*ssa.Alloc); ok && v.Low == nil && v.High == nil {
			if arr, ok := derefType(a.Type()).Underlying().(*types.Array); ok && arr.Len() == 0 {
				return true
			}
		}
	}
	return false
}

// emptyLen reports whether v, an empty value, is a map or a slice of
// length 0.
func emptyLen(v ssa.Value) bool {
	if !isCollection(v.Type()) {
		return false
	}
	switch v := v.(type) {
	case *ssa.MakeSlice:
		return isZeroConst(v.Len)
	case *ssa.ChangeType:
		return emptyLen(v.X)
	}
	return true
}

// storeOutside updates the marks for a store of val (info, if it is
// message-derived) at addr, location loc of the process state, outside any
// reception. The messages a field mailbox held are gone once something
// else is stored there.
func (e *engine) storeOutside(st *pstate, addr, val ssa.Value, loc term, info *taintInfo) {
	if val != nil && emptyValue(val) && stateLoc(addr) {
		st.markEmptied(loc)
		if emptyLen(val) {
			st.add(mkFact(loc+"#len", token.EQL, term("c:0")))
		}
		return
	}
	st.unmark(loc)
	if info == nil {
		for k := range st.taint {
			if within(k, loc) {
				delete(st.mutTaint(), k)
			}
		}
	}
}

// freshLoad reports whether v is a load made inside the reception loop l
// of frame owner (directly, or in a function called from it).
func (e *engine) freshLoad(fr *frame, v ssa.Value, owner *frame, l *natLoop) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	wb, ok := climb(fr, ld.Block(), owner)
	return ok && l.blocks[wb]
}

// loadsFresh reports whether every load of memory within the marked
// location m that v is computed from (through arithmetic, selections,
// calls and phis, a few levels deep) is made inside the reception: the
// term of a load names the location, not the moment, and a value loaded
// before the location was emptied is what it held then.
func (e *engine) loadsFresh(fr *frame, st *pstate, v ssa.Value, m term, owner *frame, l *natLoop, depth int, seen map[ssa.Value]bool) bool {
	if v == nil || seen[v] {
		return true
	}
	if depth > 6 {
		return false // not shown
	}
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL && within(e.term(fr, st, v), m) && !e.freshLoad(fr, v, owner, l) {
		return false
	}
	var ops []*ssa.Value
	switch v := v.(type) {
	case *ssa.BinOp, *ssa.UnOp, *ssa.Convert, *ssa.ChangeType, *ssa.Field, *ssa.FieldAddr,
		*ssa.Index, *ssa.IndexAddr, *ssa.Lookup, *ssa.Extract, *ssa.Call, *ssa.MakeInterface,
		*ssa.TypeAssert, *ssa.Slice:
		ops = v.(ssa.Instruction).Operands(nil)
	case *ssa.Phi:
		if seen == nil {
			seen = make(map[ssa.Value]bool)
		}
		seen[v] = true
		ops = v.Operands(nil)
	case *ssa.Parameter, *ssa.FreeVar:
		// In a function called from the reception, an argument computed
		// by the caller, which is not followed here: only what cannot
		// hold the location's content.
		return fr.depth == 0 || !within(e.term(fr, st, v), m)
	}
	for _, op := range ops {
		if op != nil && *op != nil && !e.loadsFresh(fr, st, *op, m, owner, l, depth+1, seen) {
			return false
		}
	}
	return true
}

// fieldMbox returns the marked location that a store of val at addr
// (location loc), inside a reception, writes as a mailbox, or false when
// the store is the write of an algorithm variable.
func (e *engine) fieldMbox(fr *frame, b *ssa.BasicBlock, st *pstate, addr, val ssa.Value, loc term) (term, bool) {
	m, ok := st.markOf(loc)
	if !ok || val == nil {
		return "", false
	}
	owner, l := e.recvOwner(fr, b)
	if l == nil {
		return "", false
	}
	if loc != m {
		// An element of the mailbox: reached through a load of it made
		// inside the reception.
		if !e.loadsFresh(fr, st, addr, m, owner, l, 0, nil) || !e.reachesFresh(fr, st, addr, m, owner, l) {
			return "", false
		}
		return m, true
	}
	switch {
	case emptyValue(val), e.ann.MsgOf(val.Type()) != nil:
		return m, true
	case isTracked(val.Type()):
		// A count or a flag.
		if e.loadsFresh(fr, st, val, m, owner, l, 0, nil) {
			return m, true
		}
	}
	if c, ok := val.(*ssa.Call); ok {
		if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" && len(c.Call.Args) == 2 {
			x, elems := c.Call.Args[0], c.Call.Args[1]
			base := emptyValue(x) || e.freshLoad(fr, x, owner, l) && e.term(fr, st, x) == m
			sl, ok := elems.(*ssa.Slice)
			var one bool
			if ok {
				a, isAlloc := sl.X.(*ssa.Alloc)
				one = isAlloc && a.Comment == "varargs"
			}
			if base && one {
				return m, true
			}
		}
	}
	return "", false
}

// reachesFresh reports whether the address of an element, addr, goes
// through a load of the marked location m made inside the reception.
func (e *engine) reachesFresh(fr *frame, st *pstate, addr ssa.Value, m term, owner *frame, l *natLoop) bool {
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return false
			}
			if e.term(fr, st, a) == m {
				return e.freshLoad(fr, a, owner, l)
			}
			addr = a.X
		default:
			return false
		}
	}
}

// mapMbox returns the marked location that a map update of mp, inside a
// reception, writes as a mailbox.
func (e *engine) mapMbox(fr *frame, b *ssa.BasicBlock, st *pstate, mp ssa.Value) (term, bool) {
	m, ok := st.markOf(e.term(fr, st, mp))
	if !ok || e.term(fr, st, mp) != m {
		return "", false
	}
	owner, l := e.recvOwner(fr, b)
	if l == nil || !e.freshLoad(fr, mp, owner, l) {
		return "", false
	}
	return m, true
}

// builtinMarks handles clear(x) and copy(x, ...): clear of a map just
// loaded from a location of the process state, outside a reception,
// empties it; any other clear or copy of a marked location removes its
// mark.
func (e *engine) builtinMarks(fr *frame, b *ssa.BasicBlock, st *pstate, in *ssa.Call, name string) {
	if len(in.Call.Args) == 0 || len(st.mbox) == 0 && name != "clear" {
		return
	}
	x := in.Call.Args[0]
	t := e.term(fr, st, x)
	if name == "clear" && e.receptionLoop(fr, b) == nil {
		if _, isMap := x.Type().Underlying().(*types.Map); isMap {
			if ld, ok := x.(*ssa.UnOp); ok && ld.Op == token.MUL && stateLoc(ld.X) && justLoaded(ld, in) {
				st.markEmptied(t)
				st.fs = st.fs.withoutLoc(t).with(mkFact(t+"#len", token.EQL, term("c:0")))
				return
			}
		}
	}
	switch name {
	case "clear", "copy":
		st.unmark(t)
	}
}

// justLoaded reports whether load ld is in the block of instruction at,
// before it, with no store or call in between.
func justLoaded(ld *ssa.UnOp, at ssa.Instruction) bool {
	if ld.Block() != at.Block() {
		return false
	}
	seen := false
	for _, in := range at.Block().Instrs {
		switch {
		case in == ld:
			seen = true
			continue
		case in == at:
			return seen
		}
		if !seen {
			continue
		}
		switch in.(type) {
		case *ssa.Store, *ssa.MapUpdate, ssa.CallInstruction:
			return false
		}
	}
	return false
}

// callMarks removes the marks a call that the engine does not follow may
// invalidate: the marks of the values it is handed, all of them when it
// may reach code of the package that writes the process state.
func (e *engine) callMarks(fr *frame, st *pstate, c *ssa.CallCommon) {
	if len(st.mbox) == 0 {
		return
	}
	if e.mayWriteState(c) {
		if fields, ok := e.storedFields(c); ok && !fields[nil] {
			// A function of the package that writes fields only
			// (p.nextTxn() taking from p.queue): the marks of those
			// fields of the structs it is handed.
			for _, a := range passedValues(c) {
				s, isStruct := derefType(a.Type()).Underlying().(*types.Struct)
				if !isStruct || !isPointer(a.Type()) {
					continue
				}
				for i := range s.NumFields() {
					if fields[s.Field(i)] {
						st.unmark(term(string(derefOf(e.term(fr, st, a))) + "." + strconv.Itoa(i)))
					}
				}
			}
			return
		}
		st.unmarkAll()
		return
	}
	if callee := staticCallee(c); callee != nil && callee.Pkg == e.fn.Pkg && callee.Blocks != nil && e.readOnly(callee) {
		// A function of the package that writes no memory but its
		// locals (p.isLeader()): not through what it is handed either.
		return
	}
	for _, a := range passedValues(c) {
		st.unmark(e.term(fr, st, a))
		if _, ok := a.Type().Underlying().(*types.Pointer); ok {
			st.unmark(derefOf(e.term(fr, st, a)))
		}
	}
}

// mayWriteState reports whether a call may reach code of the package that
// writes memory other than its own locals: its static callee, or a method
// of that name and signature (an interface call), or a function of that
// signature (a call of a function value); or a function of the package it
// is handed.
func (e *engine) mayWriteState(c *ssa.CallCommon) bool {
	if callee := staticCallee(c); callee != nil {
		if callee.Pkg == e.fn.Pkg && callee.Blocks != nil && e.writesState(callee, nil) {
			return true
		}
	} else if _, builtin := c.Value.(*ssa.Builtin); !builtin && e.dynWritesState(c) {
		return true
	}
	for _, a := range c.Args {
		var f *ssa.Function
		switch a := a.(type) {
		case *ssa.MakeClosure:
			f = a.Fn.(*ssa.Function)
		case *ssa.Function:
			f = a
		}
		if f != nil && f.Blocks != nil && f.Pkg == e.fn.Pkg && e.writesState(originOf(f), nil) {
			return true
		}
	}
	return false
}

// dynWritesState reports whether a dynamic call may reach a function of
// the package that writes the process state: a method of that name and
// signature (an interface call), or a function of that signature (a call
// of a function value).
func (e *engine) dynWritesState(c *ssa.CallCommon) bool {
	strip := func(s *types.Signature) *types.Signature {
		return types.NewSignatureType(nil, nil, nil, s.Params(), s.Results(), s.Variadic())
	}
	sig := strip(c.Signature())
	key := types.TypeString(sig, nil)
	if c.IsInvoke() {
		key = c.Method.Name() + key
	}
	if w, ok := e.dynWrites[key]; ok {
		return w
	}
	w := false
	for _, f := range e.sum.all {
		if f.Blocks == nil {
			continue
		}
		if c.IsInvoke() && (f.Signature.Recv() == nil || f.Name() != c.Method.Name()) {
			continue
		}
		if sameUpToTypeParams(strip(f.Signature), sig, 0) && e.writesState(f, nil) {
			w = true
			break
		}
	}
	if e.dynWrites == nil {
		e.dynWrites = make(map[string]bool)
	}
	e.dynWrites[key] = w
	return w
}
