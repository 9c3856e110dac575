package tagflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/ssa"
)

// pstate is the abstract state of one path through the loop body.
type pstate struct {
	fs facts
	// cur and old name each synchronization variable's value now and at
	// the last communication point.
	cur, old []term
	// set is where each variable was last assigned.
	set []token.Pos
	// lost has bit i set when variable i holds what a call the engine
	// did not follow returned (lostFrom names the last such call's
	// value): a filter that does not order it is "cannot prove".
	lost     uint64
	lostFrom term
	// lowAt is the assignment since the last communication point that
	// took the tag below the reference (it is below since, and variable
	// lowVar is the one that decides), or NoPos.
	lowAt  token.Pos
	lowVar int
	// lowSet is the variable assigned at lowAt.
	lowSet int
	// cpPos and cpWhat describe the last communication point.
	cpPos  token.Pos
	cpWhat string
	// alias maps the term of a call inlined on this path to the term of
	// what it returned.
	alias map[string]term
	// taint maps terms of values that come from received messages to the
	// message mapping that applies (nil until the type is known).
	taint map[term]*taintInfo
	// pending is set when the mailbox may hold a message of a later round
	// and the tag has not jumped to it yet.
	pending *pendingJump
	// opaque is set when the path passed a branch the engine could not
	// read since the last receive.
	opaque bool
	// widened is set once the state was joined with another one to bound
	// the number of paths: what it lacks is then not evidence of a
	// violation.
	widened bool
	// fsOwned is set when no other state shares fs's array, so that add
	// may append to it in place.
	fsOwned bool
	// shared says which of the maps alias, taint and conds other states
	// share (after a clone): they are written through mutAlias, mutTaint
	// and mutConds, which copy them first.
	shared uint8
	// conds maps the terms of boolean values computed by comparisons (in
	// inlined predicates, or merged by phis) to those comparisons.
	conds map[term]fact
	// recv is the most recent receive of the path inside the current
	// reception loop's iteration (never modified: replaced).
	recv *recvState
	// mbox are the locations of the process state emptied on the path
	// that may be written as mailboxes (fieldmbox.go; never modified:
	// replaced).
	mbox mboxMarks
	// xs follows the values that depend on received tags (unbounded.go).
	xs *xstate
	// offs are the values known to be another one plus a constant
	// (offset.go; never modified: replaced).
	offs []offEntry
}

type taintInfo struct {
	msg *annotations.Msg
	ptr bool // the term denotes a pointer to the message
	// elem describes the messages held, when the term is a mailbox.
	elem *elemInfo
	// iter describes them when the term is a range iterator over a
	// mailbox map.
	iter *elemInfo
	// xid is the root of a received message's tag values (unbounded.go).
	xid int
	// dxid numbers a value as received (a receive, a select), for the
	// data a witness may choose (datum.go).
	dxid int
	// fromMbox marks a message read from a mailbox and kept elsewhere.
	fromMbox bool
	// nextOf is, for the next step of a range over a mailbox map, the
	// mailbox's elements (its key and value are one); nextCur says they
	// are what the mailbox holds (it was not written since the range
	// began).
	nextOf  *elemInfo
	nextCur bool
	// from is, for a value computed from a message's field (max(x,
	// m.Slot)), that field.
	from term
	// oneOf is, for an element of a collection mailbox copied into a
	// variable (prep := prepares[0]), the collection: one of its
	// messages, maybe not the latest (condition IV).
	oneOf term
	// fed is, for a message received from a channel a goroutine started
	// by the loop sends on, that go statement (gofed.go).
	fed token.Pos
	// env is, for a message asserted from a received envelope, the
	// envelope: its other fields are the message's data (e.From).
	env term
}

type pendingJump struct {
	pos  token.Pos
	msg  string
	fr   *frame
	loop *natLoop
	// bound is set by a loop computing the maximum of the mailbox's tags
	// (maxloop.go); unsure where the tag was assigned inside another loop
	// that is not a reception.
	bound  *jumpBound
	unsure token.Pos
	// unsureOne says the tag was set from one message of a collection
	// that may hold several (at unsure); unsureOther names the message
	// type of another mailbox that may hold a later one.
	unsureOne   bool
	unsureOther string
	unsureFrom  string // the type of the message the tag was set from
	// witness is where a stored message was seen above the tag, which
	// has not been assigned since.
	witness token.Pos
	// update is the first update of an algorithm variable after the
	// reception (updateWhat says what it is): if the iteration ends with
	// the jump still pending, the process changed its state with a later
	// round's messages at hand and never jumped to that round.
	update     token.Pos
	updateWhat string
	// test is the first branch after the reception on what the mailbox
	// holds, on a side that losing messages could change (len(m) > 0):
	// a path chosen there acts on the later round's messages even if it
	// updates nothing.
	test token.Pos
	// kept says the message was stored, as a flag or a count, in a
	// variable of an event loop declared before it (keptAcross).
	kept bool
	// gen numbers the store (elemInfo.gen): a mailbox whose last store
	// came before it does not hold the message (see older).
	gen int
}

// older reports whether mailbox ei was last stored into before the
// pending message was stored (the message is not in it: r.qc holding the
// justification of the previous view's message).
func (p *pendingJump) older(ei *elemInfo) bool {
	return ei.gen > 0 && ei.gen < p.gen
}

func (st *pstate) clone() *pstate {
	c := *st
	st.fsOwned, c.fsOwned = false, false // they share fs now
	c.cur = append([]term(nil), st.cur...)
	c.old = append([]term(nil), st.old...)
	c.set = append([]token.Pos(nil), st.set...)
	// The maps too are shared until one of the states writes to them.
	st.shared, c.shared = sharedAll, sharedAll
	return &c
}

// Bits of pstate.shared.
const (
	sharedAlias uint8 = 1 << iota
	sharedTaint
	sharedConds
	sharedAll = sharedAlias | sharedTaint | sharedConds
)

// mutAlias returns st.alias for writing, copying it first if another
// state shares it.
func (st *pstate) mutAlias() map[string]term {
	if st.shared&sharedAlias != 0 || st.alias == nil {
		m := make(map[string]term, len(st.alias)+1)
		for k, v := range st.alias {
			m[k] = v
		}
		st.alias = m
		st.shared &^= sharedAlias
	}
	return st.alias
}

// mutTaint returns st.taint for writing, copying it first if another
// state shares it.
func (st *pstate) mutTaint() map[term]*taintInfo {
	if st.shared&sharedTaint != 0 || st.taint == nil {
		m := make(map[term]*taintInfo, len(st.taint)+1)
		for k, v := range st.taint {
			m[k] = v
		}
		st.taint = m
		st.shared &^= sharedTaint
	}
	return st.taint
}

// mutConds returns st.conds for writing, copying it first if another
// state shares it.
func (st *pstate) mutConds() map[term]fact {
	if st.shared&sharedConds != 0 || st.conds == nil {
		m := make(map[term]fact, len(st.conds)+1)
		for k, v := range st.conds {
			m[k] = v
		}
		st.conds = m
		st.shared &^= sharedConds
	}
	return st.conds
}

func (st *pstate) key() string {
	var b strings.Builder
	st.fs.writeKey(&b)
	st.writeSkeleton(&b)
	st.xs.writeKey(&b)
	if fullKey {
		st.writeFullKey(&b)
	}
	return b.String()
}

// skeleton is the part of the key that is not facts: states with the same
// skeleton can be joined.
func (st *pstate) skeleton() string {
	var b strings.Builder
	st.writeSkeleton(&b)
	return b.String()
}

func (st *pstate) writeSkeleton(b *strings.Builder) {
	// Positions (where a variable was set, the last communication point)
	// only serve messages: paths that differ only there are merged.
	for i := range st.cur {
		b.WriteByte('|')
		b.WriteString(string(st.cur[i]))
		b.WriteByte('>')
		b.WriteString(string(st.old[i]))
	}
	b.WriteByte('|')
	if len(st.taint) > 0 {
		keys := make([]term, 0, len(st.taint))
		for k := range st.taint {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(string(k))
			b.WriteByte(':')
			v := st.taint[k]
			if v.msg != nil {
				b.WriteString(v.msg.Type.Name())
			}
			// What is known of a mailbox's messages against the tag: two
			// paths that know different things of them are not one (the
			// one explored would stand for the other, and the Proposals
			// of a later epoch for those of this one).
			for _, ei := range [2]*elemInfo{v.elem, v.iter} {
				if ei == nil {
					continue
				}
				b.WriteByte('[')
				for _, r := range ei.rels {
					b.WriteByte(byte('0' + r))
				}
				if ei.ge {
					b.WriteByte('g')
				}
				b.WriteByte(']')
			}
		}
	}
	b.WriteByte('|')
	if len(st.alias) > 0 {
		keys := make([]string, 0, len(st.alias))
		for k := range st.alias {
			if !isSpentAlias(k) { // never read again (project)
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(k)
			b.WriteByte('=')
			b.WriteString(string(st.alias[k]))
		}
	}
	if st.pending != nil {
		b.WriteString("|P")
		// (Of which message: whether a test settles the jump depends on
		// it, see checkedSingleton.)
		b.WriteString(st.pending.msg)
		// A path whose jump is unsure, or bounded, is not one where it
		// is neither (maxloop.go).
		if st.pending.unsure.IsValid() {
			b.WriteString("U")
			if st.pending.unsureOne {
				b.WriteString("1")
			}
			b.WriteString(st.pending.unsureOther)
		}
		if st.pending.witness.IsValid() {
			b.WriteString("W")
		}
		if st.pending.bound != nil {
			b.WriteString(string(st.pending.bound.t))
		}
		if st.pending.update.IsValid() {
			b.WriteString("A")
		}
		if st.pending.test.IsValid() {
			b.WriteString("T")
		}
		if l := st.pending.loop; l != nil {
			// Stored inside a reception: its communication points do not
			// check the jump, those of a path whose message came before
			// do.
			b.WriteString("L")
			b.WriteString(strconv.Itoa(l.header.Index))
		}
		if st.pending.kept {
			b.WriteString("K")
		}
	}
	if r := st.recv; r != nil {
		b.WriteString("|R")
		b.WriteString(string(r.val))
		if r.dep {
			b.WriteString("!")
		}
	}
	// Whether a received message, or a pointer in it, is nil decides
	// which of its fields the path may read (m.GetHdr().GetTerm() returns
	// 0 for a nil header): paths that differ there are not joined, or the
	// join forgets both the pointer's nil-ness and the tag the other path
	// compared.
	for _, f := range st.fs {
		p := f.a
		if p == "c:nil" {
			p = f.b
		} else if f.b != "c:nil" {
			continue
		}
		if f.op != token.EQL && f.op != token.NEQ {
			continue
		}
		if _, info := st.tainted(p); info != nil || st.recv.holds(p) {
			b.WriteString("|N")
			b.WriteString(string(p))
			b.WriteString(f.op.String())
		}
	}
	if st.opaque {
		b.WriteString("|O")
	}
	if st.lowAt.IsValid() {
		// A path whose tag went below the reference, and which variable
		// did, is reported at that assignment: not merged with one that
		// would report the fall elsewhere.
		b.WriteString("|L")
		b.WriteString(strconv.Itoa(st.lowVar))
	}
	if st.widened {
		b.WriteString("|W")
	}
	st.writeMarks(b)
}

// rangeBranch follows a branch on whether a range over a map yields an
// element: it does only if the map is not empty, and one that yields none
// at its first step is empty. (Else a path that ranges over the votes
// twice may find none the first time and one the second, and what the
// first loop would have checked of each element is missing.)
func (e *engine) rangeBranch(fr *frame, st *pstate, cond ssa.Value, holds bool) bool {
	ex, ok := cond.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return true
	}
	nx, ok := ex.Tuple.(*ssa.Next)
	if !ok {
		return true
	}
	rg, ok := nx.Iter.(*ssa.Range)
	if !ok || !isMapType(rg.X.Type()) {
		return true
	}
	rt := e.term(fr, st, rg)
	y, n, l := rt+"#y", rt+"#len", e.term(fr, st, rg.X)+"#len"
	if holds {
		first := st.fs.cmp(y, "c:0") == relEQ
		st.fs = st.fs.withoutLoc(y)
		st.fsOwned = false
		st.add(mkFact(y, token.EQL, term("c:1")))
		if first && !st.addFact(term("c:0"), token.LSS, n) {
			return false
		}
		return st.addFact(term("c:0"), token.LSS, l)
	}
	if st.fs.cmp(y, "c:0") == relEQ {
		return st.addFact(n, token.EQL, term("c:0")) && st.addFact(l, token.EQL, term("c:0"))
	}
	return true
}

