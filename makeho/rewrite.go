package makeho

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// chooseNames picks the names of the machine's receiver, the context, the
// mailbox and the envelope among those free in the function and the
// package, and the machine's type name.
func (g *loopGen) chooseNames() error {
	if g.fn.Type.TypeParams != nil || g.fn.Recv != nil && hasTypeParams(g.fn.Recv.List[0].Type) {
		return refuse(g.fn.Pos(), "not supported yet: a tagged loop in a generic function")
	}
	g.usedNames = make(map[string]bool)
	ast.Inspect(g.fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			g.usedNames[id.Name] = true
		}
		return true
	})
	scope := g.u.pass.Pkg.Scope()
	pick := g.fresh
	g.mName = pick("m", "mc", "hm", "mach")
	g.cName = pick("c", "hc", "cx")
	g.mboxName = pick("mbox", "mb", "inbox", "mailbox")
	g.envName = pick("e", "env", "en", "ev")
	base := g.fn.Name.Name + "Machine"
	name := base
	for i := 2; scope.Lookup(name) != nil || g.taken[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	g.taken[name] = true
	g.typeName = name
	if g.fn.Recv != nil && len(g.fn.Recv.List[0].Names) > 0 {
		g.recv, _ = g.info.Defs[g.fn.Recv.List[0].Names[0]].(*types.Var)
		if g.recv != nil {
			_, g.recvPtr = g.recv.Type().Underlying().(*types.Pointer)
		}
	}
	return nil
}

// fresh returns the first of cands, or cands[0] with a number, that is
// neither used in the function nor declared in the package, and takes it.
func (g *loopGen) fresh(cands ...string) string {
	scope := g.u.pass.Pkg.Scope()
	for _, c := range cands {
		if !g.usedNames[c] && scope.Lookup(c) == nil {
			g.usedNames[c] = true
			return c
		}
	}
	for i := 2; ; i++ {
		c := cands[0] + strconv.Itoa(i)
		if !g.usedNames[c] && scope.Lookup(c) == nil {
			g.usedNames[c] = true
			return c
		}
	}
}

func hasTypeParams(recv ast.Expr) bool {
	if s, ok := recv.(*ast.StarExpr); ok {
		recv = s.X
	}
	switch recv.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// sends translates the calls of //sync:send functions into c.Send and
// c.Broadcast: a function with the message as its only argument
// broadcasts; one with an integer argument before the message sends to it.
func (g *loopGen) sends() error {
	for _, r := range g.rounds {
		stmts := append(forkStmts(r, false), r.send...)
		for _, sp := range r.guards {
			stmts = append(append([]ast.Stmt{}, sp.tail...), stmts...)
		}
		for _, s := range stmts {
			if err := g.sendsIn(s); err != nil {
				return err
			}
		}
	}
	return g.helperSends()
}

// sendsIn translates the sends of s: on channels of a peers table, calls
// of //sync:send functions, and calls of helpers that send.
func (g *loopGen) sendsIn(s ast.Stmt) error {
	if err := g.chanSends(s); err != nil {
		return err
	}
	stmts := make(map[*ast.CallExpr]bool)
	ast.Inspect(s, func(n ast.Node) bool {
		if es, ok := n.(*ast.ExprStmt); ok {
			if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok {
				stmts[call] = true
			}
		}
		return true
	})
	var err error
	ast.Inspect(s, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || err != nil {
			return err == nil
		}
		if c := g.comm(call); c != nil && c.Kind == annotations.Send {
			if !stmts[call] {
				err = refuse(call.Pos(), "not supported yet: a send whose result is used")
				return false
			}
			err = g.send(call)
			return false
		}
		if h := g.commHelper(call); h != nil && h.kind == annotations.Send {
			err = g.helperCall(call, h)
			return false
		}
		return true
	})
	return err
}

