package makeho

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// Inferring the communication structure. Most channel code passes the
// inboxes of all processes as a slice indexed by process identity and the
// process's own inbox as a channel, as parameters or fields, without
// //sync:peers or //sync:inbox. make-HO reads them off the loop where that
// is unambiguous:
//
//   - a peers table is a parameter of the function, or a field of the
//     process, whose type is a slice, an array or a map with an integer
//     key of channels (or of structs of channels), and which the loop
//     sends on: table[q] <- m, or for _, ch := range table { ch <- m };
//   - an inbox is a parameter or a field of the process, a channel of
//     messages (a //sync:msg type, a pointer to one, an interface, or an
//     envelope with one integer field and one message field) or a struct
//     (or pointer to one) whose channels are all such, which the loop
//     receives from (in.C for a struct): in a plain receive, a select case, or the body
//     of a //sync:recv method of the process that the loop calls.
//
// The directives stay the explicit form and win: a role (peers, inbox)
// that some field of the package is annotated with is not inferred. Two
// candidates of one role that carry the same type are ambiguous (which of
// the two tables holds the inbox of every process?): make-HO refuses and
// names both. An inferred table or inbox is a ChanField like an annotated
// one, so the generated code is the same.

// A chanUse is a candidate of inference: a parameter or field used as a
// peers table or an inbox in the loop, and where it was first used.
type chanUse struct {
	v *types.Var
	// self is the identity of the process for an inbox that is the
	// entry of a table at it (chans[id], chans[p.id]); nil otherwise.
	self types.Object
	at   token.Pos
	cf   *annotations.ChanField
	seq  int // order of first use
}

// A selfInbox is an inbox taken from a table of channels at the process's
// own identity: <-chans[id] where the loop sends on chans[q].
type selfInbox struct {
	table *types.Var
	self  types.Object // the parameter or field that holds the identity
	cf    *annotations.ChanField
}

// chanOf returns the annotation of v, or the role make-HO inferred for it
// in this loop; nil if v is neither.
func (g *loopGen) chanOf(v *types.Var) *annotations.ChanField {
	if v == nil {
		return nil
	}
	if cf := g.u.ann.ChanOf(v); cf != nil {
		return cf
	}
	return g.inferred[v]
}

// chanVar returns the variable a table or channel expression names: a
// field (p.peers) or a parameter of the function (out).
func (g *loopGen) chanVar(e ast.Expr) *types.Var {
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		return g.fieldOf(x)
	case *ast.Ident:
		if v := g.localVar(x); v != nil && g.isParam(v) {
			return v
		}
	}
	return nil
}

// isParam reports whether v is a parameter of the loop's function.
func (g *loopGen) isParam(v *types.Var) bool {
	ps := g.fn.Type.Params
	return v.Pos() >= ps.Pos() && v.Pos() < ps.End()
}

// annotatedRole reports whether some field of the package is annotated
// with the role.
func (g *loopGen) annotatedRole(role annotations.ChanRole) bool {
	for _, cf := range g.u.ann.Chans {
		if cf.Role == role {
			return true
		}
	}
	return false
}

// An inference collects the candidates of one loop.
type inference struct {
	g                   *loopGen
	peers, inboxes      bool // the roles inferred: those no field of the package is annotated with
	peerUses, inboxUses []*chanUse
	seen                map[chanKey]bool
	ranged              map[types.Object]ast.Expr // value variables of ranges, to the range's operand
	helpers             map[*helper]bool          // the helpers visited
}

// inferChans infers the peers tables and inboxes of the loop (see the
// comment at the top) into g.inferred, or refuses when two candidates of
// one role carry the same type.
func (g *loopGen) inferChans() error {
	g.inferred = make(map[*types.Var]*annotations.ChanField)
	in := &inference{g: g, peers: !g.annotatedRole(annotations.Peers), inboxes: !g.annotatedRole(annotations.Inbox),
		seen: make(map[chanKey]bool), ranged: make(map[types.Object]ast.Expr), helpers: make(map[*helper]bool)}
	if !in.peers && !in.inboxes {
		return nil
	}
	in.visit(g.loop.Body, nil)
	if err := g.ambiguous(in.peerUses, annotations.Peers); err != nil {
		return err
	}
	if err := g.ambiguous(in.inboxUses, annotations.Inbox); err != nil {
		return err
	}
	for _, c := range append(in.peerUses, in.inboxUses...) {
		if c.self != nil {
			g.self = &selfInbox{table: c.v, self: c.self, cf: c.cf}
			continue
		}
		g.inferred[c.v] = c.cf
	}
	return nil
}