// forgetLen drops what is known of the length of map m, which code the
// engine does not interpret (or delete) may change.
func (st *pstate) forgetLen(m term) {
	st.fs = st.fs.withoutLoc(m + "#len")
	st.fsOwned = false
	st.add(mkFact(term("c:0"), token.LEQ, m+"#len"))
}

func isMapType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// add adds f to the facts (st.fs = st.fs.with(f), without copying the
// facts at every addition): the first addition after a clone copies them,
// with room to spare, and the next ones append in place.
func (st *pstate) add(f fact) {
	for _, g := range st.fs {
		if g == f {
			return
		}
	}
	if !st.fsOwned || len(st.fs) == cap(st.fs) {
		fs := make(facts, len(st.fs), len(st.fs)+4)
		copy(fs, st.fs)
		st.fs, st.fsOwned = fs, true
	}
	st.fs = append(st.fs, f)
}

// addFact adds a op b and reports whether the state stays consistent.
func (st *pstate) addFact(a term, op token.Token, b term) bool {
	st.add(mkFact(a, op, b))
	return st.fs.consistent()
}

// redefine is called when an SSA value is computed again (in a loop): the
// facts about its previous value are kept under a primed name, and older
// ones dropped. Terms are matched by value, not base: a value of an inlined
// frame ("0.12/v16") has dots in its name that base cuts at, so a helper's
// loop counter kept both its old and new facts under one name, and the
// contradiction let the solver derive anything (a message's round below
// the constant it was built with).
func (st *pstate) redefine(base string) {
	primed := base + "'"
	st.xRedefine(base, primed)
	st.dropOffs(func(t term) bool { v := t.value(); return v == base || v == primed })
	// A location below a value computed again is not the one marked.
	st.unmarkWhere(func(m term, _ bool) bool { b := m.value(); return b == base || b == primed })
	// Whether the state mentions base or primed, in one pass.
	is := func(t term) bool {
		b := t.value()
		return b == base || b == primed
	}
	mentions := func() bool {
		for _, f := range st.fs {
			if is(f.a) || is(f.b) {
				return true
			}
		}
		for i := range st.cur {
			if is(st.cur[i]) || is(st.old[i]) {
				return true
			}
		}
		for k := range st.taint {
			if is(k) {
				return true
			}
		}
		for _, v := range st.alias {
			if is(v) {
				return true
			}
		}
		return false
	}
	if !mentions() && !st.cursMention(is) {
		return
	}
	// The variables' values that are about to lose their names get
	// synthetic ones, with what the facts say about them.
	synth := make(map[term]term)
	for i := range st.cur {
		for j, t := range []*term{&st.cur[i], &st.old[i]} {
			if t.value() != primed {
				continue
			}
			name := st.freshName(i, j)
			synth[*t] = name
			add := st.fs.relate(name, *t, st.terms(), func(u term) bool { return u.value() != primed })
			for k := range st.cur {
				if k != i && st.cur[k] == *t {
					st.cur[k] = name
				}
				if k != i && st.old[k] == *t {
					st.old[k] = name
				}
			}
			if j == 0 && st.old[i] == *t {
				st.old[i] = name
			}
			*t = name
			for _, f := range add {
				st.add(f)
			}
		}
	}
	// The tags the mailboxes' filters compared the messages with follow
	// too: a name of the previous value now denotes the new one.
	st.renameCurs(func(t term) (term, bool) {
		switch t.value() {
		case primed:
			n, ok := synth[t]
			return n, ok
		case base:
			return renameValue(t, base, primed), true
		}
		return t, true
	})
	st.fs = st.fs.withoutValue(primed).renameValue(base, primed)
	for i := range st.cur {
		st.cur[i] = renameValue(st.cur[i], base, primed)
		st.old[i] = renameValue(st.old[i], base, primed)
	}
	for k := range st.conds {
		if k.value() == base || k.value() == primed {
			delete(st.mutConds(), k)
		}
	}
	taint := make(map[term]*taintInfo, len(st.taint))
	for k, v := range st.taint {
		if k.value() == primed {
			continue
		}
		taint[renameValue(k, base, primed)] = v
	}
	st.taint = taint
	st.shared &^= sharedTaint
	for k, v := range st.alias {
		st.mutAlias()[k] = renameValue(v, base, primed)
	}
}

// cursMention reports whether a mailbox's elemInfo.curs (or the maximum
// loop's bound's) names a term for which is holds.
func (st *pstate) cursMention(is func(term) bool) bool {
	for _, info := range st.taint {
		for _, ei := range [2]*elemInfo{info.elem, info.iter} {
			if ei == nil {
				continue
			}
			for _, c := range ei.curs {
				if c != "" && is(c) {
					return true
				}
			}
		}
	}
	if p := st.pending; p != nil && p.bound != nil && p.bound.ei != nil {
		for _, c := range p.bound.ei.curs {
			if c != "" && is(c) {
				return true
			}
		}
	}
	return false
}

// tainted returns the message information of the longest tainted term t
// lies within.
func (st *pstate) tainted(t term) (term, *taintInfo) {
	var best term
	var info *taintInfo
	for k, v := range st.taint {
		if within(t, k) && len(k) >= len(best) {
			if info == nil || len(k) > len(best) || v.msg != nil {
				best, info = k, v
			}
		}
	}
	return best, info
}

// elementCollection returns the collection mailbox (not a single location)
// an element of which term t lies within (reqs*[0].0), or "".
func (st *pstate) elementCollection(t term) term {
	for k, info := range st.taint {
		if info.oneOf != "" && within(t, k) {
			return info.oneOf
		}
		for _, ei := range [2]*elemInfo{info.elem, info.iter} {
			if ei == nil || ei.plain {
				continue
			}
			if _, ok := element(t, k, ei); ok {
				return k
			}
		}
	}
	return ""
}

// inCallerLoop reports whether an inlined frame fr was called from inside
// a loop (other than the tagged loop and receptions) of a caller.
func (e *engine) inCallerLoop(fr *frame) bool {
	for ; fr != nil && fr.depth > 0 && fr.parent != nil; fr = fr.parent {
		if e.innerLoop(fr.parent, fr.callBlock) != nil {
			return true
		}
	}
	return false
}

// loopSite is pos, or, in an inlined helper, the call in the loop's
// function that led there.
func loopSite(fr *frame, pos token.Pos) token.Pos {
	for ; fr != nil && fr.depth > 0 && fr.call != nil; fr = fr.parent {
		if fr.depth == 1 && fr.call.Pos().IsValid() {
			return fr.call.Pos()
		}
	}
	return pos
}

// message returns the tainted term with a known message type that t lies
// within, or the term t itself when t is a message.
func (st *pstate) message(t term) (term, *taintInfo) {
	var best term
	var info *taintInfo
	for k, v := range st.taint {
		if v.msg != nil && within(t, k) && len(k) >= len(best) {
			best, info = k, v
		}
	}
	return best, info
}

// run interprets fr.fn from block start with the given states. For the
// loop's own frame (loopFrame), it stays in the loop region and checks
// each back edge and exit; for an inlined callee it returns the states at
// its return instructions.
func (e *engine) run(fr *frame, start *ssa.BasicBlock, states []*pstate, loopFrame bool) []*pstate {
	seen := make(map[*ssa.BasicBlock]map[string]bool)
	rep := make(map[*ssa.BasicBlock]map[string]*pstate)
	// pinned are the states rep holds: join reads them later, so they are
	// interpreted on a copy. The others are used up by their block.
	pinned := make(map[*pstate]bool)
	work := make(map[*ssa.BasicBlock][]*pstate)
	var queue []*ssa.BasicBlock
	push := func(b *ssa.BasicBlock, st *pstate) {
		if e.aborted {
			return
		}
		e.enterBlock(fr, b, st)
		e.xEnter(fr, b, st)
		e.project(fr, b, st)
		e.observeEntry(fr, b, st)
		k := st.key()
		if seen[b] == nil {
			seen[b] = make(map[string]bool)
		}
		if seen[b][k] {
			return
		}
		if len(seen[b]) >= widenAfter {
			// Join with the previous state of the same shape: keep the
			// facts both have. Facts only shrink, so this terminates.
			sk := st.skeleton()
			if rep[b] == nil {
				rep[b] = make(map[string]*pstate)
			}
			if prev := rep[b][sk]; prev != nil {
				st = join(prev, st)
				k = st.key()
				if seen[b][k] {
					return
				}
			}
			rep[b][sk] = st
			pinned[st] = true
		}
		if len(seen[b]) >= maxStatesPerBlock {
			if debug {
				fmt.Printf("overflow at block %d (%s) of %s\n", b.Index, b.Comment, fr.fn.Name())
				n := 0
				for k := range seen[b] {
					if n++; n < 6 {
						fmt.Println("  ", k)
					}
				}
			}
			e.abort(b, "too many distinct paths through the loop")
			return
		}
		seen[b][k] = true
		if len(work[b]) == 0 {
			queue = append(queue, b)
		}
		work[b] = append(work[b], st)
	}
	for _, st := range states {
		push(start, st)
	}
	for len(queue) > 0 && !e.aborted {
		b := queue[0]
		queue = queue[1:]
		sts := work[b]
		work[b] = nil
		for _, st := range sts {
			if pinned[st] {
				st = st.clone()
			}
			e.block(fr, b, st, loopFrame, push)
		}
	}
	return fr.returns
}

func (e *engine) abort(b *ssa.BasicBlock, why string) {
	if e.aborted {
		return
	}
	e.aborted = true
	e.unprovenAll(e.loop.Pos(), "%s (the analysis gave up)", why)
}

// block interprets one block from its first non-phi instruction.
func (e *engine) block(fr *frame, b *ssa.BasicBlock, st *pstate, loopFrame bool, push func(*ssa.BasicBlock, *pstate)) {
	states := []*pstate{st}
	for _, instr := range b.Instrs {
		if _, ok := instr.(*ssa.Phi); ok {
			continue
		}
		e.steps++
		e.curFr = fr
		if e.steps > maxSteps {
			e.abort(b, "the loop is too large to analyse")
			return
		}
		var next []*pstate
		for _, s := range states {
			n := len(next)
			next = append(next, e.step(fr, b, s, instr, loopFrame)...)
			for _, s2 := range next[n:] {
				e.xFlow(fr, s2, instr)
			}
		}
		states = next
		if len(states) == 0 {
			return
		}
	}
	for _, s := range states {
		e.leave(fr, b, s, loopFrame, push)
	}
}

// leave follows the control-flow edges at the end of block b.
func (e *engine) leave(fr *frame, b *ssa.BasicBlock, st *pstate, loopFrame bool, push func(*ssa.BasicBlock, *pstate)) {
	last := b.Instrs[len(b.Instrs)-1]
	switch last := last.(type) {
	case *ssa.If:
		var open [2]*pstate
		for i := range b.Succs {
			s := st
			if i < len(b.Succs)-1 {
				s = st.clone() // st itself serves the last successor
			}
			if e.branch(fr, s, last.Cond, i == 0) {
				open[i] = s
			}
		}
		if open[0] != nil && open[1] != nil {
			e.xLossy(fr, open[:], last.Cond)
			e.xRegion(fr, b, open[:], last.Cond)
		}
		for i, succ := range b.Succs {
			if s := open[i]; s != nil { // (nil: infeasible)
				e.noteTest(fr, b, s, last.Cond, i == 0)
				e.edge(fr, b, succ, s, loopFrame, push)
			}
		}
	case *ssa.Jump:
		e.edge(fr, b, b.Succs[0], st, loopFrame, push)
	case *ssa.Return:
		if loopFrame {
			e.endJumpCheck(fr, b, st)
			e.monoCheck(st, last.Pos(), "the return from the loop")
			return
		}
		var vals []term
		for _, r := range last.Results {
			vals = append(vals, e.term(fr, st, r))
		}
		fr.returns = append(fr.returns, st)
		fr.retVals = append(fr.retVals, vals)
	case *ssa.Panic:
	}
}

