package tagflow2

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

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
	la.region = make(map[*ssa.BasicBlock]bool, len(la.fn.Blocks))
	for _, b := range la.fn.Blocks {
		la.region[b] = true
	}
	entry := newState(la.k)
	la.initialParts(entry)
	entry.last = equalSet(la.k)
	if p := la.receivedParam(); p != nil {
		la.received(entry, p, p.Type())
	}
	return la.solveAndCheck(entry)
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
	r, ok := s.regs[p]
	if !ok {
		return
	}
	t, ok := s.terms[r.key]
	if !ok || t.msg == nil {
		return
	}
	onMapped := t.rel
	mapped := la.mapped(t.msg)
	for i := range la.k {
		if !slices.Contains(mapped, i) {
			onMapped = onMapped.Assign(i, lexrel.EQ)
		}
	}
	if onMapped.Lex()&lexrel.LT == 0 {
		return
	}
	bad := t.rel.Minus(t.rel.RestrictLex(lexrel.GE))
	name := msgName(la, t.msg)
	msg := fmt.Sprintf("the state changes while the received %s may be of an earlier round than %s: such a message must leave the state unchanged", name, la.tagText())
	if t.inexact() {
		la.report(3, instr.Pos(), true, "%s", msg)
		return
	}
	la.reportWitnessed(3, instr.Pos(), witnessNeed{msg: t.msg, bad: bad, cur: s.cur, unproven: msg}, msg)
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
