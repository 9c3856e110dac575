package tagflow2

import (
	"go/token"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/ssa"
)

// Rounds a mailbox is filled in. Every handler keeps the invariant that a
// mailbox field holds only what was received in the current round: at
// each exit, a field whose round moved is emptied (checkMailboxes). So a
// field is empty at the entry of a step whose round is one in which no
// handler ever fills it: the promises of a lease candidate, filled only
// while its step is Promise, are empty while it is Prepare, and moving
// from Prepare to Promise carries nothing over. The rounds are found by a
// pre-pass over every handler of the process type, without reporting,
// that collects the constants the tag may hold at each write of the field
// that puts something in.

// fillRounds are, per tag component, the constants the component may hold
// where a mailbox field is filled; unknown when it may hold any.
type fillRounds [lexrel.MaxK]constSet

// noteFill records, in the pre-pass, that mailbox field j is filled in s.
func (la *loopAnalysis) noteFill(s *state, j int) {
	if la.filling == nil || j < 0 || j >= len(la.filling) {
		return
	}
	for i := range la.k {
		la.filling[j][i] = la.filling[j][i].union(s.cur[i])
	}
}

// noteOpaqueFill records, in the pre-pass, that a call the analysis does
// not follow is handed a mailbox field (or its address): it may fill it
// in any round.
func (la *loopAnalysis) noteOpaqueFill(s *state, c *ssa.CallCommon) {
	if la.filling == nil {
		return
	}
	for _, a := range append(c.Args, c.Value) {
		addr := a
		if ld, ok := a.(*ssa.UnOp); ok && ld.Op == token.MUL {
			addr = ld.X
		}
		if j := la.mailboxAt(addr); j >= 0 {
			la.filling[j] = fillRounds{}
		}
	}
}

// emptyAtEntry reports whether mailbox field j is empty at the entry of
// the step s is in: on some component its messages carry, the tag held
// at the entry (as far as s knows it) none of the constants the field
// is filled in.
func (la *loopAnalysis) emptyAtEntry(s *state, j int) bool {
	if j < 0 || la.loop.Handler == nil {
		return false
	}
	filled := la.fillRoundsOf()
	if j >= len(filled) {
		return false
	}
	entry := s.cur
	if s.atEntry != nil {
		entry = s.atEntry.cur
	}
	mb := la.mailboxes()[j]
	for i := range la.k {
		if mb.comps&(1<<i) == 0 || !filled[j][i].known || !entry[i].known {
			continue
		}
		if filled[j][i].intersect(entry[i]).n == 0 {
			return true
		}
	}
	return false
}

// fillRoundsOf is the rounds each mailbox field of the handler's process
// type is filled in, computed once per type by a pre-pass over its
// handlers; nil (nothing known) while the pre-pass runs.
func (la *loopAnalysis) fillRoundsOf() []fillRounds {
	proc := la.loop.Handler.Process
	if f, ok := la.sum.filled[proc]; ok {
		return f
	}
	la.sum.filled[proc] = nil
	mbs := la.mailboxes()
	if len(mbs) == 0 {
		return nil
	}
	out := make([]fillRounds, len(mbs))
	for i := range out {
		for c := range out[i] {
			out[i][c] = constsOf()
		}
	}
	for _, h := range la.sum.handlers {
		if h.loop.Handler.Process != proc {
			continue
		}
		if len(h.fn.Blocks) == 0 {
			return nil
		}
		rounds, ok := la.fillPrepass(h.loop, h.fn, len(mbs))

		if !ok {
			return nil
		}
		for j := range out {
			for c := range out[j] {
				out[j][c] = out[j][c].union(rounds[j][c])
			}
		}
	}
	la.fillsElsewhere(out, mbs)
	la.sum.filled[proc] = out
	return out
}

// fillPrepass analyses handler f without reporting and returns the rounds
// it fills each mailbox field in; false if the analysis failed.
func (la *loopAnalysis) fillPrepass(l *annotations.Loop, f *ssa.Function, n int) (rounds []fillRounds, ok bool) {
	defer func() {
		if recover() != nil {
			rounds, ok = nil, false
		}
	}()
	pre := newLoopAnalysis(la.pass, la.ann, l, f, la.sum)
	if pre.k != la.k || pre.k > lexrel.MaxK {
		return nil, false
	}
	pre.followed = map[*ssa.Function]bool{f: true}
	pre.filling = make([]fillRounds, n)
	for j := range pre.filling {
		for c := range pre.filling[j] {
			pre.filling[j][c] = constsOf()
		}
	}
	pre.loops = naturalLoops(f)
	pre.funcLoops[f] = pre.loops
	pre.prepareHandler()
	res := pre.fixpoint(f, pre.splitAssumed(pre.handlerEntry())...)
	// The fixpoint transfers blocks along edges; a block without
	// successors (a return) is run here.
	for _, b := range f.Blocks {
		for _, in := range res.In(b.Index) {
			pre.block(b, in)
		}
	}
	for g := range pre.followed {
		la.sum.fillers[g] = true
	}
	return pre.filling, true
}

// fillsElsewhere clears the rounds of each mailbox field that a function
// no handler reaches may fill (a constructor putting a first entry in,
// an exported method the driver calls besides the handlers): it may be
// filled in any round.
func (la *loopAnalysis) fillsElsewhere(out []fillRounds, mbs []mailboxField) {
	for _, f := range la.sum.funcs {
		if la.sum.fillers[f] {
			continue
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if j := fillOf(instr, mbs); j >= 0 {
					out[j] = fillRounds{}
				}
			}
		}
	}
}

// fillOf is the index in mbs of the mailbox field instr puts something
// in, or -1: a store of a value that is not a new empty one, or an update
// of the map the field holds.
func fillOf(instr ssa.Instruction, mbs []mailboxField) int {
	var addr ssa.Value
	switch in := instr.(type) {
	case *ssa.Store:
		if fresh(in.Val) {
			return -1
		}
		addr = in.Addr
	case *ssa.MapUpdate:
		ld, ok := in.Map.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return -1
		}
		addr = ld.X
	default:
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
	for j, mb := range mbs {
		if mb.field == fv.Origin() {
			return j
		}
	}
	return -1
}