// branch adds what cond (or its negation) implies; false if infeasible.
func (e *engine) branch(fr *frame, st *pstate, cond ssa.Value, holds bool) bool {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		return e.branch(fr, st, u.X, !holds)
	}
	e.xBranch(fr, st, cond, holds)
	e.branchRecv(fr, st, cond, holds)
	if !e.rangeBranch(fr, st, cond, holds) {
		return false
	}
	if bin, ok := cond.(*ssa.BinOp); ok && isCompare(bin.Op) {
		// A comparison with what a call the engine did not follow
		// returned about a message (p, s := m.Tag() of another
		// package): it may be what keeps stale messages out.
		for _, x := range [2]ssa.Value{bin.X, bin.Y} {
			call := x
			if ex, ok := x.(*ssa.Extract); ok {
				call = ex.Tuple
			}
			if c, ok := call.(*ssa.Call); ok {
				if e.notFollowed[c] && e.handsMessage(fr, st, c) {
					st.opaque = true
				}
			}
		}
	}
	if bin, ok := cond.(*ssa.BinOp); ok && isCompare(bin.Op) && isTracked(bin.X.Type()) {
		op := bin.Op
		if !holds {
			op = negate(op)
		}
		if debug {
			fmt.Printf("branch %v: %s %s %s\n", e.pass.Fset.Position(bin.Pos()), e.term(fr, st, bin.X), op, e.term(fr, st, bin.Y))
		}
		if !st.addFact(e.term(fr, st, bin.X), op, e.term(fr, st, bin.Y)) {
			return false
		}
		// The outcome itself, for a later branch on the same value
		// (leader := p.epoch%p.n == p.id; if leader {...}; ...; if
		// leader {...}): the facts about its operands may be gone by
		// then (loads of the process state are forgotten between
		// blocks).
		if ct := e.term(fr, st, cond); !ct.isConst() && !st.addFact(ct, token.EQL, term("c:"+strconv.FormatBool(holds))) {
			return false
		}
		// A test of the mailbox's tag that shows it holds nothing later
		// settles condition IV as a jump would.
		if st.pending != nil && e.checkedSingleton(st, st.pending) {
			st.pending = nil
		}
		return true
	}
	if bin, ok := cond.(*ssa.BinOp); ok && (bin.Op == token.EQL && holds || bin.Op == token.NEQ && !holds) {
		// Structs found equal (m.Pos == r.pos, a tag kept in a struct):
		// their integer fields are.
		if s, ok := bin.X.Type().Underlying().(*types.Struct); ok {
			if !e.structEqual(st, e.term(fr, st, bin.X), e.term(fr, st, bin.Y), s, 0) {
				return false
			}
		}
	}
	if bin, ok := cond.(*ssa.BinOp); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) && isPointer(bin.X.Type()) {
		// A pointer compared with nil (for nl == nil { ... } after nl
		// was set on some paths only).
		x, y := e.term(fr, st, bin.X), e.term(fr, st, bin.Y)
		if x == "c:nil" {
			x, y = y, x
		}
		if y == "c:nil" && x != y {
			op := bin.Op
			if !holds {
				op = negate(op)
			}
			if !st.addFact(x, op, y) {
				return false
			}
		}
	}
	t := e.term(fr, st, cond)
	if t.isConst() {
		return constValue(t).String() == strconv.FormatBool(holds)
	}
	if c, ok := st.conds[t]; ok {
		op := c.op
		if !holds {
			op = negate(op)
		}
		if !st.addFact(c.a, op, c.b) {
			return false
		}
	} else if call, isCall := cond.(*ssa.Call); isCall && e.mentionsMessage(fr, st, call, 0) {
		// A predicate the engine does not look into, about a message: it
		// may be what keeps stale messages out.
		st.opaque = true
	}
	return st.addFact(t, token.EQL, term("c:"+strconv.FormatBool(holds)))
}

func isCompare(op token.Token) bool {
	switch op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
		return true
	}
	return false
}

// edge moves st along b -> succ, assigning succ's phis.
func (e *engine) edge(fr *frame, b, succ *ssa.BasicBlock, st *pstate, loopFrame bool, push func(*ssa.BasicBlock, *pstate)) {
	// Leaving a loop that computes the maximum tag of the mailbox (and is
	// not itself a reception) records the bound that settles condition IV
	// (maxloop.go).
	if st.pending != nil {
		if l := e.innerLoop(fr, b); l != nil {
			pos := token.NoPos
			if last := b.Instrs[len(b.Instrs)-1]; last.Pos().IsValid() {
				pos = last.Pos()
			} else if c, ok := last.(*ssa.If); ok && c.Cond.Pos().IsValid() {
				pos = c.Cond.Pos()
			} else {
				pos = l.header.Parent().Pos()
			}
			e.seeLater(fr, st, l, pos)
		}
		for _, l := range fr.loops {
			if l.blocks[b] && !l.blocks[succ] && !(fr.depth == 0 && l.header == e.header) && !e.hasReceive(l) {
				e.leaveInner(fr, st, l)
			}
		}
	}
	if loopFrame {
		if succ == e.header {
			st.xIterationEnd()
			// The back edge is not a communication point: nothing is sent
			// or received there, so the tag may pass through intermediate
			// values across it (round++ at the end of the body, step =
			// Propose at the start of the next iteration) as it may
			// between any two statements.
			e.endJumpCheck(fr, b, st)
			if p := st.pending; p != nil && p.loop == nil {
				e.keptAcross(fr, b, st, p)
			}
			st.pending = nil // the mailbox of this iteration is gone
			st.dropBounds()
		} else if !e.region[succ] && !e.exitInside(succ) {
			e.endJumpCheck(fr, b, st)
			e.monoCheck(st, e.loop.Pos(), "the loop exit")
			return
		}
	}
	idx := -1
	for i, p := range succ.Preds {
		if p == b {
			idx = i
		}
	}
	// Evaluate all phis before assigning any (they are parallel).
	type asg struct {
		phi *ssa.Phi
		val term
		tnt *taintInfo
		// dtnt is what val points to, when that is a message or a
		// mailbox (prop = &m in a reception, prop a pointer kept in
		// registers).
		dtnt *taintInfo
		// xf is val's form (unbounded.go).
		xf xform
	}
	var asgs []asg
	for _, instr := range succ.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if idx < 0 {
			continue
		}
		v := phi.Edges[idx]
		t := e.term(fr, st, v)
		_, info := st.tainted(t)
		var dinfo *taintInfo
		if isPointer(phi.Type()) {
			dinfo = st.taint[derefOf(t)]
		}
		asgs = append(asgs, asg{phi, t, info, dinfo, e.xFormOf(st, t)})
	}
	// Phis are assigned in parallel: an edge value that names a phi of
	// this block means its previous value, which is primed below.
	redefined := make(map[string]bool)
	for _, a := range asgs {
		own := e.term(fr, nil, a.phi)
		st.redefine(string(own))
		redefined[string(own)] = true
	}
	for i := range asgs {
		if b := asgs[i].val.value(); redefined[b] {
			asgs[i].val = renameValue(asgs[i].val, b, b+"'")
		}
	}
	for _, a := range asgs {
		own := e.term(fr, nil, a.phi)
		if isCollection(a.phi.Type()) {
			if a.val == "c:nil" {
				st.add(mkFact(own+"#len", token.EQL, term("c:0")))
			} else {
				st.add(mkFact(own+"#len", token.EQL, a.val+"#len"))
			}
		}
		if isTracked(a.phi.Type()) || isPointer(a.phi.Type()) {
			// (A pointer: whether it is nil decides a later test of it
			// against nil, so the path that would dereference a nil one
			// is not followed.)
			st.add(mkFact(own, token.EQL, a.val))
		}
		if m := e.ann.MsgOf(a.phi.Type()); m != nil && a.tnt != nil && a.val != "c:nil" {
			// A received message merged by a phi (nv = m in a reception,
			// nv declared before it): its tag fields are the ones its
			// filter compared, as for a copy in memory (storeTerm).
			for _, c := range m.Components {
				if c.Kind == annotations.Field {
					st.add(mkFact(componentTerm(own, false, c), token.EQL, componentTerm(a.val, false, c)))
				}
			}
		}
		if a.tnt != nil {
			st.mutTaint()[own] = a.tnt
		}
		if a.dtnt != nil {
			st.mutTaint()[derefOf(own)] = a.dtnt
		}
		if c, ok := st.conds[a.val]; ok {
			st.mutConds()[own] = c
		}
		e.xSet(st, own, a.xf)
	}
	push(succ, st)
}

// exitInside reports whether block b, outside the loop's natural loop, is
// code of the loop's body that leaves it (if leader { send; return }): its
// statements are inside the for statement, and are checked as the body's.
func (e *engine) exitInside(b *ssa.BasicBlock) bool {
	if v, ok := e.inside[b]; ok {
		return v
	}
	lo, hi := e.loop.Stmt.Pos(), e.loop.Stmt.End()
	in := false
	for _, instr := range b.Instrs {
		p := instr.Pos()
		if _, ok := instr.(*ssa.Phi); ok || !p.IsValid() {
			continue
		}
		if p < lo || p >= hi {
			in = false
			break
		}
		in = true
	}
	if e.inside == nil {
		e.inside = make(map[*ssa.BasicBlock]bool)
	}
	e.inside[b] = in
	return in
}

// cp records a communication point: the tag there becomes the reference
// for condition I.
func (e *engine) cp(st *pstate, pos token.Pos, what string) {
	copy(st.old, st.cur)
	e.xCP(st)
	st.cpPos, st.cpWhat = pos, what
	st.lowAt = token.NoPos
	st.dropBounds()
}

// tagCmp compares the tag with the reference, lexicographically: it
// returns the first variable that is not known to be equal or at least
// its reference and how it compares, or -1 when there is none.
func (e *engine) tagCmp(st *pstate) (int, rel) {
	for i := range e.vars {
		r := st.fs.cmp(st.cur[i], st.old[i])
		if r == relUnknown || r == relNE {
			if rr, ok := e.rangeCmp(st, i); ok {
				if r == relNE && rr == relGE {
					rr = relGT
				}
				r = rr
			}
		}
		switch r {
		case relEQ, relGE:
			continue
		default:
			return i, r
		}
	}
	return -1, relEQ
}

// monoCheck checks condition I at a communication point: the tag is at
// least what it was at the previous one.
func (e *engine) monoCheck(st *pstate, pos token.Pos, what string) {
	if e.atomicJump(st) {
		return
	}
	if i, r := e.tagCmp(st); i >= 0 && r != relGT {
		v := e.vars[i]
		at := st.set[i]
		if r == relLT && st.lowAt.IsValid() && st.lowVar <= i {
			// The assignment that took the tag below the reference, not a
			// later one that left it there; when a higher variable went
			// down and back, its dip.
			at, i, v = st.lowAt, st.lowVar, e.vars[st.lowVar]
		}
		if !at.IsValid() {
			at = pos
		}
		switch r {
		case relLT:
			if debug {
				fmt.Printf("mono LT at %v (%s): var %d cur=%s old=%s\n  facts %v\n", e.pass.Fset.Position(pos), what, i, st.cur[i], st.old[i], st.fs)
			}
			msg := fmt.Sprintf("%s is set lower than it was at %s", v.sv.Name, e.where(st.cpPos, st.cpWhat))
			if i > 0 {
				msg += fmt.Sprintf(", while %s did not increase", e.names(i))
			}
			indirect := false
			if at == st.lowAt && st.lowSet < i {
				// A higher variable set back to what it was at the
				// communication point, a lower one being below.
				msg = fmt.Sprintf("%s is set back to what it was at %s, while %s is lower than it was there", e.vars[st.lowSet].sv.Name, e.where(st.cpPos, st.cpWhat), v.sv.Name)
				indirect = true
			}
			f := Finding{Cond: 1, Pos: at, Message: msg, indirect: indirect}
			f.Related = append(f.Related, annotations.Related{Pos: pos, Message: "the lower tag is reached at " + what})
			e.report(f)
			return
		default:
			if debug {
				fmt.Printf("mono unknown at %v (%s): var %d cur=%s old=%s\n  facts %v\n  xs %+v\n", e.pass.Fset.Position(pos), what, i, st.cur[i], st.old[i], st.fs, st.xs)
			}
			if from, ok := e.xRefutes(st, i); ok {
				// The old value was received and nothing bounds it above;
				// the new one does not depend on it (unbounded.go).
				msg := fmt.Sprintf("%s may be set lower than it was at %s: it held there a value received in a message, which nothing on the path bounds above, and is now set to a value that does not depend on it", v.sv.Name, e.where(st.cpPos, st.cpWhat))
				if i > 0 {
					msg += fmt.Sprintf(", while %s did not change", e.names(i))
				}
				f := Finding{Cond: 1, Pos: at, Message: msg}
				if from.IsValid() {
					f.Related = append(f.Related, annotations.Related{Pos: from, Message: v.sv.Name + " set to the received value here"})
				}
				f.Related = append(f.Related, annotations.Related{Pos: pos, Message: "the lower tag is reached at " + what})
				e.report(f)
				return
			}
			e.report(Finding{Cond: 1, Pos: at, Unproven: true,
				Message: fmt.Sprintf("cannot tell that %s is not lower than at %s", v.sv.Name, e.where(st.cpPos, st.cpWhat))})
			return
		}
	}
}

