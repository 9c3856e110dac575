package tagflow2

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/passes/tagflow"
	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/ssa"
)

// Handlers. A //sync:handler method is one step of its process, between
// two communication points: its entry (the driver hands it a message, or
// a local event) and its exit. It is analysed as the body of a tagged loop
// run once: the region is the whole method; the tag's relation to the last
// communication point starts equal; a message-typed parameter is the
// message just received, of any round; and at every return condition I
// (the tag is at least its value at the entry, through the communication
// points in between) and condition IV (no message of a later round is
// kept without a jump to it) are checked, as at a send.

// runHandler analyses a handler method.
func (la *loopAnalysis) runHandler() []tagflow.Finding {
	la.prepareHandler()
	return la.solveAndCheck(la.handlerEntry())
}

// prepareHandler makes the whole method the region analysed.
func (la *loopAnalysis) prepareHandler() {
	la.region = make(map[*ssa.BasicBlock]bool, len(la.fn.Blocks))
	for _, b := range la.fn.Blocks {
		la.region[b] = true
	}
}

// handlerEntry is the state at a handler's entry.
func (la *loopAnalysis) handlerEntry() *state {
	entry := newState(la.k, la.fn.Prog.Fset)
	la.initialParts(entry)
	entry.last = equalSet(la.k)
	if p := la.receivedParam(); p != nil {
		la.received(entry, p, p.Type())
		// A message of any phase may reach the handler (late or
		// early), so its phase components are exact. Which kind the
		// driver hands it is not in the code: a handler per message
		// kind (OnPromise) is often called only with its kind, which it
		// then need not test. Those components stay open (kindFree): a
		// violation rests only on what the components before them
		// decide.
		t := entry.terms[regKey(p)]
		la.assumePre(&t)
		t.kindFree = la.unknownKinds(t)
		entry.setTerm(regKey(p), t)
		entry.hmsg = regKey(p)
		entry.refineAll()
	}
	return entry
}

// unknownKinds are the components of the handler's message t that it
// carries in a field of the round's enum (its kind) and whose value the
// directive does not give: the driver may call the handler with one kind
// only. Components of integer phases are not: a message of any phase may
// be late or early at any handler.
func (la *loopAnalysis) unknownKinds(t term) uint8 {
	var out uint8
	if t.msg == nil {
		return out
	}
	for i, c := range t.msg.Components {
		if i >= la.k || c.Kind == annotations.Absent || c.Kind == annotations.Const {
			continue
		}
		if la.loop.Vars[i].Enum == nil {
			continue
		}
		if cs := t.consts.at(i); !cs.known || cs.n > 1 {
			out |= 1 << i
		}
	}
	return out
}

// assumePre gives the handler's message t the constant its //sync:handler
// F==C condition says the component F holds (OnPromise: Kind==Promise).
func (la *loopAnalysis) assumePre(t *term) {
	pre := la.loop.Handler.Pre
	if pre == nil || t.msg == nil || pre.Value == nil {
		return
	}
	v, ok := constant.Int64Val(constant.ToInt(pre.Value))
	if !ok {
		return
	}
	for i, c := range t.msg.Components {
		if i >= la.k {
			break
		}
		field := c.Kind == annotations.Field && pre.Left.Kind == annotations.Field && slices.Equal(c.FieldIndex, pre.Left.FieldIndex)
		method := c.Kind == annotations.Method && pre.Left.Kind == annotations.Method && c.Method != nil && pre.Left.Method != nil && c.Method.Name() == pre.Left.Method.Name()
		if field || method {
			t.consts = t.consts.with(i, constsOf(v))
		}
	}
}

// receivedParam is the handler's parameter that holds the received
// message, nil for a local event.
func (la *loopAnalysis) receivedParam() *ssa.Parameter {
	h := la.loop.Handler
	if h.Msg < 0 {
		return nil
	}
	i := h.Msg
	if la.fn.Signature.Recv() != nil {
		i++ // the receiver is Params[0]
	}
	if i >= len(la.fn.Params) {
		return nil
	}
	return la.fn.Params[i]
}

