package tagflow

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/ssa"
)

var debug = os.Getenv("CCVET_DEBUG") != ""

// receive is a communication point that receives.
func (e *engine) receive(fr *frame, b *ssa.BasicBlock, st *pstate, pos token.Pos, what string) {
	e.jumpCheck(fr, b, st, pos, "this receive")
	e.monoCheck(st, pos, what)
	e.cp(st, pos, what)
	st.opaque = false
}

// jumpCheck checks condition IV at a send or receive.
func (e *engine) jumpCheck(fr *frame, b *ssa.BasicBlock, st *pstate, pos token.Pos, what string) {
	p := st.pending
	if p == nil {
		return
	}
	if p.loop != nil {
		if pb, ok := climb(fr, b, p.fr); ok && p.loop.blocks[pb] {
			return // still inside the reception that stored it
		}
	}
	if debug {
		fmt.Printf("jumpCheck %v: pending %+v\n  facts %v\n", e.pass.Fset.Position(pos), *p, st.fs)
		for k, v := range st.taint {
			fmt.Printf("  taint %s: %+v elem %+v\n", k, *v, v.elem)
		}
	}
	if e.checkedSingleton(st, p) || e.boundSettled(st, p) {
		st.pending = nil
		return
	}
	if p.witness.IsValid() {
		e.report(Finding{Cond: 4, Pos: pos,
			Message: fmt.Sprintf("%s is reached while the mailbox holds a %s of a later round than the tag (seen at line %d), and the tag has not jumped to it",
				what, p.msg, e.line(p.witness)),
			Related: []annotations.Related{{Pos: p.witness, Message: "a stored message of a later round seen here, not jumped to"}, {Pos: p.pos, Message: "message of a possibly later round stored here"}}})
		st.pending = nil
		return
	}
	if p.unsure.IsValid() && p.unsureOther != "" {
		e.report(Finding{Cond: 4, Pos: pos, Unproven: true,
			Message: fmt.Sprintf("cannot tell that the tag jumped to the latest round of the mailbox before %s: it is set at line %d from a %s, and the mailbox may also hold a %s of a later round",
				strings.TrimPrefix(what, "this "), e.line(p.unsure), p.unsureFrom, p.unsureOther),
			Related: []annotations.Related{{Pos: p.pos, Message: "message of a possibly later round stored here"}, {Pos: p.unsure, Message: "the tag is set here from a " + p.unsureFrom}}})
		st.pending = nil
		return
	}
	if p.unsure.IsValid() && p.unsureOne {
		e.report(Finding{Cond: 4, Pos: pos, Unproven: true,
			Message: fmt.Sprintf("cannot tell that the tag jumped to the latest round of the mailbox's %ss (stored at line %d) before %s: it is set at line %d from one of them, and the mailbox may hold several",
				p.msg, e.line(p.pos), strings.TrimPrefix(what, "this "), e.line(p.unsure)),
			Related: []annotations.Related{{Pos: p.pos, Message: "message of a possibly later round stored here"}, {Pos: p.unsure, Message: "the tag is set here from one message of the mailbox"}}})
		st.pending = nil
		return
	}
	if p.unsure.IsValid() {
		e.report(Finding{Cond: 4, Pos: pos, Unproven: true,
			Message: fmt.Sprintf("cannot tell that the tag jumped to the latest round of the mailbox's %ss (stored at line %d) before %s: the loop that sets it at line %d is not recognised as computing their maximum",
				p.msg, e.line(p.pos), strings.TrimPrefix(what, "this "), e.line(p.unsure)),
			Related: []annotations.Related{{Pos: p.pos, Message: "message of a possibly later round stored here"}, {Pos: p.unsure, Message: "the tag is set here, inside a loop or from what one computed"}}})
		st.pending = nil
		return
	}
	if st.lost != 0 {
		e.report(Finding{Cond: 4, Pos: pos, Unproven: true,
			Message: fmt.Sprintf("cannot tell that the tag jumped to the latest round of the mailbox's %ss (stored at line %d) before %s: the tag was set from what a call ccvet does not follow returned",
				p.msg, e.line(p.pos), strings.TrimPrefix(what, "this ")),
			Related: []annotations.Related{{Pos: p.pos, Message: "message of a possibly later round stored here"}}})
		st.pending = nil
		return
	}
	e.report(Finding{Cond: 4, Pos: pos,
		Message: fmt.Sprintf("%s is reached while the mailbox may hold a %s of a later round (stored at line %d) and the tag has not jumped to it",
			what, p.msg, e.line(p.pos)),
		Related: []annotations.Related{{Pos: p.pos, Message: "message of a possibly later round stored here"}}})
	st.pending = nil
}

// returnsNumbers reports whether a function of signature sig returns
// integers (one, or among several results).
func returnsNumbers(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if b, ok := sig.Results().At(i).Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return true
		}
	}
	return false
}

// noteUpdate records, on a pending jump whose reception is over, the first
// update of an algorithm variable (a store to memory that is not local to
// the function, or a call to a function that writes one, at pos; what
// describes it): endJumpCheck reports it if the jump never comes.
func (e *engine) noteUpdate(fr *frame, b *ssa.BasicBlock, st *pstate, pos token.Pos, what string) {
	p := st.pending
	if p == nil || p.update.IsValid() || !pos.IsValid() {
		return
	}
	if p.loop != nil {
		if pb, ok := climb(fr, b, p.fr); ok && p.loop.blocks[pb] {
			return // still inside the reception
		}
	}
	if e.checkedSingleton(st, p) || e.boundSettled(st, p) {
		st.pending = nil // the jump came first
		return
	}
	q := *p
	q.update, q.updateWhat = pos, what
	st.pending = &q
}