// A chanKey identifies a candidate: the variable, and the identity it is
// indexed by for a self inbox.
type chanKey struct {
	v    *types.Var
	self types.Object
}

// add records v as a candidate of the role, used at at, if its type fits
// the role and no directive names it.
func (in *inference) add(v *types.Var, self types.Object, at token.Pos, role annotations.ChanRole) {
	g := in.g
	key := chanKey{v, self}
	if v == nil || in.seen[key] || self == nil && g.u.ann.ChanOf(v) != nil {
		return
	}
	var cf *annotations.ChanField
	if self != nil {
		cf = g.candidate(v, annotations.Peers) // a table, of channels the process receives from
		if cf != nil {
			cf = g.candidateChans(v, elemOf(v.Type()), annotations.Inbox)
		}
	} else {
		cf = g.candidate(v, role)
	}
	if cf == nil {
		return
	}
	in.seen[key] = true
	c := &chanUse{v: v, self: self, at: at, cf: cf, seq: len(in.seen)}
	if role == annotations.Peers {
		in.peerUses = append(in.peerUses, c)
	} else {
		in.inboxUses = append(in.inboxUses, c)
	}
}

// visit collects the candidates of body: the loop's body (recvOf nil), or
// the body of a //sync:recv method of the process, whose receiver is
// recvOf.
func (in *inference) visit(body ast.Node, recvOf *types.Var) {
	g := in.g
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if id, ok := n.Value.(*ast.Ident); ok && n.Tok == token.DEFINE && recvOf == nil {
				in.ranged[g.info.Defs[id]] = n.X
			}
		case *ast.SendStmt:
			if in.peers && recvOf == nil {
				in.send(n)
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && in.inboxes {
				in.receive(n, recvOf)
			}
		case *ast.CallExpr:
			if recvOf == nil && in.inboxes {
				if fd, rv := g.recvMethod(n); fd != nil {
					in.visit(fd.Body, rv)
				}
			}
			// The sends of a helper are the loop's (helper.go); its
			// receiver is the process.
			if h := g.commHelper(n); h != nil && recvOf == nil && !in.helpers[h] {
				in.helpers[h] = true
				in.visit(h.decl.Body, nil)
			}
		}
		return true
	})
}

// send records the table a send of the loop is taken from: table[q] <- m,
// table[q].C <- m, or ch <- m for the value ch of a range over the table.
func (in *inference) send(s *ast.SendStmt) {
	g := in.g
	ch := ast.Unparen(s.Chan)
	if sel, ok := ch.(*ast.SelectorExpr); ok {
		if f := g.fieldOf(sel); f != nil && isChan(f.Type()) {
			ch = ast.Unparen(sel.X) // a channel of the peer's inbox struct
		}
	}
	switch x := ch.(type) {
	case *ast.IndexExpr:
		if g.ownTable(x.X) {
			in.add(g.chanVar(x.X), nil, s.Arrow, annotations.Peers)
		}
	case *ast.Ident:
		if tab := in.ranged[g.info.Uses[x]]; tab != nil && g.ownTable(tab) {
			in.add(g.chanVar(tab), nil, s.Arrow, annotations.Peers)
		}
	}
}

// receive records the channel a receive is taken from: a parameter or a
// field of the process (in, p.in, p.inbox.C) in the loop, a field of the
// receiver recvOf in a //sync:recv method.
func (in *inference) receive(u *ast.UnaryExpr, recvOf *types.Var) {
	g := in.g
	x := ast.Unparen(u.X)
	sel, isSel := x.(*ast.SelectorExpr)
	if recvOf != nil {
		if isSel {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && g.info.Uses[id] == recvOf {
				in.add(g.fieldOf(sel), nil, u.OpPos, annotations.Inbox)
			}
		}
		return
	}
	if isSel {
		if f := g.fieldOf(sel); f != nil && isChan(f.Type()) && !isChan(g.info.TypeOf(sel.X)) && g.ownTable(sel.X) {
			x = ast.Unparen(sel.X) // a channel of an inbox struct: p.inbox.Votes
		}
	}
	if ix, ok := x.(*ast.IndexExpr); ok && g.ownTable(ix.X) {
		if self := g.identity(ix.Index); self != nil {
			in.add(g.chanVar(ix.X), self, u.OpPos, annotations.Inbox)
		}
		return
	}
	if g.ownTable(x) {
		in.add(g.chanVar(x), nil, u.OpPos, annotations.Inbox)
	}
}