func (g *loopGen) send(call *ast.CallExpr) error {
	msg, to := -1, -1
	for i, a := range call.Args {
		t := g.info.TypeOf(a)
		switch {
		case (g.u.ann.MsgOf(t) != nil || types.IsInterface(t)) && msg < 0:
			// An interface holds messages of several types (the
			// parameter m any of a helper that sends).
			msg = i
		case isInteger(t) && to < 0:
			to = i
		default:
			return refuse(a.Pos(), "not supported yet: argument %s of a //sync:send call (make-HO understands a message, and optionally an integer receiver before it)", types.ExprString(a))
		}
	}
	switch {
	case msg < 0:
		return refuse(call.Pos(), "not supported yet: a //sync:send call without an argument of a //sync:msg type")
	case to < 0:
		g.replace(call.Pos(), call.Args[msg].Pos(), g.cName+".Broadcast(")
		g.replace(call.Args[msg].End(), call.End(), ")")
	case to < msg:
		g.replace(call.Pos(), call.Args[to].Pos(), g.cName+".Send(compho.PID(")
		g.replace(call.Args[to].End(), call.Args[msg].Pos(), "), ")
		g.replace(call.Args[msg].End(), call.End(), ")")
	default:
		return refuse(call.Pos(), "not supported yet: a //sync:send call with the receiver after the message")
	}
	return nil
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// receptions rewrites every reception loop of an update into a loop over
// the round's mailbox.
func (g *loopGen) receptions() error {
	var regions [][]ast.Stmt
	regions = append(regions, g.preLoop, g.prologue)
	for i, r := range g.rounds {
		regions = append(regions, r.send, forkStmts(r, false))
		if i > 0 {
			regions = append(regions, r.pre)
		}
	}
	for _, stmts := range regions {
		for _, s := range stmts {
			if pos := g.findComm(s, annotations.Recv); pos.IsValid() {
				return refuse(pos, "not supported yet: a reception outside the update of a round (before its send)")
			}
		}
	}
	for _, r := range g.rounds {
		for _, s := range append(forkStmts(r, true), r.update...) {
			if err := g.receptionsIn(s); err != nil {
				return err
			}
		}
	}
	if err := g.helperReceptions(); err != nil {
		return err
	}
	g.removeDead()
	if err := g.removeTimers(); err != nil {
		return err
	}
	return nil
}

func (g *loopGen) receptionsIn(top ast.Stmt) error {
	var path []ast.Node
	var err error
	ast.Inspect(top, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		if n == nil {
			path = path[:len(path)-1]
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if c := g.comm(call); c != nil && c.Kind == annotations.Recv {
				err = g.reception(call, c, path)
				return false
			}
			if h := g.commHelper(call); h != nil && h.kind == annotations.Recv {
				if err = g.helperCall(call, h); err != nil {
					return false
				}
			}
		}
		if u, ok := n.(*ast.UnaryExpr); ok && g.commKind(u) == annotations.Recv {
			err = g.chanReception(u, path)
			return false
		}
		path = append(path, n)
		return true
	})
	return err
}

// reception rewrites the reception loop around call, whose enclosing nodes
// are path:
//
//	for COND {                          for _, e := range mbox {
//		m, from, ok := net.Recv(d)          if !COND {
//		if !ok {                     →              break
//			break                               }
//		}                                       m, from := e.Msg, int(e.From)
//		BODY                                    BODY
//	}                                       }
func (g *loopGen) reception(call *ast.CallExpr, c *annotations.Comm, path []ast.Node) error {
	notLoop := refuse(call.Pos(), "not supported yet: a reception that is not a reception loop (for COND { m, from, ok := recv(...); ... })")
	var loop *ast.ForStmt
	for i := len(path) - 1; i >= 0; i-- {
		if f, ok := path[i].(*ast.ForStmt); ok {
			loop = f
			break
		}
		if _, ok := path[i].(*ast.FuncLit); ok {
			break
		}
	}
	if loop == nil || loop.Init != nil || loop.Post != nil {
		return notLoop
	}
	var as *ast.AssignStmt
	at := -1
	for i, s := range loop.Body.List {
		if a, ok := s.(*ast.AssignStmt); ok && len(a.Rhs) == 1 && ast.Unparen(a.Rhs[0]) == call {
			as, at = a, i
		}
	}
	if as == nil {
		return notLoop
	}
	sig := g.info.TypeOf(call.Fun).(*types.Signature)
	res := sig.Results()
	n := res.Len()
	if len(as.Lhs) != n || n == 0 {
		return notLoop
	}
	okIdx, fromIdx := -1, -1
	if c.HasOK {
		okIdx = n - 1
	}
	if n == 3 || n == 2 && !c.HasOK {
		fromIdx = 1
	}
	if n > 3 {
		return refuse(call.Pos(), "not supported yet: a //sync:recv function with %d results", n)
	}
	qual := g.qualifier()
	var rhs []string
	for i := 0; i < n; i++ {
		switch i {
		case okIdx:
		case fromIdx:
			rhs = append(rhs, types.TypeString(res.At(i).Type(), qual)+"("+g.envName+".From)")
		case 0:
			t := res.At(0).Type()
			if it, ok := t.Underlying().(*types.Interface); ok && it.Empty() {
				rhs = append(rhs, g.envName+".Msg")
			} else {
				rhs = append(rhs, g.envName+".Msg.("+types.TypeString(t, qual)+")")
			}
		default:
			return notLoop
		}
	}
	if okIdx >= 0 {
		if err := g.dropTimeout(loop, at, as.Lhs[okIdx]); err != nil {
			return err
		}
		g.remove(as.Lhs[okIdx-1].End(), as.Lhs[okIdx].End())
	}
	g.replace(call.Pos(), call.End(), strings.Join(rhs, ", "))
	g.removed = append(g.removed, span{call.Pos(), call.End()})
	g.recvCalls = append(g.recvCalls, call)
	g.mailboxHeader(loop)
	return nil
}

