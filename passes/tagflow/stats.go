package tagflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"

	"github.com/ccvet/ccvet/annotations"
)

// Stats is what the dataflow found and checked in one tagged loop, the
// helpers it follows included, so that a driver can say what a silent
// result covers (ccvet -v) and syncdirective can report a loop in which
// nothing is checked.
type Stats struct {
	// Rounds are the rounds the loop communicates in: the value of its last
	// synchronization variable at each send and reception of a message,
	// named by its constant (Prepare, or 2 without an enum), in increasing
	// order. NotConstant is appended when some of them are in a round that
	// is not a known constant there (a round number the loop computes).
	Rounds []string
	// Sends are the positions of the sends of a message, each checked
	// against condition II.
	Sends []token.Pos
	// Receives are the positions of the receives that may yield a message
	// (a message type, an interface, or a struct carrying one).
	Receives []token.Pos
	// Mailboxes name where received messages or their data are stored,
	// each store checked against conditions III and IV, as the source
	// writes them (acks, p.votes), sorted.
	Mailboxes []string
	// MsgTypes are the message types sent or received, by name, sorted.
	MsgTypes []string
	// Unmatched are the message types among MsgTypes whose //sync:msg
	// does not have one component per synchronization variable of the
	// loop, nor of any tagged loop of the package: they are not checked
	// (syncdirective reports them).
	Unmatched []string
	// Others are the message types the analysis met that fit the tag of
	// another tagged loop of the package and not this one's (those of a
	// nested loop, or of a loop in a helper it calls): they are checked
	// in that loop, and not counted here.
	Others []string
	// Complete is false when the analysis of the loop stopped before the
	// end (a limit or an internal error, reported as "cannot prove"): what
	// it did not reach is not counted.
	Complete bool
}

// NotConstant stands in [Stats.Rounds] for a round that is not a known
// constant at a communication point.
const NotConstant = "not constant"

// statsAcc accumulates a loop's Stats while its paths are interpreted.
type statsAcc struct {
	rounds    map[string]constant.Value // name -> value; nil value for NotConstant
	sends     map[token.Pos]bool
	receives  map[token.Pos]bool
	stores    map[token.Pos]bool
	msgs      map[*annotations.Msg]bool
	unmatched map[*annotations.Msg]bool
	others    map[*annotations.Msg]bool
}

func (e *engine) acc() *statsAcc {
	if e.stats == nil {
		e.stats = &statsAcc{
			rounds:    make(map[string]constant.Value),
			sends:     make(map[token.Pos]bool),
			receives:  make(map[token.Pos]bool),
			stores:    make(map[token.Pos]bool),
			msgs:      make(map[*annotations.Msg]bool),
			unmatched: make(map[*annotations.Msg]bool),
			others:    make(map[*annotations.Msg]bool),
		}
	}
	return e.stats
}

// noteMsg records that message type m is sent or received by the loop: a
// type of its own if its mapping fits the loop's tag, or fits no tagged
// loop of the package (a mistake syncdirective reports), and otherwise a
// type of another loop.
func (e *engine) noteMsg(m *annotations.Msg) {
	if m == nil {
		return
	}
	a := e.acc()
	if len(m.Components) == len(e.vars) {
		a.msgs[m] = true
		return
	}
	for _, l := range e.ann.Loops {
		if len(l.Vars) == len(m.Components) {
			a.others[m] = true
			return
		}
	}
	a.msgs[m] = true
	a.unmatched[m] = true
}

// noteComm records a send (or a receive) of a message at pos, and the
// round the path is in there.
func (e *engine) noteComm(st *pstate, pos token.Pos, send bool) {
	if !pos.IsValid() || e.inOtherLoop(pos) {
		return
	}
	a := e.acc()
	if send {
		a.sends[pos] = true
	} else {
		a.receives[pos] = true
	}
	if st == nil || len(e.vars) == 0 {
		return
	}
	i := len(e.vars) - 1
	cur := st.cur[i]
	if en := e.vars[i].sv.Enum; en != nil {
		for _, c := range en.Consts {
			if st.fs.cmp(cur, constTerm(c.Val())) == relEQ {
				a.rounds[c.Name()] = c.Val()
				return
			}
		}
	}
	if cur.isConst() {
		if v := constant.MakeFromLiteral(string(cur[2:]), token.INT, 0); v.Kind() == constant.Int {
			a.rounds[v.ExactString()] = v
			return
		}
	}
	a.rounds[NotConstant] = nil
}