func (e *engine) names(n int) string {
	var ss []string
	for _, v := range e.vars[:n] {
		ss = append(ss, v.sv.Name)
	}
	return strings.Join(ss, ",")
}

func (e *engine) where(pos token.Pos, what string) string {
	if !pos.IsValid() {
		return what
	}
	return fmt.Sprintf("%s (line %d)", what, e.pass.Fset.Position(pos).Line)
}

func (e *engine) line(pos token.Pos) int { return e.pass.Fset.Position(pos).Line }

// step interprets one instruction; it returns the states after it (none
// if the path ends, several if an inlined call returns along several).
func (e *engine) step(fr *frame, b *ssa.BasicBlock, st *pstate, instr ssa.Instruction, loopFrame bool) []*pstate {
	define := func(v ssa.Value) {
		own := term(fr.ctx + "/v" + strconv.Itoa(e.id(v)))
		if e.term(fr, nil, v) == own {
			st.redefine(string(own))
		}
	}
	switch in := instr.(type) {
	case *ssa.DebugRef:
		e.debugRef(fr, b, st, in)
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			if i := e.varAt(fr, st, in.X); i >= 0 {
				define(in)
				if !st.addFact(e.term(fr, st, in), token.EQL, st.cur[i]) {
					return nil
				}
			} else if held := e.heldVars(fr, st, in); len(held) > 0 {
				define(in)
				for _, h := range held {
					if !st.addFact(e.term(fr, st, in)+term(h.path), token.EQL, st.cur[h.i]) {
						return nil
					}
				}
			} else if isTracked(in.Type()) {
				e.elemFacts(st, e.term(fr, st, in))
			} else if k, info := st.tainted(e.term(fr, st, in)); info != nil && info.elem == nil && k+"*" != e.term(fr, st, in) {
				// A message loaded from a received value in memory (the
				// field of an envelope kept in a variable): a message. (An
				// element of a mailbox has its filter's relations instead.)
				// A variable is marked when some of its fields get data of
				// a received message: a message built with a received
				// value (Vote{Value: v.Value}) is not a received message.
				e.refine(fr, st, in, nil, in.Type())
			}
		case token.ARROW:
			define(in)
			e.receive(fr, b, st, in.Pos(), "receive")
			t := e.term(fr, st, in)
			e.taint(st, t, in.Type(), in.CommaOk)
			e.markFed(st, t, in.X)
			if in.CommaOk {
				e.setRecv(fr, b, st, t+"#0", in.Type().(*types.Tuple).At(0).Type(), t+"#1", false, in.Pos())
			} else {
				e.setRecv(fr, b, st, t, in.Type(), "", false, in.Pos())
			}
		default:
			define(in)
		}
	case *ssa.Store:
		e.store(fr, b, st, in.Addr, in.Val, in.Pos())
	case *ssa.BinOp:
		define(in)
		e.arith(fr, st, in)
		if isCompare(in.Op) && isTracked(in.X.Type()) {
			st.mutConds()[e.term(fr, st, in)] = fact{e.term(fr, st, in.X), e.term(fr, st, in.Y), in.Op}
		}
	case *ssa.Send:
		e.send(fr, b, st, in.X, in.Pos())
	case *ssa.Select:
		define(in)
		recv := false
		for _, s := range in.States {
			if s.Dir == types.SendOnly {
				e.send(fr, b, st, s.Send, s.Pos)
			} else {
				recv = true
			}
		}
		if recv {
			e.receive(fr, b, st, in.Pos(), "receive")
			t := e.term(fr, st, in)
			st.mutTaint()[t] = &taintInfo{dxid: e.newXID()}
			// The value received is known once the case is: its extract.
			e.setRecv(fr, b, st, "", nil, "", false, in.Pos())
		}
	case *ssa.MakeMap, *ssa.MakeSlice:
		v := instr.(ssa.Value)
		define(v)
		// A new map is empty; a new slice is empty when made with length 0.
		if ms, ok := instr.(*ssa.MakeSlice); !ok || isZeroConst(ms.Len) {
			st.add(mkFact(e.term(fr, st, v)+"#len", token.EQL, term("c:0")))
		}
	case *ssa.MapUpdate:
		// A map handed to a helper (p.onPrepare(prepares, m)) is the
		// caller's.
		mv, mfr := callerValue(fr, in.Map)
		local := localMapIn(fr, in.Map)
		if !local {
			e.noteUpdate(fr, b, st, in.Pos(), "this update of "+e.describe(in.Map))
		}
		m := e.term(fr, st, in.Map)
		st.fs = st.fs.withoutLoc(m + "#len").with(mkFact(term("c:0"), token.LSS, m+"#len"))
		if !local {
			if e.receptionLoop(fr, b) == nil {
				st.unmark(m)
			} else if mk, ok := e.mapMbox(fr, b, st, in.Map); ok {
				// A mailbox of the process state, emptied in this round
				// (fieldmbox.go): written as a local mailbox is.
				st.dirty(mk)
			} else {
				// Like a store through a pointer: a map of the process
				// state written inside a reception is not a mailbox.
				st.unmark(m)
				e.report(Finding{Cond: 3, Pos: in.Pos(), Message: fmt.Sprintf("%s is written inside the reception loop, which may write only the mailbox", e.describe(in.Map))})
				return []*pstate{st}
			}
		}
		if local && mfr != nil && mfr.depth == 0 {
			e.hoistedMailbox(fr, b, st, mv, in.Pos())
		}
		vt := e.term(fr, st, in.Value)
		if _, info := st.tainted(vt); info == nil {
			// A mailbox that keeps the sender or a flag (prepares[m.From]
			// = true) stores the message all the same.
			if owner, l := e.writeScope(fr, b, st); l != nil && (mfr == owner && declaredOutside(mv, l, nil) || mfr != owner && declaredOutside(in.Map, l, nil)) {
				e.recvWrite(fr, b, st, in.Pos(), in.Key, in.Value)
			}
		}
		e.mailboxStore(fr, b, st, vt, in.Pos(), e.term(fr, st, in.Map), false)
	case *ssa.TypeAssert:
		define(in)
		e.refine(fr, st, in, in.X, in.AssertedType)
	case *ssa.Extract:
		define(in)
		if ta, ok := in.Tuple.(*ssa.TypeAssert); ok && in.Index == 0 {
			e.refine(fr, st, in, ta.X, ta.AssertedType)
		}
		if sel, ok := in.Tuple.(*ssa.Select); ok && in.Index >= 2 {
			// A value received by a select case: a message when the
			// channel carries one.
			e.refine(fr, st, in, sel, in.Type())
			n := 0
			for _, s := range sel.States {
				if s.Dir == types.RecvOnly {
					if n == in.Index-2 {
						e.markFed(st, e.term(fr, st, in), s.Chan)
					}
					n++
				}
			}
			if r := st.recv; r != nil && r.val == "" && r.fr == fr && r.b == sel.Block() {
				e.setRecv(fr, b, st, e.term(fr, st, in), in.Type(), term(string(e.term(fr, st, sel))+"#1"), false, sel.Pos())
			}
		}
	case *ssa.Field, *ssa.FieldAddr, *ssa.Index, *ssa.IndexAddr, *ssa.Lookup:
		v := instr.(ssa.Value)
		if fa, ok := instr.(*ssa.FieldAddr); ok && st.fs.cmp(e.term(fr, st, fa.X), "c:nil") == relEQ {
			// A field of a nil pointer: the path panics here (a
			// protobuf getter's nil branch, returning 0, followed by a
			// use of the message).
			return nil
		}
		define(v)
		switch instr.(type) {
		case *ssa.IndexAddr, *ssa.Lookup:
			// An element at a variable index names a new element each time.
			st.fs = st.fs.withoutSub("[?" + strconv.Itoa(e.id(v)) + "]")
		}
		e.refine(fr, st, v, nil, v.Type())
		if isTracked(v.Type()) {
			e.elemFacts(st, e.term(fr, st, v))
		}
	case *ssa.Next:
		define(in)
		if it, ok := in.Iter.(*ssa.Range); ok {
			if _, info := st.tainted(e.term(fr, st, it.X)); info != nil {
				// The key and value it yields (next#1, next#2) are an
				// element of the mailbox the iterator ranges over.
				ni := &taintInfo{}
				if ri := st.taint[e.term(fr, st, it)]; ri != nil && ri.iter != nil {
					ni.nextOf, ni.fromMbox = ri.iter, true
					// (Unless the mailbox was written since the range
					// began, what is known of its elements holds of the
					// one yielded: elementOf.)
					ni.nextCur = ri.iter == info.elem
				}
				st.mutTaint()[e.term(fr, st, in)] = ni
			}
		}
	case *ssa.Range:
		define(in)
		if isMapType(in.X.Type()) {
			// Nothing yielded yet, and the map's length as the range
			// began (rangeBranch): the map is often dead inside the loop,
			// and what is known of it dropped.
			rt := e.term(fr, st, in)
			st.add(mkFact(rt+"#y", token.EQL, term("c:0")))
			switch st.fs.cmp(e.term(fr, st, in.X)+"#len", "c:0") {
			case relEQ:
				st.add(mkFact(rt+"#len", token.EQL, term("c:0")))
			case relGT:
				st.add(mkFact(term("c:0"), token.LSS, rt+"#len"))
			}
		}
		// The iterator over a mailbox map remembers the mailbox's
		// elements, for the loop computing their maximum (maxloop.go):
		// the map itself is dead inside the loop.
		if _, info := st.tainted(e.term(fr, st, in.X)); info != nil && info.elem != nil {
			st.mutTaint()[e.term(fr, st, in)] = &taintInfo{iter: info.elem}
		}
	case *ssa.Slice:
		define(in)
		if _, info := st.tainted(e.term(fr, st, in.X)); info != nil {
			st.mutTaint()[e.term(fr, st, in)] = info
		}
	case *ssa.Call:
		return e.call(fr, b, st, in)
	case *ssa.Go:
		// A goroutine runs outside the loop's rounds; one that sends a
		// message (go p.send(m), go func() { p.out <- m }()) is not
		// followed, and says so.
		common := in.Common()
		if c := e.ann.CommOf(calleeObj(common)); c != nil && c.Kind == annotations.Send {
			// go p.send(m) with send a //sync:send function: the
			// message is sent as of here (its arguments are evaluated
			// here; the network may deliver it late, as any message).
			e.sendCall(fr, b, st, common, in.Pos())
		} else if fn := e.goTarget(common); fn != nil && e.sendsMessage(fn, 0, map[*ssa.Function]bool{}) {
			e.report(Finding{Cond: 2, Pos: in.Pos(), Unproven: true,
				Message: "cannot tell what the messages sent by the goroutine started here carry: ccvet does not follow goroutines (send from the loop, or start a //sync:send function: go p.send(m) is checked as a send)"})
		}
	case *ssa.Defer:
		// Deferred calls run when the loop's function returns.
	case *ssa.Alloc:
		define(in)
		// The address of a variable is not nil (got = &m, then a test
		// of got against nil after the reception). Recorded only where
		// the address is kept in a variable (a phi, a store), which is
		// where a test may meet it: a fact for every allocation made the
		// corpus's analysis about 15% slower.
		for _, r := range *in.Referrers() {
			kept := false
			switch r := r.(type) {
			case *ssa.Phi:
				kept = true
			case *ssa.Store:
				kept = r.Val == ssa.Value(in)
			}
			if kept {
				if !st.addFact(e.term(fr, st, in), token.NEQ, "c:nil") {
					return nil
				}
				break
			}
		}
		if isPointer(derefType(in.Type())) {
			// A new pointer variable is nil (var fwd *Forward, in
			// memory because a closure captures it).
			st.add(mkFact(loadOf(e.term(fr, st, in)), token.EQL, "c:nil"))
		}
	default:
		if v, ok := instr.(ssa.Value); ok {
			define(v)
		}
	}
	return []*pstate{st}
}

// goTarget returns the function a go statement starts, if it is known.
func (e *engine) goTarget(c *ssa.CallCommon) *ssa.Function {
	switch v := c.Value.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		f, _ := v.Fn.(*ssa.Function)
		return f
	}
	return nil
}

