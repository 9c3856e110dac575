package tagflow

import (
	"fmt"
	"slices"
	"strings"
)

// fullKey, set by tests only, makes every part of a state part of its key
// (see TestFullKey). The engine leaves parts of a state out of the key on
// purpose, to keep the number of paths down: positions only place
// messages, conds and offs only add facts, xs only serves refutations. A
// part left out wrongly makes the one state explored stand for one it does
// not, a silent pass; running with the full key tells such parts apart.
// (Set through SetFullKey, by TestFullKeyAudit.)
var fullKey bool

// setFullKey sets fullKey, with limits that allow many more paths (joins
// would hide what the audit looks for), and returns what restores both.
func setFullKey() (restore func()) {
	w, m, s := widenAfter, maxStatesPerBlock, maxSteps
	fullKey = true
	widenAfter, maxStatesPerBlock, maxSteps = w*16, m*16, s*20
	return func() {
		fullKey = false
		widenAfter, maxStatesPerBlock, maxSteps = w, m, s
	}
}

// writeFullKey writes the parts of st that key leaves out.
func (st *pstate) writeFullKey(b *strings.Builder) {
	fmt.Fprintf(b, "||set%v low%v/%d/%d cp%v/%s", st.set, st.lowAt, st.lowVar, st.lowSet, st.cpPos, st.cpWhat)
	keys := make([]string, 0, len(st.conds))
	for k, f := range st.conds {
		keys = append(keys, fmt.Sprintf("%s=%s%s%s", k, f.a, f.op, f.b))
	}
	slices.Sort(keys)
	fmt.Fprintf(b, "|C%v", keys)
	keys = keys[:0]
	for _, o := range st.offs {
		keys = append(keys, fmt.Sprintf("%s=%s%+d", o.t, o.base, o.c))
	}
	slices.Sort(keys)
	fmt.Fprintf(b, "|F%v", keys)
	keys = keys[:0]
	for k, v := range st.taint {
		s := fmt.Sprintf("%s:p%v,x%d,m%v,f%s,o%s", k, v.ptr, v.xid, v.fromMbox, v.from, v.oneOf)
		for _, ei := range [3]*elemInfo{v.elem, v.iter, v.nextOf} {
			if ei != nil {
				s += fmt.Sprintf("[%v%v%v%v%v%d]", ei.rels, ei.curs, ei.ge, ei.plain, ei.data, ei.xid)
			}
		}
		keys = append(keys, s)
	}
	slices.Sort(keys)
	fmt.Fprintf(b, "|T%v", keys)
	if p := st.pending; p != nil {
		fmt.Fprintf(b, "|P%v%v%s%v%v%v", p.pos, p.unsure, p.unsureFrom, p.witness, p.update, p.test)
		if p.bound != nil {
			fmt.Fprintf(b, "%d", p.bound.k)
		}
	}
	if r := st.recv; r != nil {
		fmt.Fprintf(b, "|R%v%v%s%v%v", r.copies, r.may, r.ok, r.okErr, r.pos)
	}
	if x := st.xs; x != nil {
		// Canonically: root numbers are fresh at every receive, and a
		// loop would never repeat a state.
		form := func(f xform) string {
			return fmt.Sprintf("%d%v", f.kind, f.root > 0 && x.isCapped(f.root))
		}
		keys = keys[:0]
		for k, f := range x.d {
			keys = append(keys, fmt.Sprintf("%s=%s", k, form(f)))
		}
		slices.Sort(keys)
		fmt.Fprintf(b, "|X%v%v", keys, x.poison)
		for i := range x.cur {
			fmt.Fprintf(b, ",%s>%s", form(x.cur[i]), form(x.old[i]))
		}
	}
}