// noteTest records, on a pending jump whose reception is over, the first
// branch on what the mailbox holds whose outcome losing messages could
// change: a test of its contents, or of its length on the side that bounds
// it below (len(conflicts) > 0, len(acks) >= q). The side that bounds it
// above (len(acks) < q: retry) is taken by the same execution without the
// later round's messages too. Tests inside a loop of the iteration (a
// range over the mailbox, its exit test) are not recorded: what such a
// loop computes is checked where it is used.
func (e *engine) noteTest(fr *frame, b *ssa.BasicBlock, st *pstate, cond ssa.Value, holds bool) {
	p := st.pending
	if p == nil || p.update.IsValid() || p.test.IsValid() || !cond.Pos().IsValid() {
		return
	}
	if p.loop != nil {
		if pb, ok := climb(fr, b, p.fr); ok && p.loop.blocks[pb] {
			return // still inside the reception
		}
	}
	if e.innerLoop(fr, b) != nil {
		return
	}
	for {
		u, ok := cond.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			break
		}
		cond, holds = u.X, !holds
	}
	var x, y term
	var op token.Token
	byFacts := false // whether a length is known only from the facts
	if bin, ok := cond.(*ssa.BinOp); ok && isCompare(bin.Op) && isTracked(bin.X.Type()) {
		// len(conflicts) is named after its argument: two mailboxes of
		// the same length are still two.
		operand := func(v ssa.Value) term {
			if c, ok := v.(*ssa.Call); ok {
				if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "len" && len(c.Call.Args) == 1 {
					return e.term(fr, st, c.Call.Args[0]) + "#len"
				}
			}
			return e.term(fr, st, v)
		}
		x, y, op = operand(bin.X), operand(bin.Y), bin.Op
	} else if c, ok := st.conds[e.term(fr, st, cond)]; ok {
		x, y, op, byFacts = c.a, c.b, c.op, true
	} else {
		return
	}
	if !holds {
		op = negate(op)
	}
	if debug {
		fmt.Printf("noteTest %v: %s %s %s\n", e.pass.Fset.Position(cond.Pos()), x, op, y)
		for k, v := range st.taint {
			fmt.Printf("  taint %s: %+v elem %+v\n", k, *v, v.elem)
		}
	}
	for _, t := range [2]term{x, y} {
		// Data of such a message kept from the reception (hi =
		// max(hi, m.Round), then if hi > p.round {...}); not a field of
		// a message itself (a handler's tests of the request it was
		// handed are not about what it kept).
		if k, info := st.tainted(t); info != nil && k == t && info.elem == nil && info.msg != nil && info.msg.Name(e.pass.Pkg) == p.msg {
			if debug {
				fmt.Printf("noteTest: test of data %s\n", t)
			}
			q := *p
			q.test = cond.Pos()
			st.pending = &q
			return
		}
	}
	for k, info := range st.taint {
		ei := info.elem
		if ei == nil || ei.msg == nil || ei.msg.Name(e.pass.Pkg) != p.msg {
			continue
		}
		n := k + "#len"
		isLen := func(t term) bool { return t == n || byFacts && !t.isConst() && st.fs.cmp(t, n) == relEQ }
		of := func(t term) bool { return within(t, k) || isLen(t) }
		a, o, other := x, op, y
		if !of(a) {
			a, o, other = y, swapOp(op), x
		}
		if !of(a) || of(other) {
			continue // (the same mailbox on both sides: not a test of it)
		}
		if isLen(a) && (o == token.LSS || o == token.LEQ || o == token.EQL && other == "c:0") {
			return // bounded above: kept without the later messages too
		}
		if debug {
			fmt.Printf("noteTest: test of %s (%s %s %s)\n", k, a, o, other)
		}
		q := *p
		q.test = cond.Pos()
		st.pending = &q
		return
	}
}

// keptAcross checks condition IV at the back edge of an event loop (the
// tagged loop receives and stores itself, one message per iteration): a
// message of a possibly later round stored in this iteration, in a
// mailbox that lives on into the next one (heard, declared before the
// loop), with the tag not jumped to it. The next iterations may go on
// receiving, but what they do with the mailbox at hand is not followed
// across the back edge: "cannot prove", at the store.
func (e *engine) keptAcross(fr *frame, b *ssa.BasicBlock, st *pstate, p *pendingJump) {
	if e.checkedSingleton(st, p) || e.boundSettled(st, p) {
		return
	}
	if p.kept {
		e.report(e.keptFinding(p))
		return
	}
	var live []term
	for _, instr := range e.header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		for i, pred := range e.header.Preds {
			if pred == b {
				live = append(live, e.term(fr, st, phi.Edges[i]))
			}
		}
	}
	for v := range e.liveness(fr)[e.header] {
		live = append(live, e.term(fr, st, v))
	}
	for k, info := range st.taint {
		ei := info.elem
		if ei == nil || ei.msg == nil || ei.msg.Name(e.pass.Pkg) != p.msg {
			continue
		}
		for _, t := range live {
			if within(k, t) {
				e.report(e.keptFinding(p))
				return
			}
		}
	}
}

func (e *engine) keptFinding(p *pendingJump) Finding {
	return Finding{Cond: 4, Pos: p.pos, Unproven: true,
		Message: fmt.Sprintf("cannot tell that the tag jumps to the round of the %s stored here, which may be a later one: the mailbox keeps it across iterations of the loop, and the tag has not jumped to it by the end of this one", p.msg)}
}

// endJumpCheck checks condition IV where the iteration ends (the back edge,
// an exit of the loop): a jump still pending there is never made, and the
// mailbox goes. That is harmless if nothing was done with the later round's
// messages (the process behaves as if they were lost); it is a violation of
// IV, reported at the first update of an algorithm variable since the
// reception, if the process changed its state with them at hand (a
// candidate counting votes of a later term and becoming leader), or else at
// the first test of the mailbox that chose a path those messages may have
// decided (if len(conflicts) > 0 { continue }: the round is abandoned
// because of them). A path that sends or receives first was checked there.
func (e *engine) endJumpCheck(fr *frame, b *ssa.BasicBlock, st *pstate) {
	if p := st.pending; p != nil && p.update.IsValid() {
		e.jumpCheck(fr, b, st, p.update, p.updateWhat)
	} else if p != nil && p.test.IsValid() {
		e.jumpCheck(fr, b, st, p.test, "this test of the mailbox (the path it chooses ends the iteration without the jump)")
	}
}

// send is a communication point that sends the message val.
func (e *engine) send(fr *frame, b *ssa.BasicBlock, st *pstate, val ssa.Value, pos token.Pos) {
	e.jumpCheck(fr, b, st, pos, "this send")
	e.monoCheck(st, pos, "send")
	e.cp(st, pos, "send")
	e.sendCheck(fr, st, val, pos)
}