// sendsMessage reports whether fn, or a function of the package it calls
// (up to a few calls deep), sends a value that may hold a message on a
// channel or through a //sync:send function.
func (e *engine) sendsMessage(fn *ssa.Function, depth int, seen map[*ssa.Function]bool) bool {
	if fn == nil || depth > 3 || seen[fn] || fn.Blocks == nil {
		return false
	}
	seen[fn] = true
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Send:
				if e.mayHoldMsg(in.X.Type(), 0) {
					return true
				}
			case *ssa.Select:
				for _, s := range in.States {
					if s.Dir == types.SendOnly && e.mayHoldMsg(s.Send.Type(), 0) {
						return true
					}
				}
			case ssa.CallInstruction:
				c := in.Common()
				if obj := calleeObj(c); obj != nil {
					if cm := e.ann.CommOf(obj); cm != nil && cm.Kind == annotations.Send {
						return true
					}
				}
				if g := e.goTarget(c); g != nil && originOf(g).Pkg == e.fn.Pkg && e.sendsMessage(originOf(g), depth+1, seen) {
					return true
				}
			}
		}
	}
	return false
}

// taint marks a received value as message-derived.
func (e *engine) taint(st *pstate, t term, typ types.Type, commaOk bool) {
	if commaOk {
		t += "#0"
		typ = typ.(*types.Tuple).At(0).Type()
	}
	info := &taintInfo{dxid: e.newXID()}
	if m := e.ann.MsgOf(typ); m != nil {
		e.noteMsg(m)
		info.msg = m
		_, info.ptr = typ.Underlying().(*types.Pointer)
		info.xid = e.newXID()
	}
	st.mutTaint()[t] = info
}

// refine records the message type of a value derived from a received one
// (a type assertion, an envelope's field).
func (e *engine) refine(fr *frame, st *pstate, v ssa.Value, from ssa.Value, typ types.Type) {
	m := e.ann.MsgOf(typ)
	if m == nil {
		return
	}
	src := v
	if from != nil {
		src = from
	}
	t := e.term(fr, st, v)
	if k, info := st.tainted(e.term(fr, st, src)); info != nil {
		e.noteMsg(m)
		_, ptr := typ.Underlying().(*types.Pointer)
		// The same message (loaded from a pointer, asserted from an
		// interface) keeps its root.
		xid := info.xid
		if xid == 0 || info.msg != m {
			xid = e.newXID()
		}
		env := info.env
		if info.msg == nil && info.elem == nil && info.iter == nil && info.dxid != 0 && !isCommaOk(k) {
			env = k // (as received: dxid)
		}
		st.mutTaint()[t] = &taintInfo{msg: m, ptr: ptr, xid: xid, fromMbox: info.fromMbox || st.inMailbox(e.term(fr, st, src)), fed: info.fed, env: env}
	}
}

// arith records what an arithmetic result says about its operands.
func (e *engine) arith(fr *frame, st *pstate, in *ssa.BinOp) {
	if !isIntegerType(in.Type()) {
		return
	}
	v := e.term(fr, st, in)
	x, y := e.term(fr, st, in.X), e.term(fr, st, in.Y)
	switch in.Op {
	case token.ADD:
		if y == "c:1" && st.fs.cmp(x, "c:-1") == relEQ {
			// The first index of a range over a slice (the index starts
			// at -1 and is incremented before the test): 0, so a range
			// over a non-empty slice runs its body at least once. Only
			// this constant is folded: folding every increment would
			// unroll counting loops.
			st.add(mkFact(v, token.EQL, term("c:0")))
		}
		if y.isConst() {
			e.offset(st, v, x, constValue(y).String())
			e.exactOffset(st, v, x, y, false)
		} else if x.isConst() {
			e.offset(st, v, y, constValue(x).String())
			e.exactOffset(st, v, y, x, false)
		}
	case token.SUB:
		if y.isConst() {
			s := constValue(y).String()
			if strings.HasPrefix(s, "-") {
				s = s[1:]
			} else if s != "0" {
				s = "-" + s
			}
			e.offset(st, v, x, s)
			e.exactOffset(st, v, x, y, true)
		}
	}
}

// offset records v = x + c for a constant c (as a decimal string).
func (e *engine) offset(st *pstate, v, x term, c string) {
	switch {
	case c == "0":
		st.add(mkFact(v, token.EQL, x))
	case strings.HasPrefix(c, "-"):
		st.add(mkFact(v, token.LSS, x))
	default:
		st.add(mkFact(x, token.LSS, v))
	}
}

// debugRef follows assignments to lifted local synchronization variables,
// and stores of messages into local mailbox variables.
func (e *engine) debugRef(fr *frame, b *ssa.BasicBlock, st *pstate, ref *ssa.DebugRef) {
	if ref.IsAddr {
		return
	}
	id, ok := ast.Unparen(ref.Expr).(*ast.Ident)
	if !ok {
		return
	}
	if fr.depth != 0 {
		// In a helper, only what its reception loop writes to its own
		// variables (a count of messages, same++): checked as if
		// written in place.
		if obj := ref.Object(); obj != nil && obj.Pos() != id.Pos() && e.helperWrites(fr.fn)[id] {
			if _, info := st.tainted(e.term(fr, st, ref.X)); info == nil {
				if owner, l := e.recvOwner(fr, b); l != nil && owner == fr && !e.inSpan(l, obj.Pos()) {
					e.recvWrite(fr, b, st, ref.Pos(), ref.X)
				}
			}
		}
		return
	}
	write := e.writeIdents[id]
	for i, v := range e.vars {
		if !v.lifted || ref.Object() != v.obj {
			continue
		}
		t := e.term(fr, st, ref.X)
		if write {
			e.assign(fr, b, st, i, t, ref.Pos())
		} else {
			st.add(mkFact(t, token.EQL, st.cur[i]))
		}
		return
	}
	// Assigning a received message to a variable declared right there
	// (m, ok := recv()) is not storing it; assigning it to a variable
	// declared before is.
	if obj := ref.Object(); write && obj != nil && obj.Pos() != id.Pos() {
		vt := e.term(fr, st, ref.X)
		data := e.dataOfMessage(st, ref.X, vt)
		flag := isOkFlag(ref.X)
		if _, info := st.tainted(vt); info == nil || data || flag {
			// A count or a flag kept in a variable declared before the
			// reception loop (n++ for each message) stores the message;
			// so does a value computed from it (best = max(best, m.V)).
			if owner, l := e.writeScope(fr, b, st); l != nil && owner == fr && !e.inSpan(l, obj.Pos()) {
				e.recvWrite(fr, b, st, ref.Pos(), ref.X)
			}
		}
		if data || flag {
			return
		}
		// A pointer to a message kept in a variable (nl = m, m a
		// *NewLeader): the message it points to is the single-location
		// mailbox, as for prop = &m; the variable's phis carry it.
		coll, plain := term(""), false
		k, info := st.message(vt)
		if info != nil && info.elem == nil && info.ptr && k == vt {
			coll, plain = vt, true
		}
		e.mailboxStore(fr, b, st, vt, ref.Pos(), coll, plain)
		if info != nil && info.elem == nil && k != vt && !st.inMailbox(k) {
			// A field of a message (kingV = km.V), checked here as the
			// message: what the variable holds was read from a mailbox,
			// and copying it later is not storing a message again.
			st.mutTaint()[vt] = &taintInfo{fromMbox: true}
		}
	}
}

// structEqual adds x.f == y.f for the integer and boolean fields of the
// equal structs x and y of type s; false if that is inconsistent.
func (e *engine) structEqual(st *pstate, x, y term, s *types.Struct, depth int) bool {
	if depth > 3 {
		return true
	}
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		fx, fy := term(string(x)+"."+strconv.Itoa(i)), term(string(y)+"."+strconv.Itoa(i))
		if isTracked(f.Type()) {
			if !st.addFact(fx, token.EQL, fy) {
				return false
			}
		} else if inner, ok := f.Type().Underlying().(*types.Struct); ok {
			if !e.structEqual(st, fx, fy, inner, depth+1) {
				return false
			}
		}
	}
	return true
}

// dataOfMessage reports whether v, named t, is a number or a boolean
// computed from a message's fields that carries the message's taint under
// its own name (max(best, m.V), a variable merging such values): not a
// message, and not a field of one that the engine can name. Storing it
// stores the message it was computed from, which is checked where it is
// computed, in the reception (recvWrite).
func (e *engine) dataOfMessage(st *pstate, v ssa.Value, t term) bool {
	if !isTracked(v.Type()) {
		return false
	}
	k, info := st.message(t)
	return info != nil && k == t
}

// assign records a store of value t into synchronization variable i.
func (e *engine) assign(fr *frame, b *ssa.BasicBlock, st *pstate, i int, t term, pos token.Pos) {
	if l := e.receptionLoop(fr, b); l != nil {
		e.report(Finding{Cond: 3, Pos: pos, Message: fmt.Sprintf("%s is set inside the reception loop, which may write only the mailbox", e.vars[i].sv.Name)})
	}
	if debug {
		fmt.Printf("assign %v var %d := %s (cur %s old %s) low %v/%d pending %+v\n  facts %v\n", e.pass.Fset.Position(pos), i, t, st.cur[i], st.old[i], e.pass.Fset.Position(st.lowAt), st.lowVar, st.pending, st.fs)
		for k, v := range st.taint {
			fmt.Printf("  taint %s: %+v elem %+v\n", k, *v, v.elem)
		}
	}
	e.xAssign(st, i, t, pos)
	st.cur[i] = t
	st.set[i] = pos
	if i < 64 {
		// (Computed from a lost value, it stays lost: p.round++.)
		if st.lostFrom != "" && (t == st.lostFrom || within(t, st.lostFrom)) {
			st.lost |= 1 << i
		} else if _, info := st.tainted(t); t.isConst() || info != nil {
			st.lost &^= 1 << i
		}
	}
	st.unmarkDirty() // the messages of the mailboxes were received at the previous tag
	// Where the tag went below the reference, if it is below now. A
	// variable taken lower and back (l.slot--, then l.slot++ at the top
	// of the loop) leaves the tag equal, not above: its dip is what a
	// later reset of a lower variable (l.step = Prepare) makes a fall, so
	// it stays the place to report.
	switch j, r := e.tagCmp(st); {
	case r == relLT:
		if !st.lowAt.IsValid() || j < st.lowVar {
			st.lowAt, st.lowVar, st.lowSet = pos, j, i
		}
	case r == relEQ && st.lowAt.IsValid():
	default:
		st.lowAt = token.NoPos
	}
	if st.pending != nil && st.pending.witness.IsValid() && i == 0 {
		// The witness's first component was above the first variable's
		// old value; the other variables do not decide.

		p := *st.pending
		p.witness = token.NoPos
		st.pending = &p
	}
	if st.pending != nil {
		if e.innerLoop(fr, b) != nil {
			// Inside a loop (not a reception): one message's tag, maybe
			// not the latest; only a loop computing the maximum settles
			// the jump, at its exit.
			st.markUnsure(pos)
		} else if k, info := st.tainted(t); info != nil && st.pending.bound == nil && !e.higherAdopted(st, i, t, k, info) {
			// A lower component set from the message while a higher one
			// may still be below the message's (b.slot = max(b.slot,
			// fwd.Slot) with fwd of a later view): not the jump.
		} else if info != nil && st.pending.bound == nil {
			// The jump to the mailbox's tag. (After a loop computed the
			// maximum, the bound decides: p.term = reqs[best].Term may
			// go back below it.) One element of a collection that may
			// hold several is one message's tag, maybe not the latest.
			if other, from := e.otherLater(st, t, k, info); other != "" {
				// The jump to one mailbox's message while another may
				// hold a later one (a Proposal's zxid, Hints of later
				// ones stored too): not the maximum of the mailbox.
				if !st.pending.unsure.IsValid() {
					st.markUnsure(loopSite(fr, pos))
					p := *st.pending
					p.unsureOther, p.unsureFrom = other, from
					st.pending = &p
				}
			} else if coll := st.elementCollection(t); coll != "" && st.fs.cmp(coll+"#len", "c:1") != relEQ {
				if !st.pending.unsure.IsValid() {
					st.markUnsure(loopSite(fr, pos))
					if !e.inCallerLoop(fr) {
						p := *st.pending
						p.unsureOne = true
						st.pending = &p
					}
				}
			} else {
				st.pending = nil
			}
		}
	}
}

