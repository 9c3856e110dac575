package tagflow2

import (
	"go/token"
	"go/types"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/passes/tagflow"
	"github.com/ccvet/ccvet/passes/tagflow2/lexrel"
	"golang.org/x/tools/go/ssa"
)

// A sentTag is what a send of a message type puts in its tag: the
// constants of each component, where known (a round enum, a slot reset
// to 0).
type sentTag [lexrel.MaxK]constSet

// A witnessNeed is what a violation of condition III or IV at a receive
// needs to happen: that some process sends a message of type msg whose tag
// relates to the receiver's current tag (whose constants are cur) as one
// of the vectors bad does. A message of any round may be delayed, but
// only tags some send puts on the wire arrive: a filter that omits a
// component every send of that round sets to the same constant (slot 0 in
// every Prepare) leaves no lower tag to arrive.
type witnessNeed struct {
	msg *annotations.Msg
	bad lexrel.Set
	cur [lexrel.MaxK]constSet
	// unproven is the finding's text when no witness exists.
	unproven string
}

// witnesses collects, over every tagged loop of a package, the tags each
// message type is sent with, and the violations waiting on them.
type witnesses struct {
	sent  map[*annotations.Msg][]sentTag
	sites map[token.Pos]bool // sends whose message was recorded
	needs map[findingKey]witnessNeed
	// origin maps a mapping whose tag methods were read as enum mappings
	// (see methodmap.go) to the directive's: sends and needs are keyed
	// by the latter.
	origin map[*annotations.Msg]*annotations.Msg
}

func newWitnesses() *witnesses {
	return &witnesses{
		sent:   make(map[*annotations.Msg][]sentTag),
		sites:  make(map[token.Pos]bool),
		needs:  make(map[findingKey]witnessNeed),
		origin: make(map[*annotations.Msg]*annotations.Msg),
	}
}

// recordSend notes the tag of a message sent at pos.
func (w *witnesses) recordSend(pos token.Pos, t term) {
	w.sites[pos] = true
	if t.msg == nil {
		return
	}
	if o, ok := w.origin[t.msg]; ok {
		t.msg = o
	}
	tag := sentTag(t.consts.all())
	for _, old := range w.sent[t.msg] {
		if old == tag {
			return
		}
	}
	w.sent[t.msg] = append(w.sent[t.msg], tag)
}

// realizable reports whether a send exists whose tag has a bad vector to
// the receiver's. complete says every send of the message type in the
// package was recorded; if not, any tag may arrive.
func (w *witnesses) realizable(n witnessNeed, complete bool) bool {
	if n.msg == nil || !complete {
		return true
	}
	k := n.bad.K()
	for _, tag := range w.sent[n.msg] {
		possible := lexrel.Top(k)
		for i := range k {
			possible = possible.Restrict(i, constRel(tag[i], n.cur[i]))
		}
		if !possible.Intersect(n.bad).IsEmpty() {
			return true
		}
	}
	return false
}

// resolve turns each violation that waits on a witness and has none into
// "cannot prove". A message type is complete when every send of it in
// the package's functions was seen by a loop's analysis (a send outside
// every tagged loop, or of an interface value, may put any tag on the
// wire).
func (w *witnesses) resolve(ann *annotations.Annotations, funcs []*ssa.Function, loops []*tagflow.Loop) {
	if len(w.needs) == 0 {
		return
	}
	incomplete := w.unrecordedSends(ann, funcs)
	for _, l := range loops {
		for i, f := range l.Findings {
			n, ok := w.needs[findingKey{f.Cond, f.Pos, f.Message}]
			if !ok || f.Unproven {
				continue
			}
			if !w.realizable(n, !incomplete[n.msg] && !incomplete[nil]) {
				l.Findings[i].Unproven = true
				l.Findings[i].Message = n.unproven
			}
		}
	}
}

// unrecordedSends finds the message types with a send no loop's analysis
// recorded; the nil key stands for every type (a send of an interface).
func (w *witnesses) unrecordedSends(ann *annotations.Annotations, funcs []*ssa.Function) map[*annotations.Msg]bool {
	out := make(map[*annotations.Msg]bool)
	note := func(pos token.Pos, vals []ssa.Value) {
		if w.sites[pos] {
			return
		}
		for _, v := range vals {
			if m := ann.MsgOf(v.Type()); m != nil {
				out[m] = true
			} else if ifaceOfMessages(ann, v.Type()) {
				out[nil] = true
			}
		}
	}
	transport := transportFuncs(ann, funcs)
	for _, f := range funcs {
		if transport[f] {
			// The transport's own code: its sends deliver what the
			// //sync:send call was given.
			continue
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.Send:
					note(in.Pos(), []ssa.Value{in.X})
				case *ssa.Select:
					for _, st := range in.States {
						if st.Dir == types.SendOnly {
							note(in.Pos(), []ssa.Value{st.Send})
						}
					}
				case ssa.CallInstruction:
					if c := commOfCall(ann, in.Common()); c != nil && c.Kind == annotations.Send {
						note(in.Pos(), in.Common().Args)
					}
				}
			}
		}
	}
	return out
}

// ifaceOfMessages reports whether t is an interface some message type (or
// a pointer to one) implements.
func ifaceOfMessages(ann *annotations.Annotations, t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for tn := range ann.Msgs {
		if types.Implements(tn.Type(), iface) || types.Implements(types.NewPointer(tn.Type()), iface) {
			return true
		}
	}
	return false
}

// transportFuncs are the functions that implement the transport: the
// //sync:send and //sync:recv functions, and the functions only they call.
func transportFuncs(ann *annotations.Annotations, funcs []*ssa.Function) map[*ssa.Function]bool {
	callers := make(map[*ssa.Function][]*ssa.Function)
	var all []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		all = append(all, f)
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					if g := c.Common().StaticCallee(); g != nil {
						callers[g] = append(callers[g], f)
					}
				}
			}
		}
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, f := range funcs {
		add(f)
	}
	out := make(map[*ssa.Function]bool)
	for _, f := range all {
		if isComm(ann, f) {
			out[f] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range all {
			if out[f] || len(callers[f]) == 0 {
				continue
			}
			only := true
			for _, c := range callers[f] {
				only = only && out[c]
			}
			if only {
				out[f] = true
				changed = true
			}
		}
	}
	return out
}

// isComm reports whether f, or the function it is a literal of, is
// annotated //sync:send or //sync:recv, or is a method implementing an
// annotated interface method (the transport behind a Transport
// interface).
func isComm(ann *annotations.Annotations, f *ssa.Function) bool {
	for ; f != nil; f = f.Parent() {
		fn, ok := f.Object().(*types.Func)
		if !ok {
			continue
		}
		if ann.CommOf(fn) != nil {
			return true
		}
		recv := fn.Signature().Recv()
		if recv == nil {
			continue
		}
		for m := range ann.Comms {
			sig := m.Signature()
			if m.Name() != fn.Name() || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
				continue
			}
			if iface, ok := sig.Recv().Type().Underlying().(*types.Interface); ok && types.Implements(recv.Type(), iface) {
				return true
			}
		}
	}
	return false
}

// commOfCall is the //sync:send or //sync:recv annotation of the function
// c calls, if any.
func commOfCall(ann *annotations.Annotations, c *ssa.CallCommon) *annotations.Comm {
	if c.IsInvoke() {
		return ann.CommOf(c.Method)
	}
	if f := c.StaticCallee(); f != nil {
		if fn, ok := f.Object().(*types.Func); ok {
			return ann.CommOf(fn)
		}
	}
	return nil
}