// dropTimeout removes the "if !ok { break }" (or "if err != nil { break }")
// that follows the receive: a mailbox has no timeout.
func (g *loopGen) dropTimeout(loop *ast.ForStmt, at int, okExpr ast.Expr) error {
	id, _ := okExpr.(*ast.Ident)
	if id == nil || id.Name == "_" {
		return nil
	}
	obj := g.info.ObjectOf(id)
	var drop *ast.IfStmt
	if at+1 < len(loop.Body.List) {
		if s, ok := loop.Body.List[at+1].(*ast.IfStmt); ok && s.Init == nil && s.Else == nil && len(s.Body.List) == 1 && g.testsTimeout(s.Cond, obj) {
			if b, ok := s.Body.List[0].(*ast.BranchStmt); ok && b.Tok == token.BREAK && b.Label == nil {
				drop = s
			}
		}
	}
	// The first bad use in the source: Uses is a map, whose order varies.
	var bad token.Pos
	for use, o := range g.info.Uses {
		if o == obj && (drop == nil || use.Pos() < drop.Pos() || use.Pos() >= drop.End()) && (!bad.IsValid() || use.Pos() < bad) {
			bad = use.Pos()
		}
	}
	if bad.IsValid() {
		return refuse(bad, "not supported yet: the timeout result %s of a reception is used other than in `if !%s { break }` right after it (make-HO drops the timeouts: test the messages received instead, len(mbox) or a count)", id.Name, id.Name)
	}
	if drop != nil {
		g.removeStmt(drop)
	}
	return nil
}

// testsTimeout reports whether cond is !ok or err != nil for the variable
// obj.
func (g *loopGen) testsTimeout(cond ast.Expr, obj types.Object) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && g.info.Uses[id] == obj
	}
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		return c.Op == token.NOT && is(c.X)
	case *ast.BinaryExpr:
		nilIdent, ok := ast.Unparen(c.Y).(*ast.Ident)
		return c.Op == token.NEQ && is(c.X) && ok && nilIdent.Name == "nil"
	}
	return false
}

// mailboxHeader turns "for COND {" into a range over the mailbox that
// stops when COND no longer holds.
func (g *loopGen) mailboxHeader(loop *ast.ForStmt) {
	head := "for _, " + g.envName + " := range " + g.mboxName + " {"
	if loop.Cond == nil {
		g.replace(loop.For, loop.Body.Lbrace+1, head)
		return
	}
	cond := ast.Unparen(loop.Cond)
	inverse := map[token.Token]token.Token{
		token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR,
		token.EQL: token.NEQ, token.NEQ: token.EQL,
	}
	switch c := cond.(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			g.replace(loop.For, c.X.Pos(), head+"\nif ")
			g.replace(loop.Cond.End(), loop.Body.Lbrace+1, " {\nbreak\n}")
			return
		}
	case *ast.BinaryExpr:
		if inv, ok := inverse[c.Op]; ok {
			g.replace(loop.For, loop.Cond.Pos(), head+"\nif ")
			g.replace(c.OpPos, c.OpPos+token.Pos(len(c.Op.String())), inv.String())
			g.replace(loop.Cond.End(), loop.Body.Lbrace+1, " {\nbreak\n}")
			return
		}
	}
	g.replace(loop.For, loop.Cond.Pos(), head+"\nif !(")
	g.replace(loop.Cond.End(), loop.Body.Lbrace+1, ") {\nbreak\n}")
}