// hoistedMailbox reports a map made before the tagged loop, never
// replaced or emptied in it, that a reception of the loop writes: it
// collects the messages of every round (votes := make(map[int]int) hoisted
// out of the loop), as a field emptied only before the loop does.
func (e *engine) hoistedMailbox(fr *frame, b *ssa.BasicBlock, st *pstate, mv ssa.Value, pos token.Pos) {
	mm, ok := mv.(*ssa.MakeMap)
	if !ok || e.region[mm.Block()] || st.recv == nil {
		return
	}
	if _, l := e.writeScope(fr, b, st); l == nil {
		return
	}
	for _, r := range *mm.Referrers() {
		if c, ok := r.(*ssa.Call); ok && e.region[c.Block()] {
			if bi, ok := c.Call.Value.(*ssa.Builtin); ok && (bi.Name() == "clear" || bi.Name() == "delete") {
				return // emptied in the loop
			}
		}
	}
	if e.hoisted == nil {
		e.hoisted = make(map[token.Pos]bool)
	}
	if e.hoisted[pos] {
		return
	}
	e.hoisted[pos] = true
	name := "the map"
	for _, r := range *mm.Referrers() {
		if ref, ok := r.(*ssa.DebugRef); ok {
			if id, ok := ref.Expr.(*ast.Ident); ok {
				name = id.Name
			}
		}
	}
	e.report(Finding{Cond: 3, Pos: pos,
		Message: fmt.Sprintf("%s is made before the loop and never emptied in it: the messages of earlier rounds stay in the mailbox (make it, or clear it, where the round starts)", name),
		Related: []annotations.Related{{Pos: mm.Pos(), Message: "made here, before the loop"}}})
}

// handsMessage reports whether call c is handed a received message whole
// (tagOf(m), m.Tag()), not just some of its fields (coordOf(m.Phase, n)).
func (e *engine) handsMessage(fr *frame, st *pstate, c *ssa.Call) bool {
	args := c.Call.Args
	if c.Call.IsInvoke() {
		args = append([]ssa.Value{c.Call.Value}, args...)
	}
	for _, a := range args {
		t := e.term(fr, st, a)
		if k, info := st.message(t); info != nil && (k == t || k == derefOf(t)) {
			return true
		}
	}
	return false
}

// otherLater returns the message type of a mailbox other than the one
// the value t (tainted as k, info) comes from that may hold a message of a
// later round than the tag, or "".
func (e *engine) otherLater(st *pstate, t, k term, info *taintInfo) (other, from string) {
	src := k
	if info.oneOf != "" {
		src = info.oneOf
	}
	if info.from != "" {
		if k2, i2 := st.tainted(info.from); i2 != nil {
			src, info = k2, i2
		}
	}
	// The source's message type. (Several mailboxes of one type are
	// left to the rules above: elements, ranges, maximum loops.)
	m := info.msg
	if m == nil && info.elem != nil {
		m = info.elem.msg
	}
	if m == nil && info.nextOf != nil {
		m = info.nextOf.msg
	}
	if m == nil {
		return "", ""
	}
	for k2, i2 := range st.taint {
		ei := i2.elem
		if ei == nil || ei.msg == nil || ei.data || ei.msg == m || within(src, k2) || within(k2, src) || within(t, k2) {
			continue
		}
		if e.storedNotAbove(st, ei) {
			continue
		}
		return ei.msg.Name(e.pass.Pkg), m.Name(e.pass.Pkg)
	}
	return "", ""
}

// higherAdopted reports whether, as tag variable i is set to t, a value
// of the message tainted as k (info), the higher variables hold the
// message's own components: only then is setting a lower one from the
// message a jump to its tag. It is true when the message is not known.
func (e *engine) higherAdopted(st *pstate, i int, t, k term, info *taintInfo) bool {
	if i == 0 {
		return true
	}
	if info.from != "" {
		t = info.from
		if k, info = st.tainted(t); info == nil {
			return true
		}
	}
	msg, m, ptr := k, info.msg, info.ptr
	if ei := info.elem; ei != nil {
		el, ok := element(t, k, ei)
		if !ok || ei.data {
			return true
		}
		msg, m, ptr = el, ei.msg, ei.ptr
	}
	if m == nil {
		return true
	}
	for j := 0; j < i && j < len(m.Components); j++ {
		var ct term
		switch c := m.Components[j]; c.Kind {
		case annotations.Field:
			ct = componentTerm(msg, ptr, c)
		case annotations.Const:
			ct = constTerm(c.Value)
		case annotations.Absent:
			continue
		default:
			return false // a component this engine does not read
		}
		// (What the filter established about a field not read since.)
		e.elemFacts(st, ct)
		if st.cur[j] != ct && st.fs.cmp(st.cur[j], ct) != relEQ {
			if debug {
				fmt.Printf("higherAdopted: var %d %s is not %s\n", j, st.cur[j], ct)
			}
			return false
		}
	}
	return true
}

// store interprets a store to memory.
func (e *engine) store(fr *frame, b *ssa.BasicBlock, st *pstate, addr, val ssa.Value, pos token.Pos) {
	// A parameter spilled to its own variable (a closure captures it), not
	// a parameter stored elsewhere (append(p.log, m) in a handler).
	isParam := false
	if p, ok := val.(*ssa.Parameter); ok {
		isParam = spilled(p) == addr
	}
	e.storeTerm(fr, b, st, addr, e.term(fr, st, val), val, val.Type(), isParam, pos)
}

// storeTerm interprets a store of the value vt of type typ to memory;
// isParam marks a parameter spilled to memory.
func (e *engine) storeTerm(fr *frame, b *ssa.BasicBlock, st *pstate, addr ssa.Value, vt term, val ssa.Value, typ types.Type, isParam bool, pos token.Pos) {
	if i := e.varAt(fr, st, addr); i >= 0 {
		e.assign(fr, b, st, i, vt, pos)
		e.loopComputed(fr, st, val, pos)
		return
	}
	assignsTag := false
	if _, isStruct := typ.Underlying().(*types.Struct); isStruct {
		// A whole struct that holds a synchronization variable (p.st = s
		// under the tag p.st.round) assigns it the struct's field.
		at := string(derefOf(e.term(fr, st, addr))) + "."
		for i, v := range e.vars {
			if v.lifted || !strings.HasPrefix(string(v.addr), at) {
				continue
			}
			assignsTag = true
			rest := string(v.addr)[len(at)-1 : len(v.addr)-1]
			nv := term(string(vt) + rest)
			if strings.Contains(rest, "*") {
				// Through a pointer the struct holds: another variable.
				nv = term(fmt.Sprintf("s:havoc@%d#%d", pos, i))
			}
			e.assign(fr, b, st, i, nv, pos)
		}
	}
	loc := loadOf(e.term(fr, st, addr))
	st.renameStale(loc)
	st.fs = st.fs.withoutLoc(loc)
	if st2, isStruct := typ.Underlying().(*types.Struct); isStruct {
		// Copying a struct copies what is known about its integer fields.
		e.fieldFacts(st, loc, vt, st2, 0)
		if isParam {
			if _, info := st.tainted(vt); info != nil {
				st.mutTaint()[loc] = info
			}
			return // a parameter spilled to memory
		}
	}
	if isTracked(typ) {
		st.add(mkFact(loc, token.EQL, vt))
	} else if isPointer(typ) {
		// A pointer kept in a variable in memory (fwd = &f, fwd
		// captured by a closure): what it points to is what vt points
		// to, a message or a mailbox (as for phis, see edge); whether
		// it is nil is followed.
		st.add(mkFact(loc, token.EQL, vt))
		if d := st.taint[derefOf(vt)]; d != nil && !vt.isConst() {
			st.mutTaint()[derefOf(loc)] = d
		}
		if s, ok := derefType(typ).Underlying().(*types.Struct); ok && !vt.isConst() {
			// The fields reached through the stored pointer are the
			// pointee's (&Prepare{Hdr: &Header{Term: n.term}}): equal
			// as long as neither is written, a store through either
			// path dropping the equality.
			e.fieldFacts(st, derefOf(loc), derefOf(vt), s, 0)
		}
	}
	_, info := st.tainted(vt)
	if m := e.ann.MsgOf(typ); m != nil && info != nil && !isTracked(typ) {
		// A received message copied whole (p, ok := r.await() with p
		// in memory): its tag fields are the ones it was filtered by.
		for _, c := range m.Components {
			if c.Kind == annotations.Field {
				st.add(mkFact(componentTerm(loc, false, c), token.EQL, componentTerm(vt, false, c)))
			}
		}
	}
	local := false
	lbase := e.localBase(fr, addr)
	if lbase != nil {
		_, local = lbase.(*ssa.Alloc)
		local = local && !e.throughStatePointer(addr) || e.freshSlice(lbase) || freshStruct(lbase, nil)
	}
	if assignsTag {
		e.loopComputed(fr, st, val, pos)
	}
	if !local && !assignsTag && !(val != nil && isCollection(typ) && emptyValue(val)) {
		// (Emptying a mailbox of the process state for the next round is
		// not an update, nor is setting the tag through the struct that
		// holds it.)
		e.noteUpdate(fr, b, st, pos, "this update of "+e.describe(addr))
	}
	if !local && e.receptionLoop(fr, b) != nil {
		m, ok := e.fieldMbox(fr, b, st, addr, val, loc)
		if !ok {
			// Reported once here; the location is not made a mailbox, so
			// the violation does not echo wherever the value is used
			// later.
			st.unmark(loc)
			e.report(Finding{Cond: 3, Pos: pos, Message: fmt.Sprintf("%s is written inside the reception loop, which may write only the mailbox", e.describe(addr))})
			return
		}
		// A mailbox of the process state, emptied in this round
		// (fieldmbox.go): written as a local mailbox is.
		st.dirty(m)
		if info == nil {
			e.recvWrite(fr, b, st, pos, append(indexesOf(addr), val)...)
			return
		}
		st.mutTaint()[loc] = info
		coll, plain := loc, true
		if ia, ok := addr.(*ssa.IndexAddr); ok {
			coll, plain = e.term(fr, st, ia.X), false
		}
		e.mailboxStore(fr, b, st, vt, pos, coll, plain)
		return
	}
	if !local {
		e.storeOutside(st, addr, val, loc, info)
	}
	if info == nil && local {
		if base := lbase; base != nil {
			// (A composite literal's variable counts when the store is
			// in a function it is handed: mb := &Mailbox{}; mb.Put(m).)
			direct, _ := baseOf(addr)
			if a, ok := base.(*ssa.Alloc); ok && a.Comment != "varargs" && (a.Comment != "complit" || base != direct) && a.Comment != "slicelit" || e.freshSlice(base) || freshStruct(base, nil) {
				if owner, l := e.writeScope(fr, b, st); l != nil && declaredOutside(base, l, nil) && owner != nil {
					e.recvWrite(fr, b, st, pos, append(indexesOf(addr), val)...)
				}
			}
		}
	}
	if info != nil && local {
		if st.inMailbox(vt) && !info.fromMbox {
			// A message read from a mailbox, kept in a local (for _, a
			// := range p.acks with a in memory): what is loaded from
			// there is read from the mailbox too.
			c := *info
			c.fromMbox = true
			info = &c
		}
		if coll := st.elementCollection(vt); coll != "" && info.oneOf != coll {
			c := *info
			c.oneOf = coll
			info = &c
		}
		st.mutTaint()[loc] = info
		if base, ok := baseOf(addr); ok {
			if _, isAlloc := base.(*ssa.Alloc); isAlloc {
				st.mutTaint()[e.term(fr, st, base)] = &taintInfo{}
			}
		}
	}
	if base, ok := baseOf(addr); ok && info != nil {
		if a, ok := base.(*ssa.Alloc); ok && a.Comment == "varargs" && !feedsAppend(a) {
			return // an argument of a variadic call (log.Printf(..., m.Index)), not a mailbox
		}
		if a, ok := base.(*ssa.Alloc); ok && a.Comment == "complit" && addr != ssa.Value(a) && e.ann.MsgOf(derefType(a.Type())) != nil {
			// A field of a message being built (InstallMsg{Members:
			// prop.Members}): the new message carries received data, it
			// does not store the received message.
			delete(st.mutTaint(), loc)
			return
		}
		if a, ok := base.(*ssa.Alloc); ok && a.Comment == "complit" && addr != ssa.Value(a) {
			// A field of a struct literal (an envelope, an
			// Observation{Data: req} for a monitor): building it stores
			// nothing yet; storing the struct into a mailbox stores the
			// message it holds (mailboxStore). Data of a message (Resp{Term:
			// m.Term}) is not a message.
			if mt, _ := st.message(vt); mt != vt {
				delete(st.mutTaint(), loc)
			}
			return
		}
	}
	if info != nil && val != nil && e.dataOfMessage(st, val, vt) {
		return // checked where it was computed (best = max(best, m.V))
	}
	if info != nil {
		if a, ok := addr.(*ssa.Alloc); ok && isDeclaration(e, a, pos) {
			e.recvCopy(st, vt, loc)
			return // m := <-ch: naming the message is not storing it
		}
		coll, plain := loc, true
		if ia, ok := addr.(*ssa.IndexAddr); ok {
			coll, plain = e.term(fr, st, ia.X), false
		}
		e.mailboxStore(fr, b, st, vt, pos, coll, plain)
		return
	}
	// An unresolved pointer store may write an escaped synchronization field.
	if _, ok := addr.(*ssa.FieldAddr); !ok {
		for i, v := range e.vars {
			if k, ok := lastFieldKey(v.sv); ok && e.sum.escaped[k] && types.Identical(derefType(addr.Type()), v.sv.Type) {
				st.cur[i] = term(fmt.Sprintf("s:havoc@%d#%d", pos, i))
				e.xHavoc(st, i)
				st.set[i], st.lowAt = pos, token.NoPos
				st.unmarkDirty()
				e.report(Finding{Cond: 1, Pos: pos, Unproven: true, Message: fmt.Sprintf("this store through a pointer may write %s, whose address is taken elsewhere", v.sv.Name)})
			}
		}
	}
}

