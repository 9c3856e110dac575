package tagflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Messages handed over by a goroutine the loop starts.
//
// A channel receive is taken to deliver whatever the network may: a
// message stored without a filter is a violation of condition III. A
// channel that a goroutine started by the loop itself sends on is
// different: that goroutine may have checked the message before handing
// it over (go-ibft's watchForFutureProposal passes on only proposals of a
// later round), and ccvet does not follow goroutines. A message received
// from such a channel and stored without a filter is "cannot prove".

// goFed returns the channels, by field, that a goroutine started in the
// loop (or a function it calls, in the package) sends on, with the go
// statement.
func (e *engine) goFed() map[fieldKey]token.Pos {
	if e.goFedChans != nil {
		return e.goFedChans
	}
	e.goFedChans = make(map[fieldKey]token.Pos)
	for b := range e.region {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			var fn *ssa.Function
			switch v := g.Call.Value.(type) {
			case *ssa.Function:
				fn = v
			case *ssa.MakeClosure:
				fn, _ = v.Fn.(*ssa.Function)
			}
			if fn == nil {
				continue
			}
			seen := make(map[*ssa.Function]bool)
			var visit func(f *ssa.Function, depth int)
			visit = func(f *ssa.Function, depth int) {
				f = originOf(f)
				if seen[f] || depth > 8 || f.Pkg != e.fn.Pkg {
					return
				}
				seen[f] = true
				for _, fb := range f.Blocks {
					for _, in := range fb.Instrs {
						switch in := in.(type) {
						case *ssa.Send:
							e.noteFed(in.Chan, g.Pos())
						case *ssa.Select:
							for _, s := range in.States {
								if s.Dir == types.SendOnly {
									e.noteFed(s.Chan, g.Pos())
								}
							}
						case ssa.CallInstruction:
							if c := staticCallee(in.Common()); c != nil {
								visit(c, depth+1)
							}
						}
					}
				}
				for _, anon := range f.AnonFuncs {
					visit(anon, depth+1)
				}
			}
			visit(fn, 0)
		}
	}
	return e.goFedChans
}

func (e *engine) noteFed(ch ssa.Value, pos token.Pos) {
	if k, ok := chanField(ch); ok {
		if _, dup := e.goFedChans[k]; !dup {
			e.goFedChans[k] = pos
		}
	}
}

// chanField returns the field a channel value was loaded from (i.ch).
func chanField(ch ssa.Value) (fieldKey, bool) {
	ld, ok := ch.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return fieldKey{}, false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return fieldKey{}, false
	}
	return fieldKeyOf(fa)
}

// markFed records, for the value t just received from channel ch, that a
// goroutine the loop starts hands it over, when one sends on ch: every
// message t holds is marked (taintInfo.fed).
func (e *engine) markFed(st *pstate, t term, ch ssa.Value) {
	k, ok := chanField(ch)
	if !ok {
		return
	}
	pos, ok := e.goFed()[k]
	if !ok {
		return
	}
	if _, info := st.tainted(t); info != nil && st.taint[t] == nil {
		// (What is read from t later is marked through it: refine.)
		c := *info
		st.mutTaint()[t] = &c
	}
	for key, info := range st.taint {
		if within(key, t) && !info.fed.IsValid() {
			c := *info
			c.fed = pos
			st.mutTaint()[key] = &c
		}
	}
}