// identity returns the variable e names if e can be the identity of the
// process: a parameter of the function that the function never assigns,
// or a field of the process that the loop never assigns.
func (g *loopGen) identity(e ast.Expr) types.Object {
	var v *types.Var
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v = g.localVar(x); v == nil || !g.isParam(v) {
			return nil
		}
		if g.assigns(g.fn.Body, func(l ast.Expr) bool { id, ok := ast.Unparen(l).(*ast.Ident); return ok && g.info.ObjectOf(id) == v }) {
			return nil
		}
	case *ast.SelectorExpr:
		id, ok := ast.Unparen(x.X).(*ast.Ident)
		if v = g.fieldOf(x); v == nil || !ok || !g.isProcess(id) {
			return nil
		}
		if g.assigns(g.loop.Body, func(l ast.Expr) bool { sel, ok := ast.Unparen(l).(*ast.SelectorExpr); return ok && g.fieldOf(sel) == v }) {
			return nil
		}
	default:
		return nil
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return nil
	}
	return v
}

// assigns reports whether some assignment or increment in body writes an
// expression that is.
func (g *loopGen) assigns(body ast.Node, is func(ast.Expr) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			found = found || slices.ContainsFunc(n.Lhs, is)
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && is(n.X) // its address may be written through
		}
		return !found
	})
	return found
}

// elemOf returns the element type of a slice, array or map type.
func elemOf(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	}
	return nil
}

// ownTable reports whether e is a parameter of the function or a field
// of the process: selected on the variable the tag starts from, or on the
// receiver when the tag is made of local variables.
func (g *loopGen) ownTable(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v := g.localVar(x)
		return v != nil && g.isParam(v)
	case *ast.SelectorExpr:
		return g.fieldOf(x) != nil && g.ownChannel(x)
	}
	return false
}

// recvMethod returns the declaration and receiver of the //sync:recv
// method of the package that call calls on the process, if it is one.
func (g *loopGen) recvMethod(call *ast.CallExpr) (*ast.FuncDecl, *types.Var) {
	c := g.comm(call)
	if c == nil || c.Kind != annotations.Recv {
		return nil, nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || !g.isProcess(id) {
		return nil, nil
	}
	fn, _ := calleeOf(g.info, call).(*types.Func)
	for _, f := range g.u.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List[0].Names) == 0 || g.info.Defs[fd.Name] != fn {
				continue
			}
			rv, _ := g.info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
			return fd, rv
		}
	}
	return nil, nil
}

// isProcess reports whether id is the process: the variable the tag
// starts from, or the receiver when the tag is made of local variables.
func (g *loopGen) isProcess(id *ast.Ident) bool {
	obj := g.info.Uses[id]
	if obj == nil {
		return false
	}
	if obj == g.phase.Root && len(g.phase.Fields) > 0 || g.procAliases[obj] {
		return true
	}
	return len(g.phase.Fields) == 0 && g.fn.Recv != nil && len(g.fn.Recv.List[0].Names) > 0 && obj == g.info.Defs[g.fn.Recv.List[0].Names[0]]
}

// candidate returns the ChanField v would have with the role, if its type
// fits it: a table of channels on which the process can send for peers, a
// channel of messages the process can receive from for an inbox.
func (g *loopGen) candidate(v *types.Var, role annotations.ChanRole) *annotations.ChanField {
	t := v.Type()
	if role == annotations.Peers {
		switch u := t.Underlying().(type) {
		case *types.Slice:
			t = u.Elem()
		case *types.Array:
			t = u.Elem()
		case *types.Map:
			if b, ok := u.Key().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
				return nil
			}
			t = u.Elem()
		default:
			return nil
		}
	}
	return g.candidateChans(v, t, role)
}