// sendCheck checks condition II: each mapped component of the message
// equals the current value of its synchronization variable.
func (e *engine) sendCheck(fr *frame, st *pstate, val ssa.Value, pos token.Pos) {
	for {
		if mi, ok := val.(*ssa.MakeInterface); ok && (e.ann.MsgOf(mi.Type()) == nil || e.ann.MsgOf(mi.X.Type()) != nil) {
			// (A value put in an interface that is itself a message
			// type, //sync:msg Height(),View(), is checked as that
			// interface's message.)
			val = mi.X
			continue
		}
		if ct, ok := val.(*ssa.ChangeType); ok && e.ann.MsgOf(val.Type()) == nil {
			// A message handed to a generic function as its type
			// parameter (send[T](ch chan T, m T)).
			val = ct.X
			continue
		}
		if _, ok := val.(*ssa.Parameter); ok && e.ann.MsgOf(val.Type()) == nil {
			// A send helper's parameter of an interface type
			// (sendTo(q int, m Message)): the message is what the
			// caller passed.
			if v, cfr := callerValue(fr, val); v != val {
				val, fr = v, cfr
				continue
			}
		}
		break
	}
	m := e.ann.MsgOf(val.Type())
	if m != nil {
		e.noteMsg(m)
		if len(m.Components) == len(e.vars) {
			e.noteComm(st, pos, true)
		}
	}
	if m == nil {
		// An envelope built in place (transport.Envelope{From: id, Msg: m}):
		// check the messages stored in its fields.
		for _, inner := range envelopeMessages(e, val) {
			e.sendCheck(fr, st, inner, pos)
		}
		return
	}
	if len(m.Components) != len(e.vars) {
		return // syncdirective reports the mismatch
	}
	_, ptr := val.Type().Underlying().(*types.Pointer)
	t := e.term(fr, st, val)
	name := m.Name(e.pass.Pkg)

	for i, c := range m.Components {
		v := e.vars[i]
		switch c.Kind {
		case annotations.Field:
			ft := componentTerm(t, ptr, c)
			r := st.fs.cmp(ft, st.cur[i])
			if st.widened && (r == relLE || r == relGE) {
				r = relUnknown // the equality may be among the facts the join dropped
			}
			switch r {
			case relEQ:
			case relUnknown:
				e.report(Finding{Cond: 2, Pos: pos, Unproven: true,
					Message: fmt.Sprintf("cannot tell that %s.%s of the %s sent here equals the current %s", name, c.Text, name, v.sv.Name)})
			default:
				msg := fmt.Sprintf("%s sent with %s different from the current %s", name, c.Text, v.sv.Name)
				if st.set[i].IsValid() && (r == relLE || r == relLT) {
					msg = fmt.Sprintf("%s sent with %s from before %s was set at line %d", name, c.Text, v.sv.Name, e.line(st.set[i]))
				}
				f := Finding{Cond: 2, Pos: pos, Message: msg}
				if st.set[i].IsValid() {
					f.Related = append(f.Related, annotations.Related{Pos: st.set[i], Message: v.sv.Name + " set here"})
				}
				e.report(f)
			}
		case annotations.Const:
			ct := constTerm(c.Value)
			switch st.fs.cmp(ct, st.cur[i]) {
			case relEQ:
			case relLT, relGT, relNE:
				e.report(Finding{Cond: 2, Pos: pos,
					Message: fmt.Sprintf("%s belongs to round %s but is sent while %s is not %s", name, c.Text, v.sv.Name, c.Text)})
			default:
				e.report(Finding{Cond: 2, Pos: pos, Unproven: true,
					Message: fmt.Sprintf("cannot tell that %s is %s when %s (round %s) is sent", v.sv.Name, c.Text, name, c.Text)})
			}
		case annotations.Absent:
		default:
			// A method or an enum mapping: this engine does not read them.
			e.report(Finding{Cond: 2, Pos: pos, Unproven: true,
				Message: fmt.Sprintf("cannot tell that %s.%s of the %s sent here equals the current %s: this engine does not read tags through methods or enum mappings", name, c.Text, name, v.sv.Name)})
		}
	}
}

// componentTerm is the term of a message component's field.
func componentTerm(msg term, ptr bool, c annotations.Component) term {
	t := msg
	if ptr {
		t = derefOf(t)
	}
	s := string(t)
	for i := range c.Fields {
		if i > 0 {
			if _, isPtr := c.Fields[i-1].Type().Underlying().(*types.Pointer); isPtr {
				s += "*"
			}
		}
		s += "." + strconv.Itoa(c.FieldIndex[i])
	}
	return term(s)
}