// handlerExit checks a return of the handler: the end of its step.
func (la *loopAnalysis) handlerExit(s *state, ret *ssa.Return) {
	if la.loop.Handler == nil || ret.Parent() != la.fn || !la.reporting {
		return
	}
	pos := ret.Pos()
	if !pos.IsValid() {
		// The implicit return at the closing brace.
		if syn := la.fn.Syntax(); syn != nil {
			pos = syn.End() - 1
		}
	}
	la.checkI(s, pos)
	la.checkIVAt(s, ret, pos, "returns")
	la.checkMailboxes(s, pos)
}

// checkStaleWrite is condition III in the handler form: a received
// message of an earlier round leaves the process's state unchanged. A
// write to the process (through the handler's receiver, or a package
// variable) is a violation while the message may be of an earlier round
// on the components its type carries. The tag's own components are left
// to condition I, which a jump back to an older message breaks.
func (la *loopAnalysis) checkStaleWrite(s *state, addr ssa.Value, instr ssa.Instruction) {
	if la.loop.Handler == nil || !la.reporting || !la.inRegion(instr) || !la.processState(addr) {
		return
	}
	if _, isTag := la.syncIndex(addr); isTag {
		return
	}
	p := la.receivedParam()
	if p == nil {
		return
	}
	if _, ok := s.regs[p]; !ok {
		return
	}
	// The message against the tag the process was in when it got it.
	v, ok := s.entryView()
	t := v.msg
	if !ok || t.msg == nil {
		return
	}
	if la.carriedRel(t).Lex()&lexrel.LT == 0 {
		return
	}
	bad := t.claimable(t.rel.Minus(t.rel.RestrictLex(lexrel.GE)))
	name := msgName(la, t.msg)
	msg := fmt.Sprintf("the state changes while the received %s may be of an earlier round than %s was when the handler was called: such a message must leave the state unchanged", name, la.tagText())
	if bad.IsEmpty() {
		la.report(3, instr.Pos(), true, "%s%s", msg, la.kindHint(t))
		return
	}
	la.reportWitnessed(3, instr.Pos(), witnessNeed{msg: t.msg, bad: bad, cur: v.cur, unproven: msg}, msg)
}

// kindHint is advice for a handler whose message t may be of an earlier
// round through a component the message carries in a field of the
// round's enum (its kind) that nothing narrowed: a handler per kind
// (OnPromise) never tests the kind it is called with, and the directive
// can say it.
func (la *loopAnalysis) kindHint(t term) string {
	if la.loop.Handler.Pre != nil || t.msg == nil {
		return ""
	}
	for i, c := range t.msg.Components {
		if i >= la.k || c.Kind != annotations.Field && c.Kind != annotations.Method || la.loop.Vars[i].Enum == nil {
			continue
		}
		if cs := t.consts.at(i); t.rel.Component(i)&lexrel.LT != 0 && (!cs.known || cs.n > 1) {
			return fmt.Sprintf(" (if the driver hands this handler one kind of %s only, say which: //sync:handler %s==...)", msgName(la, t.msg), c.Text)
		}
	}
	return ""
}

// staleWriteChecked reports whether checkStaleWrite checks a write to
// addr in s: one to the process in the handler's own code, where the
// received parameter is at hand (condition III is then reported once, by
// it).
func (la *loopAnalysis) staleWriteChecked(s *state, addr ssa.Value) bool {
	if la.loop.Handler == nil || !la.processState(addr) {
		return false
	}
	p := la.receivedParam()
	if p == nil {
		return false
	}
	_, ok := s.regs[p]
	return ok
}

// processState reports whether addr is a location of the process state:
// reached through the handler's receiver, or a package variable.
func (la *loopAnalysis) processState(addr ssa.Value) bool {
	x := addr
	for {
		switch v := x.(type) {
		case *ssa.FieldAddr:
			x = v.X
			continue
		case *ssa.IndexAddr:
			x = v.X
			continue
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return false
			}
			if p, ok := la.paramOf(v.X); ok {
				return la.isReceiver(p)
			}
			// A map or slice read from the state (n.votes[k] = v).
			x = v.X
			continue
		case *ssa.Parameter:
			return la.isReceiver(v)
		case *ssa.Global:
			return true
		}
		return false
	}
}

