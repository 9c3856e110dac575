package tagflow

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Received data a witness chooses freely.
//
// The refutation of unbounded.go replays a path with a received tag
// component x made larger. A test of x against another field of the same
// received value (Multi-Paxos's "the Prepare comes from the leader of its
// ballot", e.From == leaderOf(m.Ballot)) bounds x unless that field moves
// along: the witness message comes from the leader of the larger ballot.
// Moving it is sound only where nothing else on the path depends on it, so
// the engine accepts the datum when it is read once, in this comparison,
// and nowhere else in the function, by a comparison that runs at most once
// per value received (soleDatum), and binds it to the comparison when the
// path takes it. The datum then holds
// whatever the comparison needs (== or !=: some value always does). A
// second comparison of data of the same received value (another field) is
// a constraint on the root as usual.
//
// A received value's data are one pseudo-root (taintInfo.dxid << 4, apart
// from the messages' roots); binding it is capping it.

// xBind handles a branch on bin, taken as "x op y" (op after negation),
// when one side is a received datum the witness may choose: it reports
// whether it did, in which case the comparison bounds nothing.
func (e *engine) xBind(fr *frame, st *pstate, bin *ssa.BinOp, op token.Token, fx, fy xform) bool {
	if op != token.EQL && op != token.NEQ {
		return false
	}
	for _, s := range [2]struct {
		datum  ssa.Value
		fd, fo xform
	}{{bin.X, fx, fy}, {bin.Y, fy, fx}} {
		if s.fd.kind != xNone || s.fo.kind == xNone || s.fo.root <= 0 {
			continue
		}
		if _, ok := s.datum.(*ssa.Const); ok {
			continue
		}
		_, info := st.tainted(e.term(fr, st, s.datum))
		if info == nil || info.dxid == 0 || !e.soleDatum(s.datum, bin) {
			continue
		}
		id := info.dxid << 4
		if st.xs != nil && st.xs.isCapped(id) {
			// Bound already: the datum depends on the root now.
			e.xCap(st, s.fo.root, "a bound datum compared again")
			return true
		}
		e.xCap(st, id, "received datum "+string(e.term(fr, st, s.datum))+" chosen to match")
		return true
	}
	return false
}

// soleDatum reports whether v is a field of a received value (an envelope
// or a message, received into a register or a local variable) read by v
// alone, whose only use is the comparison cmp: nothing else in the
// function reads it, writes it or takes its address, and the received
// value is neither copied nor handed anywhere whole.
func (e *engine) soleDatum(v ssa.Value, cmp *ssa.BinOp) bool {
	if r, ok := e.soleData[v]; ok {
		return r
	}
	r := soleDatum(v, cmp)
	if e.soleData == nil {
		e.soleData = make(map[ssa.Value]bool)
	}
	e.soleData[v] = r
	return r
}

func soleDatum(v ssa.Value, cmp *ssa.BinOp) bool {
	if !onlyUse(v, cmp) {
		return false
	}
	// The field path from the received value to v, outermost first.
	var path []int
	var base ssa.Value
	switch d := v.(type) {
	case *ssa.UnOp:
		if d.Op != token.MUL {
			return false
		}
		addr := d.X
		for {
			fa, ok := addr.(*ssa.FieldAddr)
			if !ok {
				break
			}
			path = append(path, fa.Field)
			addr = fa.X
		}
		base = addr
	case *ssa.Field:
		var x ssa.Value = d
		for {
			f, ok := x.(*ssa.Field)
			if !ok {
				break
			}
			path = append(path, f.Field)
			x = f.X
		}
		base = x
	default:
		return false
	}
	if len(path) == 0 {
		return false
	}
	slices.Reverse(path)
	var defs []*ssa.BasicBlock
	switch b := base.(type) {
	case *ssa.Alloc:
		if b.Heap || !readsOnly(b, path, v, true) {
			return false // (a heap variable: a closure may read it)
		}
		for _, r := range *b.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == b {
				defs = append(defs, st.Block())
			}
		}
	default:
		if !received(base) || !readsOnly(base, path, v, false) {
			return false
		}
		defs = append(defs, base.(ssa.Instruction).Block())
	}
	return !repeats(cmp.Block(), defs)
}

// repeats reports whether block b may run again without one of defs
// running in between (it is in a loop that does not receive anew): the
// datum would be compared twice, and a path that loses count of how often
// might meet both comparisons with one choice.
func repeats(b *ssa.BasicBlock, defs []*ssa.BasicBlock) bool {
	if slices.Contains(defs, b) {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := slices.Clone(b.Succs)
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if c == b {
			return true
		}
		if seen[c] || slices.Contains(defs, c) {
			continue
		}
		seen[c] = true
		work = append(work, c.Succs...)
	}
	return false
}

// onlyUse reports whether cmp is the only instruction using v.
func onlyUse(v ssa.Value, cmp ssa.Instruction) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	n := 0
	for _, r := range *refs {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		if r != cmp {
			return false
		}
		n++
	}
	return n == 1
}

// received reports whether v is a value as it comes from a channel (a
// receive, a select's case), used by nothing but field selections.
func received(v ssa.Value) bool {
	switch r := v.(type) {
	case *ssa.UnOp:
		return r.Op == token.ARROW && !r.CommaOk
	case *ssa.Extract:
		switch t := r.Tuple.(type) {
		case *ssa.Select:
			return r.Index >= 2
		case *ssa.UnOp:
			return t.Op == token.ARROW && r.Index == 0
		}
	}
	return false
}

// readsOnly reports whether the uses of base (a local variable when mem,
// else a received register) leave the field at path read by load alone:
// other fields are used freely; the variable is written whole only with
// values received from a channel and used nowhere else.
func readsOnly(base ssa.Value, path []int, load ssa.Value, mem bool) bool {
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		refs := v.Referrers()
		if refs == nil {
			return false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.FieldAddr:
				if !mem || !fieldStep(r, r.Field, path, depth, load, walk) {
					return false
				}
			case *ssa.Field:
				if mem || !fieldStep(r, r.Field, path, depth, load, walk) {
					return false
				}
			case *ssa.Store:
				// Only the variable itself, written with a received value.
				if !mem || depth != 0 || r.Addr != v || !received(r.Val) || !onlyUse(r.Val, r) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return walk(base, 0)
}

// fieldStep checks a selection of field f at depth along path: another
// field is not the datum; the datum's own selection must be load, or lead
// to it.
func fieldStep(sel ssa.Value, f int, path []int, depth int, load ssa.Value, walk func(ssa.Value, int) bool) bool {
	if f != path[depth] {
		return true
	}
	if depth == len(path)-1 {
		if _, isField := sel.(*ssa.Field); isField {
			return sel == load
		}
		return onlyUse(sel, load.(ssa.Instruction))
	}
	return walk(sel, depth+1)
}