// mailboxStore checks condition III where a value from a received message
// is stored, and notes for condition IV when the message may be from a
// later round.
func (e *engine) mailboxStore(fr *frame, b *ssa.BasicBlock, st *pstate, val term, pos token.Pos, coll term, plain bool) {
	_, info := st.tainted(val)
	if info == nil {
		return
	}
	mt, minfo := st.message(val)
	// elemPtr: the mailbox holds pointers to the messages.
	elemPtr := false
	if minfo == nil {
		// A pointer to a received message kept in a variable (m
		// escapes: prop = &m).
		if d := derefOf(val); d != val {
			if k, info := st.message(d); info != nil && k == d && !info.ptr {
				mt, minfo = k, info
				if coll == "" {
					// A variable kept in registers: the message it
					// points to is the single-location mailbox.
					coll, plain = k, true
				} else {
					// A variable in memory (captured by a closure):
					// it holds the pointer.
					elemPtr = true
				}
			}
		}
	}
	envData := false
	if minfo == nil {
		// A field of the envelope a message was asserted from (the
		// sender, nd.leader = e.From): data of that message.
		if k, info := st.tainted(val); info != nil && info.msg == nil && info.elem == nil && info.iter == nil && !info.fromMbox && k != val && !st.inMailbox(val) {
			// The message asserted from it (one type: the case taken;
			// the copies of it name the same message).
			var found []term
			for mk, mi := range st.taint {
				if mi.msg != nil && mi.env == k && mi.elem == nil && !isCommaOk(mk) {
					found = append(found, mk)
				}
			}
			slices.Sort(found)
			one := len(found) > 0
			for _, mk := range found {
				one = one && st.taint[mk].msg == st.taint[found[0]].msg
			}
			if one {
				mt, minfo, envData = found[0], st.taint[found[0]], true
			}
		}
	}
	if minfo == nil {
		// A struct holding messages (an envelope built from a struct
		// literal): storing it stores them.
		var inner []term
		for k, info := range st.taint {
			if info.msg != nil && info.elem == nil && k != val && within(k, val) {
				inner = append(inner, k)
			}
		}
		slices.Sort(inner)
		for _, k := range inner {
			e.mailboxStore(fr, b, st, k, pos, "", false)
		}
		// Otherwise message-derived data whose message type is not
		// known yet (the raw value of a receive); its type is checked
		// where it is asserted, if it ever is stored as a message.
		return
	}
	m := minfo.msg
	if len(m.Components) != len(e.vars) {
		return
	}
	if minfo.ptr && st.fs.cmp(mt, "c:nil") == relEQ {
		// A nil message pointer (raw.(*Ack) of a typed nil, let
		// through by a protobuf getter's nil branch): no message, no
		// tag; any use of its fields panics.
		return
	}
	for _, c := range m.Components {
		// The same for a tag in a header it points to (Hdr *Header,
		// nil: m.GetHdr().GetTerm() is 0, m.Hdr.Term panics).
		if c.Kind != annotations.Field {
			continue
		}
		ct := string(componentTerm(mt, minfo.ptr, c))
		if i := strings.LastIndex(ct, "*."); i > 0 && st.fs.cmp(term(ct[:i]), "c:nil") == relEQ {
			return
		}
	}
	name := m.Name(e.pass.Pkg)
	fromMbox := st.inMailbox(mt)
	if fromMbox && val != mt {
		// Data of a message read from a mailbox (r.locked =
		// prop.Justify): what it is put in holds no message.
		return
	}
	// data: val is a part of the message with none of its tag fields
	// (high = nv.HighQC, block = p.Block).
	data := val != mt && within(val, mt)
	for _, c := range m.Components {
		if c.Kind == annotations.Field && within(componentTerm(mt, minfo.ptr, c), val) {
			data = false
		}
	}
	data = data || envData
	ge, eq, maybeLess := e.tagCompare(st, mt, minfo.ptr, m, st.cur)
	if data && !(m.Partial() && eq || !m.Partial() && ge) {
		// Data of a message put in the state after the tag moved on
		// (block = p.Block after r.phase = Commit): the message was
		// received at the last communication point or before, when the
		// tag was at most what it was there; comparing with that tag is
		// enough (condition I checks that it does not decrease).
		ge, eq, maybeLess = e.tagCompare(st, mt, minfo.ptr, m, st.old)
	}
	if coll != "" {
		e.stores++
		ei := &elemInfo{msg: m, ptr: minfo.ptr || elemPtr, ge: ge && !m.Partial() || eq, plain: plain, data: data, gen: e.stores}
		for i, c := range m.Components {
			r := relUnknown
			if c.Kind == annotations.Field {
				r = st.fs.cmp(componentTerm(mt, minfo.ptr, c), st.cur[i])
			}
			ei.rels = append(ei.rels, r)
			ei.curs = append(ei.curs, st.cur[i])
		}
		prev := st.taint[coll]
		ni := &taintInfo{elem: ei}
		if prev != nil {
			ni.msg, ni.ptr, ni.elem, ni.xid = prev.msg, prev.ptr, joinElem(prev.elem, ei), prev.xid
		}
		if ni.elem.xid == 0 {
			ni.elem.xid = e.newXID()
		}
		st.mutTaint()[coll] = ni
		e.xStoreMsg(st, minfo.xid, ni.elem.xid)
	}
	if debug {
		fmt.Printf("mailboxStore %v: msg %s term %s ge=%v eq=%v less=%v cur=%v\n  facts %v\n", e.pass.Fset.Position(pos), name, mt, ge, eq, maybeLess, st.cur, st.fs)
	}
	if fromMbox {
		// A message read from a mailbox (props[0]) and put somewhere
		// else: the process uses what it received, which condition III
		// checked where the message was stored; the tag may have moved
		// on since. The new place holds the same messages.
		return
	}
	e.noteStore(pos)
	partial := m.Partial()
	switch {
	case partial && eq, !partial && ge:
		if !eq && st.pending == nil {
			owner, l := e.recvOwner(fr, b)
			st.pending = &pendingJump{pos: pos, msg: name, fr: owner, loop: l, gen: e.stores}
		}
	case partial && !maybeLess && !st.opaque && !st.widened:
		// The filter keeps earlier rounds out but not later ones, which
		// a message without its round (a _ in its tag) may not be of.
		e.report(Finding{Cond: 3, Pos: pos,
			Message: fmt.Sprintf("%s stored without checking that its tag is == (%s): its tag has a _, so it must be of the current round, and a message of a later round can get in", name, e.names(len(e.vars)))})
	case st.opaque || st.widened || !maybeLess || st.lost != 0:
		why := "its filter calls code ccvet does not follow"
		switch {
		case st.opaque:
		case st.lost != 0:
			why = "the tag was set from what a call ccvet does not follow returned"
		case st.widened:
			why = "ccvet merged the many paths that reach it and kept only what all of them establish"
		default:
			why = "what its filter establishes does not tell"
		}
		e.report(Finding{Cond: 3, Pos: pos, Unproven: true,
			Message: fmt.Sprintf("cannot tell that the %s stored here is from the current round or a later one (%s)", name, why)})
	case minfo.fed.IsValid():
		e.report(Finding{Cond: 3, Pos: pos, Unproven: true,
			Message: fmt.Sprintf("cannot tell that the %s stored here is from the current round or a later one (it is handed over by the goroutine started at line %d, whose checks ccvet does not follow)", name, e.pass.Fset.Position(minfo.fed).Line)})
	default:
		want := ">="
		if partial {
			want = "=="
		}
		e.report(Finding{Cond: 3, Pos: pos,
			Message: fmt.Sprintf("%s stored without checking that its tag is %s (%s): a message of an earlier round can get in", name, want, e.names(len(e.vars)))})
	}
}

// inMailbox reports whether message term mt lies in a mailbox: it was
// loaded from memory where a reception stored messages.
func (st *pstate) inMailbox(mt term) bool {
	for k, info := range st.taint {
		if info.elem != nil && k != mt && within(mt, k) || info.elem != nil && info.elem.plain && k == mt {
			return true
		}
		// An element of a range over a mailbox map (for _, a := range
		// p.acks), or a message read from a mailbox and kept elsewhere.
		if info.iter != nil && k != mt && within(mt, k) || info.fromMbox && within(mt, k) {
			return true
		}
	}
	return false
}

// tagCompare says whether the path's facts imply tag(m) >= tag and
// tag(m) == tag, and whether tag(m) < tag is consistent with them, for the
// tag given by its components' terms (st.cur, or st.old).
func (e *engine) tagCompare(st *pstate, mt term, ptr bool, m *annotations.Msg, tag []term) (ge, eq, maybeLess bool) {
	ge, eq = true, true
	decided := false
	for i, c := range m.Components {
		var ct term
		switch c.Kind {
		case annotations.Absent:
			continue
		case annotations.Field:
			ct = componentTerm(mt, ptr, c)
			// (What a mailbox's filter established about a message
			// read from it whole, whose fields were not read since:
			// readys[q] = *firstReady.)
			e.elemFacts(st, ct)
		case annotations.Const:
			ct = constTerm(c.Value)
		default:
			ct = opaqueTerm(mt, c)
		}
		r := st.fs.cmp(ct, tag[i])
		if r != relEQ {
			eq = false
		}
		if decided {
			continue
		}
		switch r {
		case relEQ, relGE:
		case relGT:
			decided = true
		default:
			ge = false
			decided = true
		}
	}
	// Is "tag(m) < tag" consistent? Try each position as the first smaller
	// component.
	for i, c := range m.Components {
		if c.Kind == annotations.Absent {
			continue
		}
		fs := st.fs
		for j := 0; j < i; j++ {
			if m.Components[j].Kind == annotations.Absent {
				continue
			}
			fs = fs.with(mkFact(e.compTerm(mt, ptr, m.Components[j]), token.EQL, tag[j]))
		}
		fs = fs.with(mkFact(e.compTerm(mt, ptr, c), token.LSS, tag[i]))
		if fs.consistent() {
			maybeLess = true
			break
		}
	}
	return ge, eq, maybeLess
}

func (e *engine) compTerm(mt term, ptr bool, c annotations.Component) term {
	switch c.Kind {
	case annotations.Const:
		return constTerm(c.Value)
	case annotations.Field:
		return componentTerm(mt, ptr, c)
	}
	return opaqueTerm(mt, c)
}

// opaqueTerm is the value of a component this engine does not read (a
// method, an enum mapping): a term of its own that no fact constrains, so
// that every comparison with it is unknown.
func opaqueTerm(mt term, c annotations.Component) term {
	return term("u:" + string(mt) + "." + c.Text)
}