// isReceiver reports whether p is the handler's receiver, or the
// receiver of a method of the process type it calls (a helper such as
// n.becomeFollower() works on the same process).
func (la *loopAnalysis) isReceiver(p *ssa.Parameter) bool {
	if la.fn.Signature.Recv() == nil || len(la.fn.Params) == 0 {
		return false
	}
	recv := la.fn.Params[0]
	if p == recv {
		return true
	}
	f := p.Parent()
	return f != nil && f.Signature.Recv() != nil && len(f.Params) > 0 && f.Params[0] == p && types.Identical(p.Type(), recv.Type())
}

// A mailboxField is a field of a process type that holds what the
// process received in the current round: messages, or what it counted
// from them (n.votes[m.From] = true). When the tag changes on the
// components its messages carry, the handler must empty it: what it
// holds belongs to the old round.
type mailboxField struct {
	field *types.Var
	comps uint8 // the tag components its messages carry
	// msgs marks a collection of messages, a mailbox by its type; a
	// collection of data taken from messages (n.votes[m.From] = true)
	// may be one, or state the rounds build on (a log, a block tree).
	msgs bool
}

// mailboxes are the mailbox fields of the handler's process type: the
// slices and maps some handler of the type writes with data of the
// message it received (a field of messages sent, an outbox, is not one).
// Computed once per process type.
func (la *loopAnalysis) mailboxes() []mailboxField {
	proc := la.loop.Handler.Process
	if mb, ok := la.sum.mailboxes[proc]; ok {
		return mb
	}
	st, ok := proc.Type.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	comps := make(map[*types.Var]uint8)
	tag := make(map[*types.Var]bool)
	for _, sv := range la.loop.Vars {
		if len(sv.Fields) > 0 {
			tag[sv.Fields[len(sv.Fields)-1].Origin()] = true
		}
	}
	for fn, h := range la.ann.Handlers {
		if h.Process != proc || h.Msg < 0 {
			continue
		}
		f := la.fn.Prog.FuncValue(fn)
		if f == nil || len(f.Params) <= h.Msg+1 {
			continue
		}
		param := f.Params[h.Msg+1]
		m := la.msgOf(param.Type())
		if m == nil {
			continue
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if fv, ok := writtenField(instr, param); ok && fv != nil && !tag[fv.Origin()] && isCollection(fv.Type()) && !keyedByTag(instr, tag) {
					comps[fv.Origin()] |= la.carriedFields(m)
				}
			}
		}
	}
	var out []mailboxField
	for i := range st.NumFields() {
		c, ok := comps[st.Field(i)]
		if !ok || len(out) >= 64 {
			continue
		}
		msgs := la.elemMsg(st.Field(i).Type()) != nil
		if !msgs && !la.counted(st.Field(i)) {
			// Data looked up by key only (blocks by their hash): a
			// store the rounds build on, not what a round counts.
			continue
		}
		out = append(out, mailboxField{field: st.Field(i), comps: c, msgs: msgs})
	}
	la.sum.mailboxes[proc] = out
	return out
}

// counted reports whether some function of the package may observe how
// many entries the collection in field f holds: len or cap of it, a range
// over it, or its value handed on (to a call, a variable, a phi), which
// the check does not follow. A collection of data taken from messages is
// what a round counted from them (a mailbox: votes[m.From] = true, then
// len(votes) against a quorum) only if its size is read; one that is only
// indexed, looked up and written (a block store by hash) is state.
func (la *loopAnalysis) counted(f *types.Var) bool {
	for _, fn := range la.sum.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ld, ok := instr.(*ssa.UnOp)
				if !ok || ld.Op != token.MUL {
					continue
				}
				fa, ok := ld.X.(*ssa.FieldAddr)
				if !ok || fieldOf(fa) == nil || fieldOf(fa).Origin() != f.Origin() {
					continue
				}
				if sizeObserved(ld) {
					return true
				}
			}
		}
	}
	return false
}

