package tagflow

import (
	"go/token"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// elemInfo describes every message stored in a mailbox (a collection, or a
// single location): how each tag component related to the synchronization
// variable's value at the time of the store. Facts about the received
// message itself are lost once it goes through memory; these relations
// carry what the filter established to the code after the reception.
type elemInfo struct {
	msg  *annotations.Msg
	ptr  bool
	rels []rel
	curs []term
	// ge is set when every store was proven to satisfy tag(m) >= tag.
	ge bool
	// plain marks a single-location mailbox (its element is the location).
	plain bool
	// data marks a mailbox holding a part of each message that has none
	// of its tag fields (high = nv.HighQC): its elements' fields are not
	// the messages' tag components, even where the paths look alike.
	data bool
	// xid is the root of the stored messages' tag values (unbounded.go):
	// -1 for a join of two mailboxes.
	xid int
	// gen numbers the last store into the mailbox (engine.stores; 0:
	// unknown), for pendingJump.gen.
	gen int
}

func joinRel(a, b rel) rel {
	if a == b {
		return a
	}
	ge := func(r rel) bool { return r == relEQ || r == relGT || r == relGE }
	le := func(r rel) bool { return r == relEQ || r == relLT || r == relLE }
	switch {
	case ge(a) && ge(b):
		return relGE
	case le(a) && le(b):
		return relLE
	}
	return relUnknown
}

func joinElem(a, b *elemInfo) *elemInfo {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	xid := a.xid
	if b.xid != 0 && b.xid != a.xid {
		xid = -1
	}
	if a.msg != b.msg || len(a.rels) != len(b.rels) {
		return &elemInfo{msg: a.msg, ptr: a.ptr, rels: make([]rel, len(a.rels)), curs: a.curs, xid: xid, data: a.data || b.data, gen: max(a.gen, b.gen)}
	}
	out := &elemInfo{msg: a.msg, ptr: a.ptr, ge: a.ge && b.ge, curs: a.curs, plain: a.plain && b.plain, xid: xid, data: a.data || b.data, gen: max(a.gen, b.gen)}
	for i := range a.rels {
		r := joinRel(a.rels[i], b.rels[i])
		if a.curs[i] != b.curs[i] {
			r = relUnknown
		}
		out.rels = append(out.rels, r)
	}
	return out
}

// element returns the mailbox element of the tainted collection k that
// term t lies in: k itself for a single-location mailbox, k*[i] for a slice
// or map element, k#1 or k#2 for a range iteration's key or value.
func element(t, k term, info *elemInfo) (term, bool) {
	if !within(t, k) {
		return "", false
	}
	rest := string(t)[len(k):]
	switch {
	case info.plain:
		return k, true
	case strings.HasPrefix(rest, "*["):
		if end := strings.IndexByte(rest, ']'); end >= 0 {
			return k + term(rest[:end+1]), true
		}
	case strings.HasPrefix(rest, "#1"), strings.HasPrefix(rest, "#2"):
		return k + term(rest[:2]), true
	}
	return "", false
}

// elementOf returns the mailbox element that term t is a tag component of,
// with its mailbox information and the component's index.
func (st *pstate) elementOf(t term) (term, *elemInfo, int) {
	for k, info := range st.taint {
		ei := info.elem
		if ei == nil && info.nextCur {
			ei = info.nextOf
		}
		if ei == nil || ei.data {
			continue
		}
		elem, ok := element(t, k, ei)
		if !ok && ei == info.nextOf {
			elem, ok = yieldedElement(t, k)
		}
		if !ok {
			continue
		}
		for i, c := range ei.msg.Components {
			if c.Kind == annotations.Field && componentTerm(elem, ei.ptr, c) == t {
				return elem, ei, i
			}
		}
	}
	return "", nil, -1
}

// yieldedElement returns k when t lies in k, a copy of the value a range
// over a mailbox map yielded (m := next#2, kept in a local), and k is
// that value, not the step's tuple: a tuple has no fields.
func yieldedElement(t, k term) (term, bool) {
	if within(t, k) && strings.HasPrefix(string(t[len(k):]), ".") {
		return k, true
	}
	return "", false
}

// elemFacts adds, for a term t that is a tag component of a message held in
// a mailbox, the relation the mailbox's filter established.
func (e *engine) elemFacts(st *pstate, t term) {
	_, ei, i := st.elementOf(t)
	if ei == nil || i >= len(ei.rels) {
		return
	}
	switch ei.rels[i] {
	case relEQ:
		st.add(mkFact(t, token.EQL, ei.curs[i]))
	case relGT:
		st.add(mkFact(ei.curs[i], token.LSS, t))
	case relGE:
		st.add(mkFact(ei.curs[i], token.LEQ, t))
	}
}

// atomicJump reports whether the tag was set, component by component,
// from one message of a mailbox whose every message was checked to carry
// a tag at least the one of the last communication point: then the tag
// as a whole did not decrease, whatever each component did.
func (e *engine) atomicJump(st *pstate) bool {
	var elem term
	var info *elemInfo
	for i := range e.vars {
		el, ei, idx := st.elementOf(st.cur[i])
		if ei == nil {
			// A constant round equal to the message's constant component.
			if info != nil && i < len(info.msg.Components) && info.msg.Components[i].Kind == annotations.Const &&
				st.fs.cmp(st.cur[i], constTerm(info.msg.Components[i].Value)) == relEQ {
				continue
			}
			return false
		}
		if idx != i || elem != "" && el != elem {
			return false
		}
		elem, info = el, ei
	}
	if info == nil || !info.ge {
		return false
	}
	for i := range e.vars {
		if st.fs.cmp(st.old[i], info.curs[i]) != relEQ {
			return false
		}
	}
	return true
}