// call interprets a call: a communication function, an inlined function
// of the package, or an opaque call that may change the tag.
func (e *engine) call(fr *frame, b *ssa.BasicBlock, st *pstate, in *ssa.Call) []*pstate {
	common := in.Common()
	own := string(e.term(fr, nil, in))
	st.redefine(own)
	delete(st.mutAlias(), own)
	delete(st.alias, spentAlias(own)) // st.alias is st's own now
	for _, x := range extractsOf(in) {
		xo := fr.ctx + "/v" + strconv.Itoa(e.id(x))
		delete(st.mutAlias(), xo)
		delete(st.alias, spentAlias(xo))
	}
	if bi, ok := common.Value.(*ssa.Builtin); ok {
		if name := bi.Name(); (name == "delete" || name == "clear") && len(common.Args) > 0 && isMapType(common.Args[0].Type()) {
			st.forgetLen(e.term(fr, st, common.Args[0]))
		}
		e.builtinMarks(fr, b, st, in, bi.Name())
		e.builtin(fr, st, in, bi)
		return []*pstate{st}
	}
	fnObj := calleeObj(common)
	if c := e.ann.CommOf(fnObj); c != nil {
		if c.Kind == annotations.Send {
			e.sendCall(fr, b, st, common, in.Pos())
		} else {
			e.receive(fr, b, st, in.Pos(), "receive")
			t := e.term(fr, st, in)
			sig := common.Signature()
			if res := sig.Results(); res.Len() == 1 {
				e.taint(st, t, res.At(0).Type(), false)
				e.setRecv(fr, b, st, t, res.At(0).Type(), "", false, in.Pos())
			} else {
				for i := 0; i < res.Len(); i++ {
					e.taint(st, term(string(t)+"#"+strconv.Itoa(i)), res.At(i).Type(), false)
				}
				// The first result that may hold a message is the one
				// received; a trailing bool or error says nothing was.
				var val, ok term
				var vtyp types.Type
				okErr := false
				for i := 0; i < res.Len(); i++ {
					if vtyp == nil && e.mayHoldMsg(res.At(i).Type(), 0) {
						val, vtyp = term(string(t)+"#"+strconv.Itoa(i)), res.At(i).Type()
					}
				}
				if last := res.At(res.Len() - 1).Type(); types.Identical(last.Underlying(), types.Typ[types.Bool]) {
					ok = term(string(t) + "#" + strconv.Itoa(res.Len()-1))
				} else if types.Identical(last, types.Universe.Lookup("error").Type()) {
					ok, okErr = term(string(t)+"#"+strconv.Itoa(res.Len()-1)), true
				}
				e.setRecv(fr, b, st, val, vtyp, ok, okErr, in.Pos())
			}
		}
		return []*pstate{st}
	}
	if op := atomicCallOf(common); op != nil {
		if st.xActive() {
			e.xPoison(st, "an atomic operation")
		}
		return e.atomicCall(fr, b, st, in, op)
	}
	feeds := e.feedsTag(fr, st, in)
	// (With a jump pending, a number compared with the tag may be the
	// round jumped to: hi := latest(mins, r); if hi > r { r = hi }.)
	tagUse := feeds || st.pending != nil && e.comparedWithTag(fr, st, in)
	callee, bind := e.inlinable(fr, st, common, e.receptionLoop(fr, b) != nil, tagUse)
	if callee != nil {
		return e.inline(fr, b, st, in, callee, bind)
	}
	if feeds || in != nil && returnsNumbers(common.Signature()) {
		// (What it returns may become the tag, directly or through a
		// local: hi := latest(mins, r); r = hi.)
		st.lostFrom = e.term(fr, st, in)
	}
	if f := common.StaticCallee(); st.pending != nil && f != nil && f.Pkg == e.fn.Pkg && f.Blocks != nil && e.writesState(originOf(f), nil) {
		// A function of the package, not followed, that writes memory
		// other than its locals: an update of the process state.
		e.noteUpdate(fr, b, st, in.Pos(), "this call to "+f.Name()+", which writes the process state,")
	}
	// A map handed to code the engine does not follow may change size
	// (unless it is a function of the package that changes no map's).
	if f := common.StaticCallee(); f == nil || originOf(f).Pkg != e.fn.Pkg || e.sum.resizes[originOf(f)] {
		for _, a := range common.Args {
			if isMapType(a.Type()) {
				st.forgetLen(e.term(fr, st, a))
			}
		}
	}
	e.callMarks(fr, st, common)
	e.xCall(fr, st, in, common)
	e.xCallWrites(fr, st, common)
	e.opaqueCall(fr, st, in, common)
	e.elementResult(fr, st, in, common)
	return []*pstate{st}
}

// elementResult is called after a call the engine does not interpret: a
// message it returns when handed a mailbox (slices.MaxFunc(rs, byTerm),
// rs[len(rs)-1] after sort.Slice) is taken to be one of the mailbox's
// messages, as props[0] would be.
func (e *engine) elementResult(fr *frame, st *pstate, in *ssa.Call, c *ssa.CallCommon) {
	m := e.ann.MsgOf(in.Type())
	if m == nil {
		return
	}
	_, ptr := in.Type().Underlying().(*types.Pointer)
	for _, a := range c.Args {
		if _, info := st.tainted(e.term(fr, st, a)); info != nil && info.elem != nil && info.elem.msg == m {
			st.mutTaint()[e.term(fr, st, in)] = &taintInfo{msg: m, ptr: ptr, xid: info.elem.xid, fromMbox: true}
			return
		}
	}
}

func (e *engine) builtin(fr *frame, st *pstate, in *ssa.Call, bi *ssa.Builtin) {
	t := e.term(fr, st, in)
	switch bi.Name() {
	case "append":
		var res *taintInfo
		for _, a := range in.Call.Args {
			if _, info := st.tainted(e.term(fr, st, a)); info != nil {
				if res == nil {
					res = &taintInfo{}
				}
				res.elem = joinElem(res.elem, info.elem)
			}
		}
		if res != nil {
			st.mutTaint()[t] = res
		}
		// Appending a non-empty varargs slice gives a non-empty slice, of
		// exactly as many elements when the slice was empty.
		if args := in.Call.Args; len(args) == 2 {
			if sl, ok := args[1].(*ssa.Slice); ok {
				if a, ok := sl.X.(*ssa.Alloc); ok && a.Comment == "varargs" {
					st.add(mkFact(term("c:0"), token.LSS, t+"#len"))
					if arr, ok := derefType(a.Type()).Underlying().(*types.Array); ok &&
						st.fs.cmp(e.term(fr, st, args[0])+"#len", "c:0") == relEQ {
						st.add(mkFact(t+"#len", token.EQL, term("c:"+strconv.FormatInt(arr.Len(), 10))))
					}
				}
			}
		}
		if debug {
			fmt.Printf("append %s -> %v\n", t, res != nil)
		}
	case "len":
		if len(in.Call.Args) == 1 {
			l := term(string(e.term(fr, st, in.Call.Args[0])) + "#len")
			st.add(mkFact(t, token.EQL, l))
			st.add(mkFact(term("c:0"), token.LEQ, l))
			if c, ok := in.Call.Args[0].(*ssa.Const); ok && c.IsNil() {
				st.add(mkFact(l, token.EQL, term("c:0")))
			}
		}
	case "max", "min":
		if !isIntegerType(in.Type()) {
			return
		}
		for _, a := range in.Call.Args {
			at := e.term(fr, st, a)
			if _, info := st.tainted(at); info != nil && bi.Name() == "max" {
				c := *info
				if c.from == "" {
					c.from = at
				}
				st.mutTaint()[t] = &c
			}
			if bi.Name() == "max" {
				st.add(mkFact(at, token.LEQ, t))
			} else {
				st.add(mkFact(t, token.LEQ, at))
			}
		}
	}
}