// sizeObserved reports whether the loaded collection v is used otherwise
// than by indexing, lookup, update or append.
func sizeObserved(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.Lookup, *ssa.MapUpdate, *ssa.IndexAddr, *ssa.Index, *ssa.DebugRef:
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(r.Call.Args) > 0 && r.Call.Args[0] == v {
				continue
			}
			return true
		default:
			return true
		}
	}
	return false
}

// carriedFields is the set of tag components a message type carries in
// its fields (or methods): the mailbox of a type whose round is a
// constant is that round's, and entering the round owes it nothing.
func (la *loopAnalysis) carriedFields(m *annotations.Msg) uint8 {
	var mask uint8
	for i, c := range m.Components {
		if i < la.k && c.Kind != annotations.Absent && c.Kind != annotations.Const {
			mask |= 1 << i
		}
	}
	return mask
}

// isCollection reports whether t is a slice or a map: what holds the
// messages of a round or what was counted from them (a scalar derived
// from a message, such as an accepted value, is state the round's
// transition computes, not a mailbox).
func isCollection(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// writtenField is the field of a struct instr writes with data derived
// from the parameter param: a store to a field (n.log = append(n.log,
// m.Cmd)), or an update of a map held in a field (n.votes[m.From] = true).
// keyedByTag reports whether instr writes an entry of a collection under
// a key or index that is a component of the current tag (Finalized[r.height]
// = b, log[r.slot] = v): such a field keeps each round's entry apart, a
// record of rounds, not a mailbox whose content one round would count in
// the next.
func keyedByTag(instr ssa.Instruction, tag map[*types.Var]bool) bool {
	var key ssa.Value
	switch in := instr.(type) {
	case *ssa.MapUpdate:
		key = in.Key
	case *ssa.Store:
		ia, ok := in.Addr.(*ssa.IndexAddr)
		if !ok {
			return false
		}
		key = ia.Index
	default:
		return false
	}
	for {
		switch k := key.(type) {
		case *ssa.Convert:
			key = k.X
			continue
		case *ssa.ChangeType:
			key = k.X
			continue
		}
		break
	}
	ld, ok := key.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	fv := fieldOf(fa)
	return fv != nil && tag[fv.Origin()]
}

func writtenField(instr ssa.Instruction, param *ssa.Parameter) (*types.Var, bool) {
	var addr ssa.Value
	var vals []ssa.Value
	switch in := instr.(type) {
	case *ssa.Store:
		addr, vals = in.Addr, []ssa.Value{in.Val}
	case *ssa.MapUpdate:
		ld, ok := in.Map.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return nil, false
		}
		addr, vals = ld.X, []ssa.Value{in.Key, in.Value}
	default:
		return nil, false
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil, false
	}
	for _, v := range vals {
		if derivesFrom(v, param, 6) {
			return fieldOf(fa), true
		}
	}
	return nil, false
}

// derivesFrom reports whether v is computed from param (directly, or
// through the local naive SSA spills it to) within depth instructions.
func derivesFrom(v ssa.Value, param *ssa.Parameter, depth int) bool {
	if v == ssa.Value(param) {
		return true
	}
	if depth == 0 {
		return false
	}
	if a, ok := v.(*ssa.Alloc); ok {
		// A local: what is stored into it, or into its elements and
		// fields (the spill of the parameter, append's variadic array).
		for _, ref := range *a.Referrers() {
			switch r := ref.(type) {
			case *ssa.Store:
				if r.Addr == ssa.Value(a) && derivesFrom(r.Val, param, depth-1) {
					return true
				}
			case *ssa.IndexAddr, *ssa.FieldAddr:
				for _, rr := range *r.(ssa.Value).Referrers() {
					if st, ok := rr.(*ssa.Store); ok && st.Addr == r.(ssa.Value) && derivesFrom(st.Val, param, depth-1) {
						return true
					}
				}
			}
		}
		return false
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	for _, op := range instr.Operands(nil) {
		if op != nil && *op != nil && derivesFrom(*op, param, depth-1) {
			return true
		}
	}
	return false
}

// noteEmptied records a write to a mailbox field of the process: one
// that empties it (a new collection: make, a literal, nil, s[:0]; or a
// constant) settles what a change of the tag owed it; any other makes it
// hold something again.
func (la *loopAnalysis) noteEmptied(s *state, addr, val ssa.Value) {
	j := la.mailboxAt(addr)
	switch {
	case j < 0:
	case fresh(val):
		s.owed &^= 1 << j
		s.owedByMsg &^= 1 << j
		s.clean |= 1 << j
	default:
		s.clean &^= 1 << j
		s.written |= 1 << j
		la.noteFill(s, j)
	}
}

// noteWritten records an update of the mailbox the collection v was loaded
// from (votes[m.From] = true).
func (la *loopAnalysis) noteWritten(s *state, v ssa.Value) {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if j := la.mailboxAt(ld.X); j >= 0 {
			s.clean &^= 1 << j
			s.written |= 1 << j
			la.noteFill(s, j)
		}
	}
}