// removeDead removes the statements that only set variables the receive
// calls used (their deadlines), when nothing else reads them: a mailbox
// has no timeout.
func (g *loopGen) removeDead() {
	vars := make(map[types.Object]bool)
	for _, call := range g.recvCalls {
		ast.Inspect(call, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := g.info.Uses[id].(*types.Var); ok && !v.IsField() && g.declIn(v) != nil && v != g.recv {
					vars[v] = true
				}
			}
			return true
		})
	}
	for v := range vars {
		if g.readElsewhere(v) {
			continue
		}
		ast.Inspect(g.declIn(v).Body, func(n ast.Node) bool {
			if s, ok := n.(ast.Stmt); ok && g.onlySets(s, v) {
				g.removeStmt(s)
				return false
			}
			return true
		})
	}
}

// removeStmt removes a statement, and its line if it is alone on it.
func (g *loopGen) removeStmt(s ast.Node) {
	start, end := s.Pos(), s.End()
	ls := lineStart(g.src, g.off(start))
	if nl := bytes.IndexByte(g.src[g.off(end):], '\n'); nl >= 0 && blank(g.src[ls:g.off(start)]) && blank(g.src[g.off(end):g.off(end)+nl]) {
		start, end = start-token.Pos(g.off(start)-ls), end+token.Pos(nl+1)
	}
	g.remove(start, end)
}

// readElsewhere reports whether v is read outside the receive calls.
func (g *loopGen) readElsewhere(v types.Object) bool {
	sets := make(map[*ast.Ident]bool)
	ast.Inspect(g.declIn(v).Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					sets[id] = true
				}
			}
		}
		return true
	})
	inCall := func(p token.Pos) bool {
		for _, c := range g.recvCalls {
			if c.Pos() <= p && p < c.End() {
				return true
			}
		}
		return false
	}
	for id, o := range g.info.Uses {
		if o == v && !sets[id] && !inCall(id.Pos()) {
			return true
		}
	}
	return false
}

// onlySets reports whether s is "v := e", "v = e", "var v T" or "var v = e".
func (g *loopGen) onlySets(s ast.Stmt, v types.Object) bool {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || (s.Tok != token.ASSIGN && s.Tok != token.DEFINE) {
			return false
		}
		id, ok := s.Lhs[0].(*ast.Ident)
		return ok && g.info.ObjectOf(id) == v
	case *ast.DeclStmt:
		gd := s.Decl.(*ast.GenDecl)
		if gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return false
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		return len(vs.Names) == 1 && g.info.Defs[vs.Names[0]] == v
	}
	return false
}

// qualifier renders package names as the loop's file imports them, and
// records the imports the generated code needs.
func (g *loopGen) qualifier() types.Qualifier {
	return func(p *types.Package) string {
		if p == g.u.pass.Pkg {
			return ""
		}
		name := p.Name()
		for _, im := range g.file.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if path == p.Path() && im.Name != nil && im.Name.Name != "_" && im.Name.Name != "." {
				name = im.Name.Name
			}
		}
		g.imps[p.Path()] = name
		return name
	}
}