// inlinable returns the function to interpret in place of the call, with
// the terms of its parameters and free variables, when it is a function of
// the package that matters to the tag.
//
// Inside a reception, every function of the package that writes memory
// other than its own locals is interpreted: what it writes is written by
// the reception (a handler p.onVote(m) that appends m to the mailbox, or
// writes an algorithm variable).
// handsCode reports whether call c hands the callee a function of the
// package that matters to the tag (r.with(func() { r.view = v.View }), the
// usual "run under the lock" helper): the callee is followed so that the
// function is, where it calls it.
func (e *engine) handsCode(c *ssa.CallCommon) bool {
	for _, a := range c.Args {
		var fn *ssa.Function
		switch a := a.(type) {
		case *ssa.MakeClosure:
			fn = a.Fn.(*ssa.Function)
		case *ssa.Function:
			fn = a
		default:
			continue
		}
		if o := originOf(fn); o.Pkg == e.fn.Pkg && (e.sum.relevant[o] || e.sum.writes[o]) {
			return true
		}
	}
	return false
}

// followsWriter reports whether callee o, not otherwise relevant, is
// followed for what it does with the memory of the process or with
// received messages: a writer of the process state inside a reception or
// handed a received message (it may store it), a function writing nothing
// but its locals handed received tags a refutation needs (handsReceived).
func (e *engine) followsWriter(fr *frame, st *pstate, c *ssa.CallCommon, o *ssa.Function, inRecv bool) bool {
	if e.writesState(o, nil) {
		return inRecv || e.handsMsg(fr, st, c)
	}
	return e.handsReceived(fr, st, c)
}

// handsReceived reports whether call c hands the callee received messages
// (or a mailbox) of a tag component the path has not bounded yet
// (unbounded.go): a callee that writes nothing but its locals is then
// followed, so that what it tests of them (valuesIn(votes, r) selecting
// the votes of round r) is known, not taken to bound them.
func (e *engine) handsReceived(fr *frame, st *pstate, c *ssa.CallCommon) bool {
	if st.xs != nil && st.xs.poison {
		return false
	}
	return e.handsTainted(fr, st, c, func(info *taintInfo) bool {
		for _, ei := range [2]*elemInfo{info.elem, info.iter} {
			if ei != nil && e.xOpen(st, ei.xid, ei.msg) {
				return true
			}
		}
		return info.elem == nil && info.msg != nil && e.xOpen(st, info.xid, info.msg)
	})
}

// handsMsg reports whether call c hands the callee a received message or
// a mailbox (not a part of one, nor a message the process built): a
// callee that writes the process state may store it (p.keep(m) in an
// event loop), and is followed so that the store is checked.
func (e *engine) handsMsg(fr *frame, st *pstate, c *ssa.CallCommon) bool {
	return e.handsTainted(fr, st, c, func(info *taintInfo) bool {
		return info.msg != nil && info.xid != 0 || info.elem != nil && !info.elem.data
	})
}

// handsTainted reports whether an argument of call c is, or points to, a
// tainted value (the message or mailbox itself, not a field of one) whose
// taint satisfies ok.
func (e *engine) handsTainted(fr *frame, st *pstate, c *ssa.CallCommon, ok func(*taintInfo) bool) bool {
	for _, a := range c.Args {
		t := e.term(fr, st, a)
		for _, k := range [2]term{t, derefOf(t)} {
			if info := st.taint[k]; info != nil && ok(info) {
				return true
			}
		}
	}
	return false
}

// xOpen reports whether a component of the messages numbered xid (a
// message's or a mailbox's, of type m) is not bounded yet on the path:
// only then can following what is done with them serve a refutation.
func (e *engine) xOpen(st *pstate, xid int, m *annotations.Msg) bool {
	if xid <= 0 || m == nil {
		return false
	}
	for i, c := range m.Components {
		if c.Kind == annotations.Field && (st.xs == nil || !st.xs.isCapped(xroot(xid, i))) {
			return true
		}
	}
	return false
}

func (e *engine) inlinable(fr *frame, st *pstate, c *ssa.CallCommon, inRecv, tagUse bool) (*ssa.Function, map[ssa.Value]term) {
	if c.IsInvoke() || fr.depth >= maxInlineDepth {
		return nil, nil
	}
	var callee *ssa.Function
	bind := make(map[ssa.Value]term)
	args := c.Args
	fn, vfr := c.Value, fr
	if p, ok := fn.(*ssa.Parameter); ok {
		// A function handed to a helper (collect(ch, keep) with keep
		// a literal of the caller): the caller's function, its free
		// variables bound in the caller's frame.
		if v, cfr := callerValue(fr, p); v != ssa.Value(p) {
			fn, vfr = v, cfr
		}
	}
	switch v := fn.(type) {
	case *ssa.Function:
		// An instance of a generic function is interpreted as built
		// for its type arguments (its messages are of their types); a
		// method expression's thunk as the method.
		callee = originOf(v)
		if v.Origin() != nil && v.Blocks != nil {
			callee = v
		}
	case *ssa.MakeClosure:
		fn := v.Fn.(*ssa.Function)
		callee = originOf(fn)
		if callee != fn && isBound(fn) {
			// A method value: the method, on the bound receiver.
			if vfr != fr {
				return nil, nil // (its receiver is a value of the caller)
			}
			args = append([]ssa.Value{v.Bindings[0]}, args...)
			break
		}
		for i, fv := range callee.FreeVars {
			bind[fv] = e.term(vfr, st, v.Bindings[i])
		}
	default:
		return nil, nil
	}
	o := originOf(callee)
	if callee.Blocks == nil || o.Pkg != e.fn.Pkg || !e.sum.relevant[o] && !e.handsCode(c) && !e.followsWriter(fr, st, c, o, inRecv) && !(tagUse && !e.writesState(o, nil)) {
		return nil, nil
	}
	if fr.fn == callee {
		return nil, nil // direct recursion; deeper cycles stop at maxInlineDepth
	}
	for i, p := range callee.Params {
		if i < len(args) {
			bind[p] = e.term(fr, st, args[i])
		}
	}
	return callee, bind
}