// candidateChans returns the ChanField v would have with the role when
// the channels are those of t (v's type, or its element type for a
// table), if the process can use them in that role and they carry
// messages.
func (g *loopGen) candidateChans(v *types.Var, t types.Type, role annotations.ChanRole) *annotations.ChanField {
	chans := annotations.ChannelsOf(t)
	if len(chans) == 0 {
		return nil
	}
	cf := &annotations.ChanField{Field: v, Role: role, Chans: chans, Pos: v.Pos()}
	for _, ch := range chans {
		if role == annotations.Peers && ch.Dir() == types.RecvOnly || role == annotations.Inbox && ch.Dir() == types.SendOnly {
			return nil
		}
		e := ch.Elem()
		if g.u.ann.MsgOf(e) != nil || types.IsInterface(e) {
			continue
		}
		from, msg := g.envelope(e)
		if from == nil || cf.From != nil && (cf.From != from || cf.Msg != msg) {
			return nil
		}
		cf.From, cf.Msg = from, msg
	}
	return cf
}

// envelope returns the sender and message fields of e when e is a struct
// with exactly one field of an integer type and exactly one of a message
// type or an interface, as the directives infer them.
func (g *loopGen) envelope(e types.Type) (from, msg *types.Var) {
	st, ok := e.Underlying().(*types.Struct)
	if !ok {
		return nil, nil
	}
	for f := range st.Fields() {
		b, isBasic := f.Type().Underlying().(*types.Basic)
		switch {
		case isBasic && b.Info()&types.IsInteger != 0:
			if from != nil {
				return nil, nil
			}
			from = f
		case g.u.ann.MsgOf(f.Type()) != nil || types.IsInterface(f.Type()):
			if msg != nil {
				return nil, nil
			}
			msg = f
		}
	}
	if from == nil || msg == nil {
		return nil, nil
	}
	return from, msg
}

// ambiguous refuses when two candidates of the role carry the same type:
// nothing in the code says which is the process's.
func (g *loopGen) ambiguous(cands []*chanUse, role annotations.ChanRole) error {
	for i, a := range cands {
		var same []*chanUse
		for _, b := range cands[i:] {
			if sameChans(a.cf.Chans, b.cf.Chans) {
				same = append(same, b)
			}
		}
		if len(same) < 2 {
			continue
		}
		sort.Slice(same, func(i, j int) bool { return same[i].seq < same[j].seq })
		var names []string
		for _, c := range same {
			names = append(names, g.describe(c))
		}
		what, used, directive := "peers table", "sends on", "//sync:peers"
		if role == annotations.Inbox {
			what, used, directive = "inbox", "receives from", "//sync:inbox"
		}
		hint := ""
		for _, c := range same {
			switch {
			case c.self != nil:
				hint = " (an entry of a table cannot carry the directive: keep the process's own channel in a field of the process)"
			case !c.v.IsField() && hint == "":
				hint = " (a parameter cannot carry the directive: keep it in a field of the process)"
			}
		}
		return refuse(same[1].at, "cannot tell which is the process's %s: the loop %s %s, which both carry %s; mark the %s with %s on its struct field%s",
			what, used, strings.Join(names, " and "), types.TypeString(same[0].cf.Chans[0].Elem(), g.qualifier()), what, directive, hint)
	}
	return nil
}

// sameChans reports whether two lists of channel types have the same
// element types.
func sameChans(a, b []*types.Chan) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !types.Identical(a[i].Elem(), b[i].Elem()) {
			return false
		}
	}
	return true
}

// describe names a candidate and where it is declared and first used.
func (g *loopGen) describe(c *chanUse) string {
	kind := "parameter"
	if c.v.IsField() {
		kind = "field"
	}
	name := c.v.Name()
	if c.self != nil {
		name += "[" + c.self.Name() + "]"
	}
	return fmt.Sprintf("%s %s (declared at %s, used at %s)", kind, name, posString(g.fset, c.v.Pos()), posString(g.fset, c.at))
}

// posString renders a position as file.go:line:col.
func posString(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepathBase(p.Filename), p.Line, p.Column)
}

func filepathBase(name string) string {
	return name[strings.LastIndexAny(name, `/\`)+1:]
}