// hoist decides which variables of the function become fields of the
// machine: the receiver and the parameters, and the locals used by more
// than one of the machine's functions.
func (g *loopGen) hoist() error {
	regions := g.regions()
	where := make(map[types.Object]map[int]bool)
	for i, nodes := range regions {
		for _, root := range nodes {
			ast.Inspect(root, func(n ast.Node) bool {
				if g.otherTail(root, n) {
					return false
				}
				id, ok := n.(*ast.Ident)
				if !ok || g.isRemoved(id.Pos()) {
					return true
				}
				if v := g.localVar(id); v != nil {
					if where[v] == nil {
						where[v] = make(map[int]bool)
					}
					where[v][i] = true
				}
				return true
			})
		}
	}
	g.hoisted = make(map[types.Object]string)
	g.fieldNames = map[string]bool{"halted": true}
	for _, n := range g.resultFields() {
		g.fieldNames[n] = true
	}
	add := func(v types.Object) {
		if _, ok := g.hoisted[v]; ok || v == nil || v.Name() == "_" {
			return
		}
		name := v.Name()
		if g.isResult(v) {
			g.hoisted[v] = name
			return
		}
		for i := 2; g.fieldNames[name]; i++ {
			name = v.Name() + strconv.Itoa(i)
		}
		g.fieldNames[name] = true
		g.hoisted[v] = name
	}
	if g.recv != nil {
		add(g.recv)
	}
	for _, f := range g.fn.Type.Params.List {
		for _, id := range f.Names {
			add(g.info.Defs[id])
		}
	}
	var vars []types.Object
	for v := range where {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].Pos() < vars[j].Pos() })
	for _, v := range vars {
		if len(where[v]) > 1 || g.isTagRoot(v) || g.isResult(v) {
			add(v)
		}
	}
	// Variables declared together are hoisted together, so that "a, b :=
	// f()" becomes "m.a, m.b = f()".
	for changed := true; changed; {
		changed = false
		for _, group := range g.declGroups() {
			any := false
			for _, v := range group {
				if _, ok := g.hoisted[v]; ok {
					any = true
				}
			}
			for _, v := range group {
				// The blank identifier is never hoisted: without this
				// test, a, _ := f() looped for ever.
				if _, ok := g.hoisted[v]; any && !ok && v.Name() != "_" {
					add(v)
					changed = true
				}
			}
		}
	}
	if g.rangeStmt != nil {
		g.iterField = "iter"
		if id, ok := g.rangeStmt.Key.(*ast.Ident); ok && id.Name != "_" {
			v := g.info.Defs[id]
			add(v)
			g.iterField = g.hoisted[v]
		} else {
			g.iterField = g.freshField("iter")
		}
		if g.rangeSlice {
			g.itersField = g.freshField("items")
			if id, ok := g.rangeStmt.Value.(*ast.Ident); ok && id.Name != "_" {
				add(g.info.Defs[id]) // set when an iteration starts
			}
		} else {
			g.itersField = g.freshField("iters")
		}
	}
	return g.rewriteHoisted(regions)
}

// isTagRoot reports whether v is the variable a synchronization variable
// of the loop's tag starts from.
func (g *loopGen) isTagRoot(v types.Object) bool {
	if v == g.round.Root {
		return true
	}
	for _, ph := range g.phases {
		if v == ph.Root {
			return true
		}
	}
	return false
}

func (g *loopGen) freshField(base string) string {
	name := base
	for i := 2; g.fieldNames[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	g.fieldNames[name] = true
	return name
}

func (g *loopGen) isResult(v types.Object) bool {
	if g.fn.Type.Results == nil {
		return false
	}
	for _, f := range g.fn.Type.Results.List {
		for _, id := range f.Names {
			if g.info.Defs[id] == v {
				return true
			}
		}
	}
	return false
}

// localVar returns the variable of the function id denotes, if any.
func (g *loopGen) localVar(id *ast.Ident) *types.Var {
	v, ok := g.info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Pos() < g.fn.Pos() || v.Pos() >= g.fn.End() {
		return nil
	}
	return v
}

// regions lists the source of each function of the machine: Init, the
// start and the end of an iteration, then Send and Update of every round.
func (g *loopGen) regions() [][]ast.Node {
	stmts := func(ss ...[]ast.Stmt) []ast.Node {
		var out []ast.Node
		for _, s := range ss {
			for _, t := range s {
				out = append(out, t)
			}
		}
		return out
	}
	init := stmts(g.preLoop)
	var start, end []ast.Node
	if g.forStmt != nil {
		if g.forStmt.Init != nil {
			init = append(init, g.forStmt.Init)
		}
		if g.forStmt.Cond != nil {
			start = append(start, g.forStmt.Cond)
		}
		if g.forStmt.Post != nil {
			end = append(end, g.forStmt.Post)
		}
	} else {
		init = append(init, g.rangeStmt.X)
	}
	start = append(start, stmts(g.prologue)...)
	if b := g.rounds[0].branch; b != nil && b.f.before == b {
		start = append(start, b.f.s.Cond)
	}
	regions := [][]ast.Node{init, start, end, stmts(g.postLoop)}
	for i, r := range g.rounds {
		send := stmts(r.send, forkStmts(r, false))
		for _, sp := range r.guards {
			send = append(send, stmts(sp.tail)...)
		}
		update := stmts(forkStmts(r, true), g.updateOf(i))
		if i+1 < len(g.rounds) {
			if b := g.rounds[i+1].branch; b != nil && b.f.before == b {
				update = append(update, b.f.s.Cond)
			}
		}
		regions = append(regions, send, update)
	}
	return regions
}

// updateOf returns the statements of the update of round i: its own, then
// those that enter the next round before its send.
func (g *loopGen) updateOf(i int) []ast.Stmt {
	u := g.rounds[i].update
	if i+1 < len(g.rounds) {
		u = append(append([]ast.Stmt{}, u...), g.rounds[i+1].pre...)
	}
	return u
}

// declGroups lists the variables declared by one statement.
func (g *loopGen) declGroups() [][]types.Object {
	var groups [][]types.Object
	ast.Inspect(g.fn.Body, func(n ast.Node) bool {
		var ids []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				ids = n.Lhs
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				ids = []ast.Expr{n.Key, n.Value}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				ids = append(ids, id)
			}
		}
		var group []types.Object
		for _, e := range ids {
			if id, ok := e.(*ast.Ident); ok {
				if v := g.info.Defs[id]; v != nil {
					group = append(group, v)
				}
			}
		}
		if len(group) > 1 {
			groups = append(groups, group)
		}
		return true
	})
	return groups
}

