package tagflow

import (
	"go/constant"
	"go/token"
	"math"
	"slices"
)

// Exact offsets.
//
// The order solver knows x + 1 > x, not x - 1 + 1 == x, nor that two
// values computed as x + 16 are equal. Both matter where a tag is moved
// and moved back (l.slot--, then l.slot++ to retry the slot), and where a
// message is built with the next ballot before the ballot is increased
// (prep := Prepare{Ballot: p.ballot + 16}; p.ballot += 16). So the state
// keeps, for the values computed by adding a constant, the value they are
// computed from (their base) and the constant; a new one is related
// exactly to the others of the same base. Only values are recorded, not
// memory (which a store changes under the same name). A base equal to a
// synchronization variable's current or old value is named by it, which
// outlives the registers that loaded it. Entries follow the terms they
// name: dropped when one is projected away or computed again, renamed
// with them.

// offEntry records that value t equals base + c.
type offEntry struct {
	t, base term
	c       int64
}

// maxOffs bounds the entries of a state (the oldest go first): a counting
// loop adds one per iteration until projection drops the dead ones.
const maxOffs = 16

// exactOffset records v = x + c, or x - c when neg, for constant term c.
func (e *engine) exactOffset(st *pstate, v, x, c term, neg bool) {
	k, ok := int64Const(c)
	if !ok || neg && k == math.MinInt64 {
		return
	}
	if neg {
		k = -k
	}
	if !isValueTerm(v) {
		return
	}
	base := x
	found := false
	for _, o := range st.offs {
		if o.t == x {
			sum, ok := addInt64(o.c, k)
			if !ok {
				return
			}
			base, k, found = o.base, sum, true
			break
		}
	}
	for _, o := range st.offs {
		if !found && st.fs.cmp(x, o.t) == relEQ {
			// (A load of a variable that was set to o.t.)
			sum, ok := addInt64(o.c, k)
			if !ok {
				return
			}
			base, k, found = o.base, sum, true
		}
	}
	if !found {
		// Named by a synchronization variable's value when it is one.
		for i := range st.cur {
			for _, t := range [2]term{st.cur[i], st.old[i]} {
				if !found && t != x && isValueTerm(t) && st.fs.cmp(x, t) == relEQ {
					base, found = t, true
				}
			}
		}
	}
	if !isValueTerm(base) {
		return // memory, which a store changes
	}
	if k == 0 {
		st.add(mkFact(v, token.EQL, base))
	}
	for _, o := range st.offs {
		if o.base != base || o.t == v {
			continue
		}
		switch {
		case o.c == k:
			st.add(mkFact(v, token.EQL, o.t))
		case o.c < k:
			st.add(mkFact(o.t, token.LSS, v))
		default:
			st.add(mkFact(v, token.LSS, o.t))
		}
	}
	n := make([]offEntry, 0, min(len(st.offs)+1, maxOffs))
	for _, o := range st.offs {
		if o.t != v {
			n = append(n, o)
		}
	}
	if len(n) >= maxOffs {
		n = n[len(n)-maxOffs+1:]
	}
	st.offs = append(n, offEntry{t: v, base: base, c: k})
}

// isValueTerm reports whether t names a value that nothing but its
// computation again (redefine) or a renaming (project) changes: an SSA
// value or a synthetic name, not memory.
func isValueTerm(t term) bool {
	return !t.isConst() && t.value() == string(t)
}

// int64Const returns the value of constant term c as an int64.
func int64Const(c term) (int64, bool) {
	v := constValue(c)
	if v == nil || v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// dropOffs drops the entries that name a term gone.
func (st *pstate) dropOffs(gone func(term) bool) {
	if len(st.offs) == 0 {
		return
	}
	var n []offEntry
	for _, o := range st.offs {
		if !gone(o.t) && !gone(o.base) {
			n = append(n, o)
		}
	}
	if len(n) != len(st.offs) {
		st.offs = n
	}
}

// renameOffs renames the terms of the entries by canon.
func (st *pstate) renameOffs(canon map[term]term) {
	if len(st.offs) == 0 {
		return
	}
	var n []offEntry
	for i, o := range st.offs {
		t, tok := canon[o.t]
		b, bok := canon[o.base]
		if !tok && !bok {
			continue
		}
		if n == nil {
			n = slices.Clone(st.offs)
		}
		if tok {
			n[i].t = t
		}
		if bok {
			n[i].base = b
		}
	}
	if n != nil {
		st.offs = n
	}
}

// joinOffs keeps the entries a and b share.
func joinOffs(a, b []offEntry) []offEntry {
	var n []offEntry
	for _, o := range b {
		if slices.Contains(a, o) {
			n = append(n, o)
		}
	}
	return n
}