// feedsTag reports whether what call in returns is stored into a
// synchronization variable (p.round, p.step = nextTag(p.round, p.step)): a
// function of the package that writes no memory is then followed, so that
// the tag keeps its value.
func (e *engine) feedsTag(fr *frame, st *pstate, in *ssa.Call) bool {
	if in == nil {
		return false
	}
	vals := []ssa.Value{in}
	if refs := in.Referrers(); refs != nil {
		for _, r := range *refs {
			if x, ok := r.(*ssa.Extract); ok {
				vals = append(vals, x)
			}
		}
	}
	for _, v := range vals {
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if s, ok := r.(*ssa.Store); ok && s.Val == v && e.varAt(fr, st, s.Addr) >= 0 {
				return true
			}
		}
	}
	return false
}

// comparedWithTag reports whether what call in returns is compared with
// the current value of a synchronization variable.
func (e *engine) comparedWithTag(fr *frame, st *pstate, in *ssa.Call) bool {
	if in == nil || in.Referrers() == nil {
		return false
	}
	for _, r := range *in.Referrers() {
		bin, ok := r.(*ssa.BinOp)
		if !ok || !isCompare(bin.Op) {
			continue
		}
		other := bin.X
		if other == ssa.Value(in) {
			other = bin.Y
		}
		if ld, ok := other.(*ssa.UnOp); ok && ld.Op == token.MUL && e.varAt(fr, st, ld.X) >= 0 {
			return true
		}
		if _, isConst := other.(*ssa.Const); isConst {
			continue
		}
		t := e.term(fr, st, other)
		for _, c := range st.cur {
			if c == t || st.fs.cmp(c, t) == relEQ {
				return true
			}
		}
	}
	return false
}