// tagMoved records that component i of the tag changed (to a received
// message's, byMsg): every mailbox field whose messages carry it, unless
// just emptied, is owed an emptying.
func (la *loopAnalysis) tagMoved(s *state, i int, byMsg bool) {
	if la.loop.Handler == nil {
		return
	}
	for j, mb := range la.mailboxes() {
		if mb.comps&(1<<i) == 0 || s.clean&(1<<j) != 0 {
			continue
		}
		if s.written&(1<<j) == 0 && la.emptyAtEntry(s, j) {
			// Not filled in the round the step began in: nothing of
			// it is carried into the new one.
			continue
		}
		s.owed |= 1 << j
		if byMsg {
			s.owedByMsg |= 1 << j
		}
	}
}

// fresh reports whether val is a new, empty (or constant) value.
func fresh(val ssa.Value) bool {
	switch v := val.(type) {
	case *ssa.Const, *ssa.MakeMap, *ssa.MakeSlice:
		return true
	case *ssa.UnOp:
		a, ok := v.X.(*ssa.Alloc)
		return ok && v.Op == token.MUL && a.Comment == "complit"
	case *ssa.Slice:
		// n.acks = n.acks[:0]
		if c, ok := v.High.(*ssa.Const); ok && v.Low == nil {
			x, ok := int64Const(c)
			return ok && x == 0
		}
	}
	return false
}

// checkMailboxes reports, at a return of the handler, the mailbox fields
// it left holding the old round's content after the tag changed.
func (la *loopAnalysis) checkMailboxes(s *state, pos token.Pos) {
	for j, mb := range la.mailboxes() {
		switch {
		case s.owed&(1<<j) == 0:
		case !mb.msgs:
			la.report(3, pos, true, "the tag changes while %s, filled from received messages, is not emptied: if it counts what the round received (a mailbox), empty it when the tag changes", mb.field.Name())
		case s.written&(1<<j) == 0:
			// Only the entry's assumption says the field holds
			// something: other handlers may have emptied it.
			la.report(3, pos, true, "the tag changes without emptying %s, which may hold what was received in the old round: its content would count in the new one", mb.field.Name())
		case s.owedByMsg&(1<<j) != 0:
			la.report(4, pos, false, "the handler moves to the round of a received message without emptying %s, which holds what was received in the old round", mb.field.Name())
		default:
			la.report(3, pos, false, "the tag changes without emptying %s, which holds what was received in the old round: its content would count in the new one", mb.field.Name())
		}
	}
}

// isMailbox reports whether addr is the address of a mailbox field of the
// handler's process, reached through its receiver.
func (la *loopAnalysis) isMailbox(addr ssa.Value) bool { return la.mailboxAt(addr) >= 0 }

// mailboxAt is the index in mailboxes of the field addr is the address
// of, reached through the handler's receiver; -1 if it is none.
func (la *loopAnalysis) mailboxAt(addr ssa.Value) int {
	if la.loop.Handler == nil || !la.processState(addr) {
		return -1
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return -1
	}
	fv := fieldOf(fa)
	if fv == nil {
		return -1
	}
	for j, mb := range la.mailboxes() {
		if mb.field == fv.Origin() {
			return j
		}
	}
	return -1
}