// baseOf strips field and index selections and loads of them from addr.
func baseOf(addr ssa.Value) (ssa.Value, bool) {
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return addr, true
			}
			addr = a.X
		default:
			return addr, true
		}
	}
}

// localBase returns the value addr is reached from (baseOf), followed
// from an inlined helper's parameter to its caller's value (mb.Put(m),
// storing into b.items with b its caller's mb): nil if none.
func (e *engine) localBase(fr *frame, addr ssa.Value) ssa.Value {
	base, ok := baseOf(addr)
	for ok {
		p, isParam := base.(*ssa.Parameter)
		if !isParam {
			break
		}
		cv, cfr := callerValue(fr, p)
		if cv == ssa.Value(p) {
			break
		}
		fr = cfr
		base, ok = baseOf(cv)
	}
	if !ok {
		return nil
	}
	return base
}

// freshStruct reports whether v is a struct a constructor of the package
// made for the caller (mb := NewMailbox()), or a merge of such (mb =
// NewMailbox() again on a later round's message).
func freshStruct(v ssa.Value, seen map[ssa.Value]bool) bool {
	switch v := v.(type) {
	case *ssa.Call:
		return returnsLiteral(v)
	case *ssa.Phi:
		if seen[v] {
			return true
		}
		if seen == nil {
			seen = make(map[ssa.Value]bool)
		}
		seen[v] = true
		for _, x := range v.Edges {
			if c, ok := x.(*ssa.Const); ok && c.IsNil() {
				continue
			}
			if !freshStruct(x, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// throughStatePointer reports whether addr is reached through a pointer
// loaded from memory that may lead to the process state: a receiver kept
// in a local because a closure captures it (n.leader = true, n in a heap
// cell) is the process, not a local variable.
func (e *engine) throughStatePointer(addr ssa.Value) bool {
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
			if isPointer(a.Type()) {
				for _, v := range e.vars {
					if v.root == a.X {
						return true // the cell holding the process
					}
				}
				if e.reachesState(a.Type(), 0) {
					return true
				}
			}
			addr = a.X
		default:
			return false
		}
	}
}

// describe renders an address for messages, e.g. "p.est".
func (e *engine) describe(addr ssa.Value) string {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		st := derefType(a.X.Type()).Underlying().(*types.Struct)
		return e.describe(a.X) + "." + st.Field(a.Field).Name()
	case *ssa.UnOp:
		return e.describe(a.X)
	case *ssa.Global:
		return a.Name()
	case *ssa.Parameter:
		return a.Name()
	case *ssa.FreeVar:
		return a.Name()
	case *ssa.Alloc:
		if a.Comment != "" && token.IsIdentifier(a.Comment) {
			return a.Comment // a variable a closure captures
		}
	case *ssa.IndexAddr:
		// An element: named as the source does (votes[m.From]).
		if x := e.indexExpr(a.Pos()); x != nil {
			return types.ExprString(x)
		}
		if d := e.describe(a.X); d != "a variable" {
			return d + "[...]"
		}
	}
	return "a variable"
}

// indexExpr returns the index expression of the package whose [ is at
// pos, or nil.
func (e *engine) indexExpr(pos token.Pos) ast.Expr {
	if !pos.IsValid() {
		return nil
	}
	if e.indexExprs == nil {
		e.indexExprs = make(map[token.Pos]ast.Expr)
		for _, f := range e.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if ix, ok := n.(*ast.IndexExpr); ok {
					e.indexExprs[ix.Lbrack] = ix
				}
				return true
			})
		}
	}
	return e.indexExprs[pos]
}

// receptionLoop returns the reception loop b lies in: the innermost loop
// of fr's function that contains b and a receive, and lies inside the
// tagged loop, or else the one the call that inlined fr was made in; nil
// if b is not in a reception loop.
func (e *engine) receptionLoop(fr *frame, b *ssa.BasicBlock) *natLoop {
	_, l := e.recvOwner(fr, b)
	return l
}

// ownReceptionLoop is receptionLoop within fr's own function.
func (e *engine) ownReceptionLoop(fr *frame, b *ssa.BasicBlock) *natLoop {
	var best *natLoop
	for _, l := range fr.loops {
		if !l.blocks[b] || fr.depth == 0 && (l.header == e.header || !e.region[l.header]) {
			continue
		}
		if !e.hasReceive(l) || e.isTagged(fr.fn, fr.loops, l) {
			continue
		}
		if best == nil || len(l.blocks) < len(best.blocks) {
			best = l
		}
	}
	return best
}

func (e *engine) hasReceive(l *natLoop) bool {
	for b := range l.blocks {
		for _, instr := range b.Instrs {
			if e.receives(instr, 0) {
				return true
			}
		}
	}
	return false
}

// receives reports whether instr receives: a receive, a select with a
// receive case, a call of a //sync:recv function or of a recvHelper.
func (e *engine) receives(instr ssa.Instruction, depth int) bool {
	switch in := instr.(type) {
	case *ssa.UnOp:
		return in.Op == token.ARROW
	case *ssa.Select:
		for _, st := range in.States {
			if st.Dir == types.RecvOnly {
				return true
			}
		}
	case *ssa.Call:
		if fn := calleeObj(in.Common()); fn != nil {
			if c := e.ann.CommOf(fn); c != nil && c.Kind == annotations.Recv {
				return true
			}
		}
		if fn := staticCallee(in.Common()); fn != nil && e.recvHelper(fn, depth+1) {
			return true
		}
	}
	return false
}

// recvHelper reports whether fn, a function of the package, receives once
// per call, outside any loop of its own (recv(deadline) (Msg, bool)
// around a select): a loop that calls it receives as if the receive were
// written in place, and is a reception loop. A function with a loop
// around its receive is a reception of its own, not such a helper.
func (e *engine) recvHelper(fn *ssa.Function, depth int) bool {
	fn = originOf(fn)
	if fn == nil || fn.Blocks == nil || fn.Pkg != e.fn.Pkg || depth > 3 {
		return false
	}
	if v, ok := e.recvHelpers[fn]; ok {
		return v
	}
	if e.recvHelpers == nil {
		e.recvHelpers = make(map[*ssa.Function]bool)
	}
	e.recvHelpers[fn] = false // (recursion)
	inLoop := make(map[*ssa.BasicBlock]bool)
	for _, l := range naturalLoops(fn) {
		for b := range l.blocks {
			inLoop[b] = true
		}
	}
	found := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if e.receives(instr, depth) {
				if inLoop[b] {
					return false
				}
				found = true
			}
		}
	}
	e.recvHelpers[fn] = found
	return found
}

// isDeclaration reports whether a store into alloc at pos initialises the
// named local variable alloc on its declaration line.
func isDeclaration(e *engine, a *ssa.Alloc, pos token.Pos) bool {
	switch a.Comment {
	case "", "varargs", "complit", "slicelit", "new":
		return false
	}
	return a.Pos().IsValid() && pos.IsValid() && e.line(a.Pos()) == e.line(pos)
}

// isOkFlag reports whether v is the flag of a comma-ok type assertion,
// map lookup or receive (q, ok = raw.(Msg) with ok declared before): it
// says whether a value was there, it is not the message.
func isOkFlag(v ssa.Value) bool {
	x, ok := v.(*ssa.Extract)
	if !ok || x.Index != 1 {
		return false
	}
	switch t := x.Tuple.(type) {
	case *ssa.TypeAssert, *ssa.Lookup:
		return true
	case *ssa.UnOp:
		return t.Op == token.ARROW
	}
	return false
}

func isCollection(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

func isZeroConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.String() == "0"
}

// renameStale is called before a store to location loc: a variable's value
// (current or old) named after what loc, or a location below it, held
// (p.round = p.next, then p.next = ...) is the old content, not what a
// later load of loc reads. It gets a synthetic name, with what the facts
// say about it relative to the terms that the store leaves valid.
func (st *pstate) renameStale(loc term) {
	stale := false
	for i := range st.cur {
		stale = stale || within(st.cur[i], loc) || within(st.old[i], loc)
	}
	if !stale {
		return
	}
	for i := range st.cur {
		for j, t := range []*term{&st.cur[i], &st.old[i]} {
			if !within(*t, loc) {
				continue
			}
			was := *t
			name := st.freshName(i, j)
			add := st.fs.relate(name, was, st.terms(), func(u term) bool { return !within(u, loc) })
			for k := range st.cur {
				if st.cur[k] == was {
					st.cur[k] = name
				}
				if st.old[k] == was {
					st.old[k] = name
				}
			}
			for _, f := range add {
				st.add(f)
			}
		}
	}
}

// freshName returns a synthetic name for variable i's current (j == 0) or
// old value that the state does not use yet; two names per role suffice.
func (st *pstate) freshName(i, j int) term {
	for g := 0; ; g++ {
		name := term(fmt.Sprintf("s:%c%d_%d", "co"[j], i, g))
		used := false
		for _, t := range st.terms() {
			used = used || t == name
		}
		for k := range st.cur {
			used = used || st.cur[k] == name || st.old[k] == name
		}
		for _, o := range st.offs {
			used = used || o.t == name || o.base == name
		}
		if !used {
			return name
		}
	}
}