func (e *engine) inline(fr *frame, b *ssa.BasicBlock, st *pstate, in *ssa.Call, callee *ssa.Function, bind map[ssa.Value]term) []*pstate {
	sub := &frame{fn: callee, ctx: fr.ctx + "." + strconv.Itoa(e.id(in)), bind: bind, depth: fr.depth + 1, loops: naturalLoops(callee),
		parent: fr, callBlock: b, call: in}
	sub.recvFr, sub.recvLoop = e.recvOwner(fr, b)
	// Names of this call site's frame may survive from an earlier call
	// (in a loop): they denote other values now.
	st.forgetFrame(sub.ctx)
	rets := e.run(sub, callee.Blocks[0], []*pstate{st}, false)
	own := string(e.term(fr, nil, in))
	var out []*pstate
	for i, r := range rets {
		r = r.clone()
		vals := sub.retVals[i]
		switch len(vals) {
		case 0:
		case 1:
			r.mutAlias()[own] = vals[0]
		default:
			// Each result is the callee's value itself, with its facts
			// (p, ok := r.await(): the filter's facts about p's fields),
			// read through the instruction that extracts it.
			r.mutAlias()[own] = term("s:ret@" + sub.ctx)
			for _, x := range extractsOf(in) {
				if x.Index < len(vals) {
					k := fr.ctx + "/v" + strconv.Itoa(e.id(x))
					r.mutAlias()[k] = vals[x.Index]
					if e.resultAlias == nil {
						e.resultAlias = make(map[string]bool)
					}
					e.resultAlias[k] = true
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// sendCall is a call of a //sync:send function at pos (or a go statement
// starting one): a communication point sending the messages it is handed.
func (e *engine) sendCall(fr *frame, b *ssa.BasicBlock, st *pstate, common *ssa.CallCommon, pos token.Pos) {
	args := common.Args
	if !common.IsInvoke() && common.Signature().Recv() != nil && len(args) > 0 {
		args = args[1:]
	}
	e.jumpCheck(fr, b, st, pos, "this send")
	e.monoCheck(st, pos, "send")
	e.cp(st, pos, "send")
	for _, a := range args {
		e.sendCheck(fr, st, a, pos)
	}
}

// extractsOf returns the instructions extracting the results of call in.
func extractsOf(in *ssa.Call) []*ssa.Extract {
	if in.Call.Signature().Results().Len() < 2 {
		return nil
	}
	var out []*ssa.Extract
	for _, r := range *in.Referrers() {
		if x, ok := r.(*ssa.Extract); ok && x.Tuple == in {
			out = append(out, x)
		}
	}
	return out
}

// opaqueCall handles a call the engine does not interpret: it may change a
// synchronization variable only if it can reach code of this package that
// writes one.
func (e *engine) opaqueCall(fr *frame, st *pstate, in *ssa.Call, c *ssa.CallCommon) {
	if e.notFollowed == nil {
		e.notFollowed = make(map[*ssa.Call]bool)
	}
	e.notFollowed[in] = true
	if debug {
		fmt.Printf("opaqueCall %v %s depth %d\n", e.pass.Fset.Position(in.Pos()), calleeName(c), fr.depth)
	}
	may, why := "", ""
	switch {
	case c.IsInvoke():
		if e.sum.mayWriteDynamic(c.Method.Name(), c.Signature()) {
			may = "the method " + c.Method.Name() + " of an interface"
		}
	case staticCallee(c) != nil:
		callee := staticCallee(c)
		if callee.Pkg == e.fn.Pkg && e.sum.writes[callee] {
			may = callee.Name()
			// Say why a function of the package is not followed.
			switch {
			case originOf(callee) == fr.fn:
				why = " (a recursive call)"
			case fr.depth >= maxInlineDepth:
				why = fmt.Sprintf(" (it is %d calls deep in the loop's code, and ccvet follows %d)", fr.depth+1, maxInlineDepth)
			}
		}
	default:
		if e.sum.mayWriteDynamic("", c.Signature()) {
			may = "a function value"
		}
	}
	for _, a := range c.Args {
		switch a := a.(type) {
		case *ssa.MakeClosure:
			if e.sum.writes[originOf(a.Fn.(*ssa.Function))] {
				may = "a function literal passed to " + calleeName(c)
			}
		case *ssa.Function:
			if e.sum.writes[originOf(a)] {
				may = "the function " + originOf(a).Name() + " passed to " + calleeName(c)
			}
		}
	}
	// Code that is handed the address of a synchronization variable may
	// write it, whatever package it belongs to.
	for _, a := range passedValues(c) {
		if i := e.varAt(fr, st, a); i >= 0 {
			may = calleeName(c) + ", which is passed the address of " + e.vars[i].sv.Name + ","
		}
	}
	if may == "" {
		return
	}
	for i := range e.vars {
		st.cur[i] = term(fmt.Sprintf("s:havoc@%d#%d", in.Pos(), i))
		e.xHavoc(st, i)
		st.set[i], st.lowAt = in.Pos(), token.NoPos
	}
	st.unmarkDirty()
	e.report(Finding{Cond: 1, Pos: in.Pos(), Unproven: true,
		Message: fmt.Sprintf("the call to %s may change %s and ccvet cannot follow it%s", may, e.names(len(e.vars)), why)})
}

// passedValues returns the arguments of a call, with the elements of a
// variadic argument list and the values inside interface conversions.
func passedValues(c *ssa.CallCommon) []ssa.Value {
	var out []ssa.Value
	var add func(v ssa.Value)
	add = func(v ssa.Value) {
		switch v := v.(type) {
		case *ssa.MakeInterface:
			add(v.X)
			return
		case *ssa.ChangeInterface:
			add(v.X)
			return
		case *ssa.Slice:
			if a, ok := v.X.(*ssa.Alloc); ok && a.Comment == "varargs" {
				for _, r := range *a.Referrers() {
					ia, ok := r.(*ssa.IndexAddr)
					if !ok {
						continue
					}
					for _, u := range *ia.Referrers() {
						if st, ok := u.(*ssa.Store); ok && st.Addr == ia {
							add(st.Val)
						}
					}
				}
				return
			}
		}
		out = append(out, v)
	}
	for _, a := range c.Args {
		add(a)
	}
	return out
}

func calleeName(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return c.Method.Name()
	}
	if f := staticCallee(c); f != nil {
		return f.Name()
	}
	return strings.TrimSpace(c.Value.Name())
}

// checkedSingleton reports whether the process looked at the mailbox for
// messages of the pending type and found no later round there: every live mailbox
// of that type holds exactly one message (a collection of length 1, or a
// single location: prop = m), whose tag the path's facts show is not above
// the current one (the "if mbox[0].Phase > p.phase { jump }" idiom, on its
// branch without the jump). There must be at least one such mailbox.
func (e *engine) checkedSingleton(st *pstate, p *pendingJump) bool {
	found := false
	for k, info := range st.taint {
		ei := info.elem
		if ei == nil || ei.msg == nil || ei.msg.Name(e.pass.Pkg) != p.msg || p.older(ei) {
			continue
		}
		if e.storedNotAbove(st, ei) {
			// Another mailbox of that type, whose messages were all
			// stored at or below a tag the current one is at least
			// (the answers of an earlier round, still in a variable).
			continue
		}
		if ei.data {
			return false // its elements do not show the messages' tags
		}
		if !ei.plain && e.storedAtMost(st, ei) {
			// A collection whose every message was stored at most at
			// a tag the current one is at least (the Readys of this
			// very round, after the jump to it).
			found = true
			continue
		}
		// The one message: a single-location mailbox's content, or a
		// collection's element 0 when it holds exactly one.
		el := k
		if !ei.plain {
			if st.fs.cmp(k+"#len", "c:1") != relEQ {
				return false
			}
			el = k + "*[0]"
		}
		if ei.ptr {
			el += "*"
		}
		notAbove := false
	compare:
		for i, c := range ei.msg.Components {
			if i >= len(st.cur) {
				break
			}
			var ct term
			switch c.Kind {
			case annotations.Field:
				ct = componentTerm(el, false, c)
			case annotations.Const:
				ct = constTerm(c.Value)
			case annotations.Absent:
				continue
			default:
				// A component this engine does not read: unknown.
				notAbove = false
				break compare
			}
			// (What the filter established about a field not read
			// since.)
			e.elemFacts(st, ct)
			switch st.fs.cmp(ct, st.cur[i]) {
			case relLT:
				notAbove = true
				break compare
			case relEQ, relLE:
				// Equal so far, or at most: the later components
				// decide (if this one is below, the message is below
				// whatever they are).
				notAbove = true
			default:
				notAbove = false
				break compare
			}
		}
		if !notAbove {
			return false
		}
		found = true
	}
	return found
}

// storedAtMost reports whether every message of mailbox ei is known to be
// at most the current tag (see storedNotAbove, which excludes equal).
func (e *engine) storedAtMost(st *pstate, ei *elemInfo) bool {
	return e.storedNotAbove(st, ei) || e.storedEqual(st, ei)
}

// storedEqual reports whether every message of mailbox ei is known to
// carry the current tag.
func (e *engine) storedEqual(st *pstate, ei *elemInfo) bool {
	for j, c := range ei.msg.Components {
		if j >= len(st.cur) {
			return false
		}
		var r rel
		switch c.Kind {
		case annotations.Absent:
			continue
		case annotations.Const:
			r = st.fs.cmp(constTerm(c.Value), st.cur[j])
		case annotations.Field:
			if j >= len(ei.rels) || j >= len(ei.curs) || ei.curs[j] == "" || ei.rels[j] != relEQ {
				return false
			}
			r = st.fs.cmp(ei.curs[j], st.cur[j])
		}
		if r != relEQ {
			return false
		}
	}
	return true
}

// storedNotAbove reports whether every message of mailbox ei is known to
// be at most the current tag, from how each component compared with the
// tag when it was stored (rels, curs) and how that tag compares with the
// current one, lexicographically.
func (e *engine) storedNotAbove(st *pstate, ei *elemInfo) bool {
	for j, c := range ei.msg.Components {
		if j >= len(st.cur) {
			return false
		}
		var r rel
		switch c.Kind {
		case annotations.Absent:
			continue
		case annotations.Const:
			r = st.fs.cmp(constTerm(c.Value), st.cur[j])
		case annotations.Field:
			if j >= len(ei.rels) || j >= len(ei.curs) || ei.curs[j] == "" {
				return false
			}
			r = composeLE(ei.rels[j], st.fs.cmp(ei.curs[j], st.cur[j]))
		}
		switch r {
		case relLT:
			return true
		case relEQ, relLE:
		default:
			return false
		}
	}
	return false // possibly equal: the message may be of this very round
}

// envelopeMessages returns the messages stored into the fields of the
// struct that val loads, when val is a composite literal built in place
// (SSA: an Alloc whose fields are stored, then loaded whole), before the
// load in the same block.
func envelopeMessages(e *engine, val ssa.Value) []ssa.Value {
	load, ok := val.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	a, ok := load.X.(*ssa.Alloc)
	if !ok || a.Referrers() == nil {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *a.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Referrers() == nil {
			continue
		}
		for _, r := range *fa.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != fa || st.Block() != load.Block() || !before(st, load) {
				continue
			}
			v := st.Val
			for {
				mi, ok := v.(*ssa.MakeInterface)
				if !ok {
					break
				}
				v = mi.X
			}
			if e.ann.MsgOf(v.Type()) != nil {
				out = append(out, v)
			} else if _, ok := v.(*ssa.Parameter); ok && types.IsInterface(v.Type()) {
				// A helper's parameter wrapped in the envelope
				// (bcast(m any) { out <- Envelope{Msg: m} }):
				// sendCheck follows it to what the caller passed.
				out = append(out, v)
			}
		}
	}
	return out
}

// before reports whether instruction a comes before b in their block.
func before(a, b ssa.Instruction) bool {
	for _, in := range a.Block().Instrs {
		switch in {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}