// rewriteHoisted makes every use of a hoisted variable a field of the
// machine, and its declarations assignments.
func (g *loopGen) rewriteHoisted(regions [][]ast.Node) error {
	var err error
	field := func(id *ast.Ident) (string, bool) {
		v := g.localVar(id)
		if v == nil || (v == g.recv && g.recvPtr) {
			return "", false
		}
		name, ok := g.hoisted[v]
		return name, ok
	}
	qual := g.qualifier()
	for _, nodes := range regions {
		for _, root := range nodes {
			ast.Inspect(root, func(n ast.Node) bool {
				if g.otherTail(root, n) {
					return false
				}
				switch n := n.(type) {
				case *ast.Ident:
					if name, ok := field(n); ok {
						g.replace(n.Pos(), n.End(), g.mName+"."+name)
					}
				case *ast.AssignStmt:
					if n.Tok == token.DEFINE {
						for _, l := range n.Lhs {
							if _, ok := field(l.(*ast.Ident)); ok {
								g.replace(n.TokPos, n.TokPos+2, "=")
								break
							}
						}
					}
				case *ast.RangeStmt:
					if n.Tok == token.DEFINE {
						if id, ok := n.Key.(*ast.Ident); ok {
							if _, ok := field(id); ok {
								g.replace(n.TokPos, n.TokPos+2, "=")
							}
						}
					}
				case *ast.DeclStmt:
					gd, ok := n.Decl.(*ast.GenDecl)
					if !ok || gd.Tok != token.VAR {
						break
					}
					var lhs []string
					var spec *ast.ValueSpec
					for _, s := range gd.Specs {
						vs := s.(*ast.ValueSpec)
						for _, id := range vs.Names {
							if name, ok := field(id); ok {
								lhs = append(lhs, g.mName+"."+name)
								spec = vs
							}
						}
					}
					if lhs == nil {
						break
					}
					if len(gd.Specs) != 1 {
						err = refuse(n.Pos(), "not supported yet: a var block declaring variables used in several rounds")
						break
					}
					if len(spec.Values) == 0 {
						zeros := make([]string, len(spec.Names))
						for i, id := range spec.Names {
							zeros[i] = zeroValue(g.info.Defs[id].Type(), qual)
						}
						g.replace(n.Pos(), n.End(), strings.Join(lhs, ", ")+" = "+strings.Join(zeros, ", "))
						return false
					}
					g.replace(n.Pos(), spec.Values[0].Pos(), strings.Join(lhs, ", ")+" = ")
				}
				return true
			})
		}
	}
	return err
}

// otherTail reports whether n, met in the walk of root, is the tail of a
// split if that belongs to another function of the machine than root's.
func (g *loopGen) otherTail(root, n ast.Node) bool {
	st, ok := n.(ast.Stmt)
	return ok && n != root && g.tails[st] != nil
}

// declIn returns the function declaring v: the loop's function, or a
// helper that receives (whose deadlines go with its reception); nil if
// neither.
func (g *loopGen) declIn(v types.Object) *ast.FuncDecl {
	if g.fn.Pos() <= v.Pos() && v.Pos() < g.fn.End() {
		return g.fn
	}
	for _, h := range g.usedHelpers {
		if h.kind == annotations.Recv && h.decl.Pos() <= v.Pos() && v.Pos() < h.decl.End() {
			return h.decl
		}
	}
	return nil
}