// terms lists the terms the facts mention.
func (st *pstate) terms() []term {
	seen := make(map[term]bool)
	var out []term
	for _, f := range st.fs {
		for _, t := range []term{f.a, f.b} {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// relate returns the facts that give name the relations t has with each
// term of us that keep accepts (relFact(name, fs.cmp(t, u), u)), from one
// order graph: the renamings call it for every term of the state, and a
// graph per comparison was most of their cost.
func (fs facts) relate(name, t term, us []term, keep func(term) bool) facts {
	var out facts
	s := fs.solve(t)
	defer s.release()
	for _, u := range us {
		if !keep(u) {
			continue
		}
		if f, ok := relFact(name, s.cmp(t, u), u); ok {
			out = append(out, f)
		}
	}
	return out
}

// relFact renders "a r b" as a fact.
func relFact(a term, r rel, b term) (fact, bool) {
	switch r {
	case relLT:
		return mkFact(a, token.LSS, b), true
	case relLE:
		return mkFact(a, token.LEQ, b), true
	case relEQ:
		return mkFact(a, token.EQL, b), true
	case relGE:
		return mkFact(b, token.LEQ, a), true
	case relGT:
		return mkFact(b, token.LSS, a), true
	case relNE:
		return mkFact(a, token.NEQ, b), true
	}
	return fact{}, false
}

// forgetFrame drops what st knows about the values of the inlined frame
// ctx and its callees, keeping the synchronization variables' relations
// under synthetic names. A call site inlined again (in a loop) names new
// values as the previous inlining did, so the old facts must go first:
// frames are recognised by term.value, since base cuts "0.51/v17" at its
// first dot (with base, nothing was ever forgotten, and the facts of a
// previous iteration's call held for the new values: a correct step-down
// helper was reported as lowering the term).
func (st *pstate) forgetFrame(ctx string) {
	in := func(t term) bool {
		b := t.value()
		return strings.HasPrefix(b, ctx+"/") || strings.HasPrefix(b, ctx+".")
	}
	for i := range st.cur {
		for j, t := range []*term{&st.cur[i], &st.old[i]} {
			if !in(*t) {
				continue
			}
			old := *t
			name := st.freshName(i, j)
			// (Added after all the comparisons: the facts about name
			// relate nothing else, so the order does not matter.)
			for _, f := range st.fs.relate(name, old, st.terms(), func(u term) bool { return !in(u) }) {
				st.add(f)
			}
			for k := range st.cur {
				if st.cur[k] == old {
					st.cur[k] = name
				}
				if st.old[k] == old {
					st.old[k] = name
				}
			}
		}
	}
	var nfs facts
	for _, f := range st.fs {
		if !in(f.a) && !in(f.b) {
			nfs = append(nfs, f)
		}
	}
	st.fs = nfs
	st.dropOffs(in)
	for k := range st.taint {
		if in(k) {
			delete(st.mutTaint(), k)
		}
	}
	st.unmarkWhere(func(m term, _ bool) bool { return in(m) })
	for k, c := range st.conds {
		if in(k) || in(c.a) || in(c.b) {
			delete(st.mutConds(), k)
		}
	}
	for k, v := range st.alias {
		if in(v) {
			delete(st.mutAlias(), k)
		}
	}
}

// fieldFacts records dst.f == src.f for the integer and boolean fields of a
// struct copied from src to dst, through nested structs.
func (e *engine) fieldFacts(st *pstate, dst, src term, t *types.Struct, depth int) {
	if depth > 2 {
		return
	}
	for i := 0; i < t.NumFields(); i++ {
		ft := t.Field(i).Type()
		d, s := term(string(dst)+"."+strconv.Itoa(i)), term(string(src)+"."+strconv.Itoa(i))
		if isTracked(ft) {
			st.add(mkFact(d, token.EQL, s))
			e.elemFacts(st, s)
		} else if inner, ok := ft.Underlying().(*types.Struct); ok {
			e.fieldFacts(st, d, s, inner, depth+1)
		}
	}
}

// join keeps the facts a and b share; the result is marked widened.
func join(a, b *pstate) *pstate {
	j := b.clone()
	in := make(map[fact]bool, len(a.fs))
	for _, f := range a.fs {
		in[f] = true
	}
	var fs facts
	for _, f := range b.fs {
		if in[f] {
			fs = append(fs, f)
		}
	}
	// The synchronization variables' values may be related differently
	// in a and b (x < y in one, x == y in the other): keep the weaker
	// relation both imply (x <= y), relative to every term both mention,
	// or the join loses what conditions I and II need.
	sa, sb := a.fs.solve(), b.fs.solve()
	defer sa.release()
	defer sb.release()
	var common []term
	for _, t := range sa.g.terms {
		if sb.g.node(t) >= 0 {
			common = append(common, t)
		}
	}
	have := make(map[fact]bool, len(fs))
	for _, f := range fs {
		have[f] = true
	}
	for i := range j.cur {
		for _, x := range [2]term{j.cur[i], j.old[i]} {
			for _, y := range common {
				if x == y {
					continue
				}
				r := joinRel(sa.cmp(x, y), sb.cmp(x, y))
				if r == relNE {
					continue
				}
				if f, ok := relFact(x, r, y); ok && !have[f] {
					have[f] = true
					fs = append(fs, f)
				}
			}
		}
	}
	j.fs = fs
	j.offs = joinOffs(a.offs, b.offs)
	j.widened = true
	xJoin(j, a, b)
	for k, c := range j.conds {
		if a.conds[k] != c {
			delete(j.mutConds(), k)
		}
	}
	return j
}

// observeEntry records, when b is the header of another tagged loop that
// extends this one's tag, the constants its shared variables hold.
func (e *engine) observeEntry(fr *frame, b *ssa.BasicBlock, st *pstate) {
	if e.entries == nil || fr.depth == 0 && b == e.header {
		return
	}
	syn := fr.fn.Syntax()
	for _, other := range e.ann.Loops {
		if other == e.loop || other.Func != syn || len(other.Vars) <= len(e.vars) {
			continue
		}
		l := loopOf(fr.loops, other.Stmt)
		if l == nil || l.header != b {
			continue
		}
		consts := make([]term, len(other.Vars))
		for k, ov := range other.Vars {
			for j, v := range e.vars {
				if !ov.Same(v.sv) && !e.sameAcrossCall(fr, st, ov, v) {
					continue
				}
				if st.cur[j].isConst() {
					consts[k] = st.cur[j]
				}
			}
		}
		if debug {
			fmt.Printf("entry of loop at %v: %v (cur %v)\n", e.pass.Fset.Position(other.Pos()), consts, st.cur)
		}
		en := e.entries[other]
		if en == nil {
			e.entries[other] = &entry{consts: consts, seen: true}
			continue
		}
		for k := range en.consts {
			if en.consts[k] != consts[k] {
				en.consts[k] = ""
			}
		}
	}
}

// sameAcrossCall reports whether ov, a variable of a loop in the inlined
// function of frame fr, is v of the loop being analysed: the same field
// path from the same pointer, passed in as a parameter.
func (e *engine) sameAcrossCall(fr *frame, st *pstate, ov *annotations.SyncVar, v *varLoc) bool {
	if len(ov.Fields) != len(v.sv.Fields) || len(ov.Fields) == 0 {
		return false
	}
	for i := range ov.Fields {
		if ov.Fields[i] != v.sv.Fields[i] {
			return false
		}
	}
	for _, p := range fr.fn.Params {
		if p.Object() == ov.Root {
			return e.term(fr, st, p) == v.base
		}
	}
	return false
}

// localMap reports whether map value v is made by the function itself: a
// make or a map literal, possibly kept in a local variable or merged by
// phis. A map loaded from a field, a parameter, a global or returned by a
// call may be shared with the process state.
// callerValue follows v, a parameter of fr's function, to the argument
// of the call that inlined fr, as far up as it goes; it returns the value
// and the frame whose function computes it.
func callerValue(fr *frame, v ssa.Value) (ssa.Value, *frame) {
	for fr != nil && fr.call != nil && fr.parent != nil {
		p, ok := v.(*ssa.Parameter)
		if !ok {
			break
		}
		args := fr.call.Call.Args
		if len(args) != len(fr.fn.Params) {
			break // a method value or a closure: arguments shifted
		}
		i := slices.Index(fr.fn.Params, p)
		if i < 0 {
			break
		}
		v, fr = args[i], fr.parent
	}
	return v, fr
}

// localField reports whether every map stored in field f of the local
// variable a is local (bs := &state{votes: map...}; bs.votes[from] = m: a
// map in a field of a local struct).
func localField(a *ssa.Alloc, f int, seen map[ssa.Value]bool) bool {
	if a.Referrers() == nil {
		return false
	}
	for _, r := range *a.Referrers() {
		g, ok := r.(*ssa.FieldAddr)
		if !ok {
			if _, isStore := r.(*ssa.Store); isStore {
				return false // the whole struct is assigned
			}
			continue
		}
		if g.Field != f || g.Referrers() == nil {
			continue
		}
		for _, rr := range *g.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == g && !localMap(st.Val, seen) {
				return false
			}
		}
	}
	return true
}

// localMapIn is localMap for a map of frame fr: a map handed to an inlined
// helper, or a field of a local struct handed to it (p.onPrepare(bs, m)),
// is the caller's.
func localMapIn(fr *frame, v ssa.Value) bool {
	v, cfr := callerValue(fr, v)
	if localMap(v, nil) {
		return true
	}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if fa, ok := u.X.(*ssa.FieldAddr); ok {
			x, _ := callerValue(cfr, fa.X)
			if a, ok := x.(*ssa.Alloc); ok && x != fa.X {
				return localField(a, fa.Field, map[ssa.Value]bool{v: true})
			}
			if c, ok := x.(*ssa.Call); ok {
				return freshField(c, fa.Field)
			}
		}
	}
	return false
}

// returnsAlloc reports whether call c is to a function of the package
// whose every return gives a variable it allocated, for which ok holds.
func returnsAlloc(c *ssa.Call, ok func(*ssa.Alloc) bool) bool {
	fn := c.Call.StaticCallee()
	if fn != nil && fn.Origin() != nil {
		fn = fn.Origin() // an instance of a generic function: its body
	}
	if fn == nil || fn.Blocks == nil || fn.Pkg == nil || c.Parent() == nil || fn.Pkg != c.Parent().Pkg {
		return false
	}
	n := 0
	for _, b := range fn.Blocks {
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet {
			continue
		}
		if len(ret.Results) != 1 {
			return false
		}
		if a, isAlloc := ret.Results[0].(*ssa.Alloc); !isAlloc || !ok(a) {
			return false
		}
		n++
	}
	return n > 0
}

// returnsLiteral reports whether call c is to a function of the package
// whose every return gives the address of a new composite literal
// (func (p *Proc) newAck() *AckMsg { return &AckMsg{...} }).
func returnsLiteral(c *ssa.Call) bool {
	return returnsAlloc(c, func(a *ssa.Alloc) bool { return a.Comment == "complit" })
}

// freshField reports whether call c is to a constructor of the package
// that returns a new struct whose field f holds only local maps (bs :=
// newBallotState()).
func freshField(c *ssa.Call, f int) bool {
	return returnsAlloc(c, func(a *ssa.Alloc) bool { return localField(a, f, map[ssa.Value]bool{}) })
}

func localMap(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	switch v := v.(type) {
	case *ssa.MakeMap:
		return true
	case *ssa.Const:
		return v.IsNil()
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		if fa, ok := v.X.(*ssa.FieldAddr); ok {
			a, ok := fa.X.(*ssa.Alloc)
			if !ok {
				return false
			}
			if seen == nil {
				seen = make(map[ssa.Value]bool)
			}
			seen[v] = true
			return localField(a, fa.Field, seen)
		}
		a, ok := v.X.(*ssa.Alloc)
		if !ok || a.Referrers() == nil {
			return false
		}
		if seen == nil {
			seen = make(map[ssa.Value]bool)
		}
		seen[v] = true
		for _, r := range *a.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == a && !localMap(st.Val, seen) {
				return false
			}
		}
		return true
	case *ssa.Phi:
		if seen == nil {
			seen = make(map[ssa.Value]bool)
		}
		seen[v] = true
		for _, e := range v.Edges {
			if !localMap(e, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// mentionsMessage reports whether v, one of its call arguments or
// receiver, or an operand of the arithmetic computing them (a few levels
// deep), is a received message or lies inside one. A predicate over other
// values (slices.Contains(quorum, from)) cannot tell a stale message from a
// fresh one.
func (e *engine) mentionsMessage(fr *frame, st *pstate, v ssa.Value, depth int) bool {
	if depth > 3 || v == nil {
		return false
	}
	if _, info := st.message(e.term(fr, st, v)); info != nil {
		return true
	}
	// (Or a received value of a type parameter or an interface: in a
	// generic helper (collect[T]) the message is a T, whose mapping is not
	// known there.)
	switch v.Type().Underlying().(type) {
	case *types.Interface, *types.TypeParam:
		if _, info := st.tainted(e.term(fr, st, v)); info != nil {
			return true
		}
	}
	if e.ann.MsgOf(v.Type()) != nil {
		if _, info := st.tainted(e.term(fr, st, v)); info != nil {
			return true
		}
	}
	var ops []*ssa.Value
	switch v := v.(type) {
	case *ssa.Call:
		ops = v.Operands(nil)
	case *ssa.BinOp, *ssa.UnOp, *ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface, *ssa.Field, *ssa.FieldAddr, *ssa.Extract, *ssa.TypeAssert:
		ops = v.(ssa.Instruction).Operands(nil)
	default:
		return false
	}
	for _, op := range ops {
		if op != nil && *op != nil && e.mentionsMessage(fr, st, *op, depth+1) {
			return true
		}
	}
	return false
}

// feedsAppend reports whether the varargs array a is the list of elements
// of an append (a mailbox growing) rather than the arguments of a call.
func feedsAppend(a *ssa.Alloc) bool {
	for _, r := range *a.Referrers() {
		sl, ok := r.(*ssa.Slice)
		if !ok || sl.Referrers() == nil {
			continue
		}
		for _, u := range *sl.Referrers() {
			if c, ok := u.(*ssa.Call); ok {
				if b, ok := c.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
					return true
				}
			}
		}
	}
	return false
}