// inOtherLoop reports whether pos lies in another tagged loop than the one
// analysed, nested in it or in a helper it calls: what happens there is
// counted, and checked, for that loop.
func (e *engine) inOtherLoop(pos token.Pos) bool {
	for _, l := range e.ann.Loops {
		if l == e.loop || l.Stmt.Pos() <= e.loop.Pos() && e.loop.Stmt.End() <= l.Stmt.End() {
			continue // this loop, or one around it
		}
		if l.Stmt.Pos() <= pos && pos < l.Stmt.End() {
			return true
		}
	}
	return false
}

// noteStore records a store of a received message checked at pos.
func (e *engine) noteStore(pos token.Pos) {
	if pos.IsValid() && !e.inOtherLoop(pos) {
		e.acc().stores[pos] = true
	}
}

// finishStats sets the loop's Stats from what the paths recorded.
func (e *engine) finishStats(complete bool) {
	a := e.acc()
	s := Stats{Complete: complete && !e.aborted && !e.incomplete}
	var names []string
	for n, v := range a.rounds {
		if v != nil {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		return constant.Compare(a.rounds[names[i]], token.LSS, a.rounds[names[j]])
	})
	if _, ok := a.rounds[NotConstant]; ok {
		names = append(names, NotConstant)
	}
	s.Rounds = names
	s.Sends = sortedPos(a.sends)
	s.Receives = sortedPos(a.receives)
	boxes := make(map[string]bool)
	assigns := make(map[*ast.File][]ast.Node)
	for p := range a.stores {
		boxes[e.storedIn(p, assigns)] = true
	}
	s.Mailboxes = sortedKeys(boxes)
	msgs, unmatched, others := make(map[string]bool), make(map[string]bool), make(map[string]bool)
	for m := range a.msgs {
		msgs[m.Name(e.pass.Pkg)] = true
		if a.unmatched[m] {
			unmatched[m.Name(e.pass.Pkg)] = true
		}
	}
	for m := range a.others {
		others[m.Name(e.pass.Pkg)] = true
	}
	s.MsgTypes, s.Unmatched, s.Others = sortedKeys(msgs), sortedKeys(unmatched), sortedKeys(others)
	e.out.Stats = s
}

func sortedPos(m map[token.Pos]bool) []token.Pos {
	out := make([]token.Pos, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// storedIn names the variable a store at pos writes, as the source does:
// the left-hand side of the innermost assignment around pos, without its
// indexes (acks for acks[m.From] = m). A store that is not an assignment
// is named by its line. assigns caches the assignments of each file, in
// source order.
func (e *engine) storedIn(pos token.Pos, assigns map[*ast.File][]ast.Node) string {
	var best ast.Node
	for _, f := range e.pass.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		list, ok := assigns[f]
		if !ok {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.AssignStmt, *ast.IncDecStmt:
					list = append(list, n)
				}
				return true
			})
			assigns[f] = list
		}
		// In source order, an assignment nested in another (inside a
		// function literal on its right) comes after it: the last one
		// around pos is the innermost.
		for _, n := range list {
			if n.Pos() <= pos && pos < n.End() {
				best = n
			}
		}
	}
	var lhs ast.Expr
	switch n := best.(type) {
	case *ast.AssignStmt:
		lhs = n.Lhs[0]
		for _, l := range n.Lhs {
			if l.Pos() <= pos && pos < l.End() {
				lhs = l
			}
		}
	case *ast.IncDecStmt:
		lhs = n.X
	}
	for lhs != nil {
		switch x := lhs.(type) {
		case *ast.IndexExpr:
			lhs = x.X
			continue
		case *ast.StarExpr:
			lhs = x.X
			continue
		case *ast.ParenExpr:
			lhs = x.X
			continue
		}
		return types.ExprString(lhs)
	}
	return "a store at line " + strconv.Itoa(e.line(pos))
}
