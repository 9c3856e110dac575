package makeho

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// Channels. A send on a channel or a receive from one is communication
// only through the fields annotated //sync:peers and //sync:inbox (version
// 2 of the language): make-HO must know which process a send goes to,
// which an index into a slice of channels does not say, and which
// receives fill the process's mailbox. The translation:
//
//	p.peers[q] <- m                        c.Send(compho.PID(q), m)
//	p.peers[q].Votes <- m                  c.Send(compho.PID(q), m)
//	select { case p.peers[q] <- m: default: }    c.Send(compho.PID(q), m)
//	for _, ch := range p.peers { ch <- m }       c.Broadcast(m)
//
// where m is the message, or the Msg field of an envelope literal when the
// table's directive names the envelope's fields; and a reception loop
//
//	label:                                 for _, e := range mbox {
//	for COND {                                     if !COND {
//		select {                                       break
//		case x := <-p.in:               →          }
//			BODY                                   x := <message of e>
//		case <-timer.C:                            BODY
//			break label                    }
//		}
//	}
//
// whose other cases are timeouts: receives from a timer local to the
// function, or from ctx.Done() for a context parameter, that leave the
// reception loop. The lock-step semantics models a timeout by the
// heard-of set, so the case goes, and so do the timer and every statement
// that creates, resets or stops it. A case <-ctx.Done() that returns
// becomes a test of ctx.Err() before the mailbox is read, which halts the
// machine: the behavior of the asynchronous code when the cancellation is
// ready before its first receive (a machine never halts in the middle of
// a reception, but the messages received by then only reach the mailbox).

// commKind returns the kind of communication n is: a call of a //sync:send
// or //sync:recv function, a send on a channel of a //sync:peers table, or
// a receive from the process's //sync:inbox; 0 if none.
func (g *loopGen) commKind(n ast.Node) annotations.CommKind {
	switch n := n.(type) {
	case *ast.CallExpr:
		if c := g.comm(n); c != nil {
			return c.Kind
		}
		if h := g.commHelper(n); h != nil {
			return h.kind
		}
	case *ast.SendStmt:
		if _, cf := g.peerChan(n.Chan); cf != nil {
			return annotations.Send
		}
	case *ast.UnaryExpr:
		if n.Op == token.ARROW && g.inboxChan(n.X) != nil {
			return annotations.Recv
		}
	}
	return 0
}

// fieldOf returns the field that sel selects, if any.
func (g *loopGen) fieldOf(sel *ast.SelectorExpr) *types.Var {
	s := g.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// peerChan returns the process a channel expression sends to and the
// //sync:peers table it is taken from: peers[q] or peers[q].F gives q; the
// value variable of a range over the table gives a nil index (every
// process). cf is nil if ch is not taken from a peer table.
func (g *loopGen) peerChan(ch ast.Expr) (to ast.Expr, cf *annotations.ChanField) {
	e := ast.Unparen(ch)
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if f := g.fieldOf(sel); f != nil && g.chanOf(f) == nil && isChan(f.Type()) {
			e = ast.Unparen(sel.X) // a channel of the peer's inbox struct
		}
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		if cf := g.tableOf(x.X); cf != nil && cf.Role == annotations.Peers {
			return x.Index, cf
		}
	case *ast.Ident:
		if rng := g.peerVars[g.info.Uses[x]]; rng != nil {
			if k := rangeKey(rng); k != nil {
				return k, g.tableOf(rng.X) // for q, ch := range peers: ch is peers[q]
			}
			return nil, g.tableOf(rng.X)
		}
	}
	return nil, nil
}

// rangeKey returns the key variable of a range, if it has one that is not
// the blank identifier.
func rangeKey(rng *ast.RangeStmt) *ast.Ident {
	if id, ok := rng.Key.(*ast.Ident); ok && id.Name != "_" {
		return id
	}
	return nil
}

// tableOf returns the annotation of the table or channel e names, or the
// role inferred for it if e is the process's own (another process's table
// is not inferred).
func (g *loopGen) tableOf(e ast.Expr) *annotations.ChanField {
	v := g.chanVar(e)
	if cf := g.u.ann.ChanOf(v); cf != nil {
		return cf
	}
	if cf := g.inferred[v]; cf != nil && g.ownTable(e) {
		return cf
	}
	return nil
}

// peerTable returns the peers table (annotated or inferred) a range
// statement ranges over, if any.
func (g *loopGen) peerTable(rng *ast.RangeStmt) *annotations.ChanField {
	if cf := g.tableOf(rng.X); cf != nil && cf.Role == annotations.Peers {
		return cf
	}
	return nil
}

// inboxChan returns the inbox (annotated or inferred) of the channel ch
// if ch is a channel of the inbox of the process whose tag the loop has:
// p.in, p.inbox.F for an inbox struct, a parameter in, or the entry of a
// table at the process's identity (chans[id], inferred).
func (g *loopGen) inboxChan(ch ast.Expr) *annotations.ChanField {
	if ix, ok := ast.Unparen(ch).(*ast.IndexExpr); ok {
		if g.self != nil && g.chanVar(ix.X) == g.self.table && g.ownTable(ix.X) && g.identity(ix.Index) == g.self.self {
			return g.self.cf
		}
		return nil
	}
	if id, ok := ast.Unparen(ch).(*ast.Ident); ok {
		if cf := g.tableOf(id); cf != nil && cf.Role == annotations.Inbox {
			return cf
		}
		return nil
	}
	sel, ok := ast.Unparen(ch).(*ast.SelectorExpr)
	if !ok || !isChan(g.info.TypeOf(sel)) {
		return nil
	}
	if cf := g.chanOf(g.fieldOf(sel)); cf != nil {
		if cf.Role == annotations.Inbox && g.ownChannel(sel) {
			return cf
		}
		return nil
	}
	inner, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok || g.fieldOf(sel) == nil {
		return nil
	}
	if cf := g.chanOf(g.fieldOf(inner)); cf != nil && cf.Role == annotations.Inbox && g.ownChannel(inner) {
		return cf
	}
	return nil
}

// ownChannel reports whether the field selection sel is made on the
// process (see isProcess: p.in for the tag p.phase,p.step, embedded fields
// included): the inbox of another process (p.next.in) is not this
// process's mailbox.
func (g *loopGen) ownChannel(sel *ast.SelectorExpr) bool {
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && g.isProcess(id)
}

// checkChannels refuses channel operations make-HO cannot place: sends on
// channels that are not in a //sync:peers table, receives from channels
// that are neither the process's //sync:inbox nor timeouts of a reception,
// ranges over channels and other selects. It records the timers and the
// value variables of ranges over peer tables.
func (g *loopGen) checkChannels() error {
	g.peerVars = make(map[types.Object]*ast.RangeStmt)
	g.timers = make(map[types.Object]bool)
	g.cancels = make(map[*ast.UnaryExpr]ast.Expr)
	timeouts := make(map[*ast.UnaryExpr]bool)
	var err error
	check := func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if isChan(g.info.TypeOf(n.X)) {
				err = refuse(n.Pos(), "not supported yet: a range over a channel in a tagged loop (make-HO translates receives from the //sync:inbox in a select with timeouts)")
			} else if g.peerTable(n) != nil {
				if id, ok := n.Value.(*ast.Ident); ok && n.Tok == token.DEFINE {
					g.peerVars[g.info.Defs[id]] = n
				}
			}
		case *ast.SendStmt:
			if g.commKind(n) != annotations.Send {
				err = g.notPeers(n.Arrow)
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && g.commKind(n) != annotations.Recv && !timeouts[n] {
				err = refuse(n.OpPos, "not supported yet: a receive from a channel that is neither the process's inbox (a //sync:inbox field, or a channel of messages that is a parameter or field of the process) nor the timeout of a reception (make-HO needs to know which receives fill the mailbox)%s", g.notInferred(annotations.Inbox))
			}
		case *ast.SelectStmt:
			err = g.checkSelect(n, timeouts)
		}
		return err == nil
	}
	ast.Inspect(g.loop.Body, check)
	for _, h := range g.usedHelpers {
		ast.Inspect(h.decl.Body, check)
	}
	if err != nil {
		return err
	}
	for _, d := range g.preDefers {
		if v := g.timerCall(d.Call); v == nil || !g.timers[v] {
			return refuse(d.Pos(), "not supported yet: defer before the tagged loop (Init cannot run it when the loop ends: call it after the loop instead)")
		}
	}
	return nil
}

// notPeers refuses a send at pos on a channel that is in no peers table.
func (g *loopGen) notPeers(pos token.Pos) *refusal {
	return refuse(pos, "not supported yet: a send on a channel that is not taken from a peers table (make-HO must know which process receives it: table[q] <- m, or a range over the table, for a slice, array or map of channels that is a //sync:peers field, or a parameter or field of the process)%s",
		g.notInferred(annotations.Peers))
}

// notInferred says, for a refusal, that make-HO inferred nothing of the
// role because the package annotates it.
func (g *loopGen) notInferred(role annotations.ChanRole) string {
	if !g.annotatedRole(role) {
		return ""
	}
	what := "peers tables"
	if role == annotations.Inbox {
		what = "inboxes"
	}
	return fmt.Sprintf("; the package marks its %s with %s, so make-HO infers none", what, role)
}

// checkHiddenComm refuses a call in the loop of a function of the package
// that communicates without being a communication function (see
// hiddenComm). It runs after the round structure is checked, whose
// refusals say more.
func (g *loopGen) checkHiddenComm() error {
	var err error
	ast.Inspect(g.loop.Body, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && g.commKind(call) == 0 && !g.isRemoved(call.Pos()) {
			if name := g.hiddenComm(call, 0); name != "" {
				err = refuse(call.Pos(), "not supported yet: a call of %s, which sends or receives (make-HO translates the sends and receives written in the loop itself, calls of //sync:send and //sync:recv functions, and calls on the process of its methods, in the loop's file, that either send or receive: write them in the loop, make the function such a method, or annotate it)", name)
			}
		}
		return err == nil
	})
	return err
}

// hiddenComm returns the name of the function of the package that call
// calls when it communicates (a channel send or receive, a select, a call
// of a //sync:send or //sync:recv function, or of another such function),
// but is neither a communication function nor the function of a nested
// tagged loop: make-HO would copy the call into a round's update, where
// it would do the real I/O after the round's messages were delivered.
func (g *loopGen) hiddenComm(call *ast.CallExpr, depth int) string {
	fn, _ := calleeOf(g.info, call).(*types.Func)
	if fn == nil || fn.Pkg() != g.u.pass.Pkg || depth > 3 {
		return ""
	}
	var decl *ast.FuncDecl
	for _, f := range g.u.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && g.info.Defs[fd.Name] == fn {
				decl = fd
			}
		}
	}
	if decl == nil || decl.Body == nil {
		return ""
	}
	for _, l := range g.u.ann.Loops {
		if l.Func == ast.Node(decl) {
			return "" // a nested machine (checkNesting)
		}
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SendStmt, *ast.SelectStmt:
			found = true
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW
		case *ast.CallExpr:
			found = g.commKind(n) != 0 || g.hiddenComm(n, depth+1) != ""
		}
		return !found
	})
	if found {
		return fn.Name()
	}
	return ""
}

// checkSelect checks a select of the loop: a reception (one case receives
// from the inbox, the others are timeouts) or a send to a peer (one send
// case and an empty default). The timeouts' receives go to timeouts and
// their variables to g.timers.
func (g *loopGen) checkSelect(s *ast.SelectStmt, timeouts map[*ast.UnaryExpr]bool) error {
	var recvs, sends int
	for _, st := range s.Body.List {
		cc := st.(*ast.CommClause)
		switch c := cc.Comm.(type) {
		case *ast.SendStmt:
			sends++
		case *ast.AssignStmt:
			if u, ok := ast.Unparen(c.Rhs[0]).(*ast.UnaryExpr); ok && g.commKind(u) == annotations.Recv {
				recvs++
			}
		case *ast.ExprStmt:
			if u, ok := ast.Unparen(c.X).(*ast.UnaryExpr); ok && g.commKind(u) == annotations.Recv {
				recvs++
			}
		}
	}
	switch {
	case recvs == 1 && sends == 0:
		for _, st := range s.Body.List {
			cc := st.(*ast.CommClause)
			es, ok := cc.Comm.(*ast.ExprStmt)
			if !ok {
				continue
			}
			u, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
			if !ok || g.commKind(u) == annotations.Recv {
				continue
			}
			timeouts[u] = true
			if ctx := g.doneOf(u.X); ctx != nil {
				g.cancels[u] = ctx
				continue
			}
			var bad ast.Node
			ast.Inspect(u.X, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if v := g.localVar(id); v != nil {
						if v.Pos() < g.fn.Body.Pos() {
							bad = id // a parameter: the caller's, not a timer of the function
						}
						g.timers[v] = true
					}
				}
				if _, ok := n.(*ast.CallExpr); ok {
					bad = n
				}
				return bad == nil
			})
			if bad != nil {
				return refuse(u.Pos(), "not supported yet: a reception that ends on %s, which is not a timer of the function (make-HO reads the other cases of a reception as timeouts, which the heard-of sets model)",
					types.ExprString(u.X))
			}
		}
		return nil
	case recvs == 0 && sends == 1:
		for _, st := range s.Body.List {
			cc := st.(*ast.CommClause)
			if len(cc.Body) > 0 || cc.Comm != nil && !isSendStmt(cc.Comm) {
				return refuse(cc.Pos(), "not supported yet: a select around a send to a peer with another case or a case body (make-HO handles select { case ch <- m: default: }, a send that may be lost)")
			}
		}
		return nil
	case recvs == 0 && sends == 0:
		return refuse(s.Pos(), "not supported yet: a select that neither receives from the process's inbox nor sends to a peers table (make-HO reads messages from a channel field or parameter the loop receives from, or a //sync:inbox field; keep the channel in such a field rather than receiving from a call's result or another channel)")
	}
	return refuse(s.Pos(), "not supported yet: a select with %d receives from the inbox and %d sends (make-HO handles one reception with timeouts, or one send with an empty default)", recvs, sends)
}

// doneOf returns ctx if e is ctx.Done() for a context.Context ctx that is
// a parameter of the function or a field of its receiver.
func (g *loopGen) doneOf(e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Done" {
		return nil
	}
	if t := g.info.TypeOf(sel.X); t == nil || types.TypeString(t, nil) != "context.Context" {
		return nil
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.Ident:
		if v := g.localVar(x); v != nil && v.Pos() < g.fn.Body.Pos() {
			return x
		}
	case *ast.SelectorExpr:
		if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && g.recv != nil && g.info.Uses[id] == g.recv {
			return x
		}
	}
	return nil
}

func isSendStmt(s ast.Stmt) bool {
	_, ok := s.(*ast.SendStmt)
	return ok
}

// timerCall returns the local variable x of a call x.M(args) whose
// arguments call nothing, as a deferred timer.Stop(); nil otherwise.
func (g *loopGen) timerCall(call *ast.CallExpr) *types.Var {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || !callFree(call.Args...) {
		return nil
	}
	return g.localVar(id)
}

// callFree reports whether the expressions call no function (conversions
// included, for simplicity).
func callFree(es ...ast.Expr) bool {
	ok := true
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if _, isCall := n.(*ast.CallExpr); isCall {
				ok = false
			}
			if _, isLit := n.(*ast.FuncLit); isLit {
				ok = false
			}
			return ok
		})
	}
	return ok
}

// timerInit reports whether e creates a timer or a timeout channel: a call
// of a function of package time whose arguments call nothing.
func (g *loopGen) timerInit(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !callFree(call.Args...) {
		return false
	}
	fn, ok := calleeOf(g.info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Signature().Recv() == nil
}

// removeTimers removes the statements that create, reset or stop the
// timers of the receptions. A timer used otherwise is refused: its value
// could reach the algorithm's state.
func (g *loopGen) removeTimers() error {
	if len(g.timers) == 0 {
		return nil
	}
	var path []ast.Node
	var err error
	done := make(map[ast.Stmt]bool)
	ast.Inspect(g.fn.Body, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		if n == nil {
			path = path[:len(path)-1]
			return false
		}
		path = append(path, n)
		id, ok := n.(*ast.Ident)
		if !ok || g.isRemoved(id.Pos()) {
			return true
		}
		v := g.info.ObjectOf(id)
		if !g.timers[v] {
			return true
		}
		var stmt ast.Stmt
		for i := len(path) - 2; i >= 0; i-- {
			if s, ok := path[i].(ast.Stmt); ok {
				stmt = s
				break
			}
		}
		if done[stmt] {
			return true
		}
		if !g.timerStmt(stmt, v) {
			err = refuse(id.Pos(), "not supported yet: %s times out a reception but is used other than to create, reset or stop it (make-HO drops the timers of receptions)", id.Name)
			return false
		}
		done[stmt] = true
		g.removeStmt(stmt)
		return true
	})
	return err
}

// timerStmt reports whether s only creates, resets or stops the timer v.
func (g *loopGen) timerStmt(s ast.Stmt, v types.Object) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && g.info.ObjectOf(id) == v
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		return len(s.Lhs) == 1 && len(s.Rhs) == 1 && is(s.Lhs[0]) && (s.Tok == token.DEFINE || s.Tok == token.ASSIGN) && g.timerInit(s.Rhs[0])
	case *ast.DeclStmt:
		gd := s.Decl.(*ast.GenDecl)
		if gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return false
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		return len(vs.Names) == 1 && is(vs.Names[0]) && (len(vs.Values) == 0 || g.timerInit(vs.Values[0]))
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		return ok && (g.timerCall(call) == v || len(call.Args) == 1 && is(call.Args[0]) && g.timerHelper(call))
	case *ast.DeferStmt:
		return g.timerCall(s.Call) == v
	}
	return false
}

// cut replaces source by text and marks it deleted, so that its
// identifiers do not count.
func (g *loopGen) cut(start, end token.Pos, text string) {
	g.replace(start, end, text)
	g.removed = append(g.removed, span{start, end})
}

// chanSends translates the sends to peers in s.
func (g *loopGen) chanSends(s ast.Stmt) error {
	var err error
	ast.Inspect(s, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			// With its key, a range over the table sends to each entry
			// in turn (per-receiver messages): its sends are
			// translated one by one, below.
			if cf := g.peerTable(n); cf != nil && g.hasPeerSend(n) && rangeKey(n) == nil {
				err = g.broadcast(n, cf)
				return false
			}
			if cf := g.peerTable(n); cf != nil && g.hasPeerSend(n) {
				g.dropRangeValue(n)
			}
		case *ast.SelectStmt:
			if g.hasPeerSend(n) {
				send := n.Body.List[0].(*ast.CommClause).Comm
				for _, st := range n.Body.List {
					if c := st.(*ast.CommClause).Comm; c != nil {
						send = c
					}
				}
				err = g.peerSend(n, send.(*ast.SendStmt))
				return false
			}
		case *ast.SendStmt:
			err = g.peerSend(n, n)
			return false
		}
		return true
	})
	return err
}

func (g *loopGen) hasPeerSend(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if s, ok := m.(*ast.SendStmt); ok && g.commKind(s) == annotations.Send {
			found = true
		}
		return !found
	})
	return found
}

// allChans returns the annotated and the inferred channel fields.
func (g *loopGen) allChans() []*annotations.ChanField {
	var out []*annotations.ChanField
	for _, cf := range g.u.ann.Chans {
		out = append(out, cf)
	}
	for _, cf := range g.inferred {
		out = append(out, cf)
	}
	if g.self != nil {
		out = append(out, g.self.cf)
	}
	return out
}

// carried reports whether some inbox (a //sync:inbox channel of the
// package, or one inferred for the loop) carries values of the element type of the channel ch: a send on a peer
// table reaches an inbox only if one has its type.
func (g *loopGen) carried(ch ast.Expr) bool {
	c, ok := g.info.TypeOf(ch).Underlying().(*types.Chan)
	if !ok {
		return false
	}
	for _, cf := range g.allChans() {
		if cf.Role != annotations.Inbox {
			continue
		}
		for _, in := range cf.Chans {
			if types.Identical(in.Elem(), c.Elem()) {
				return true
			}
		}
	}
	return false
}

// message returns the message a send on a channel of cf sends: the value,
// or the Msg field of an envelope literal.
func (g *loopGen) message(v ast.Expr, cf *annotations.ChanField) (ast.Expr, error) {
	if cf.From == nil {
		return v, nil
	}
	lit, ok := ast.Unparen(v).(*ast.CompositeLit)
	if !ok {
		return nil, refuse(v.Pos(), "not supported yet: a send of an envelope that is not a composite literal %s{%s: ..., %s: ...}",
			types.TypeString(g.info.TypeOf(v), g.qualifier()), cf.From.Name(), cf.Msg.Name())
	}
	var msg ast.Expr
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, refuse(el.Pos(), "not supported yet: an envelope literal without field names")
		}
		switch k := kv.Key.(*ast.Ident); k.Name {
		case cf.Msg.Name():
			msg = kv.Value
		case cf.From.Name():
		default:
			return nil, refuse(kv.Pos(), "not supported yet: an envelope field other than %s and %s (the mailbox carries only the sender and the message)", cf.From.Name(), cf.Msg.Name())
		}
	}
	if msg == nil {
		return nil, refuse(lit.Pos(), "not supported yet: an envelope literal without its %s field", cf.Msg.Name())
	}
	return msg, nil
}

// peerSend translates stmt, the send s or a select around it, into
// c.Send to the index of the peer table.
func (g *loopGen) peerSend(stmt ast.Stmt, s *ast.SendStmt) error {
	to, cf := g.peerChan(s.Chan)
	if cf == nil {
		return g.notPeers(s.Arrow)
	}
	if to == nil {
		return refuse(s.Pos(), "not supported yet: a send to an entry of a peer table, in a range over it, that is not the range's only statement")
	}
	if !g.carried(s.Chan) {
		return refuse(s.Arrow, "not supported yet: a send on a channel of %s, which no inbox carries (make-HO delivers it to the receiver's inbox: a //sync:inbox field, or a channel of that type the loop receives from)", types.TypeString(g.info.TypeOf(s.Chan), g.qualifier()))
	}
	msg, err := g.message(s.Value, cf)
	if err != nil {
		return err
	}
	if to.Pos() < stmt.Pos() {
		// The key of a range over the table, outside the send: the
		// whole statement is rendered, its operands with their edits.
		c := g.cName
		g.edits = append(g.edits, edit{start: g.off(stmt.Pos()), end: g.off(stmt.End()), text: "send", lazy: func() string {
			return c + ".Send(compho.PID(" + g.nodeText(to) + "), " + g.nodeText(msg) + ")"
		}})
		g.removed = append(g.removed, span{stmt.Pos(), stmt.End()})
		return nil
	}
	g.cut(stmt.Pos(), to.Pos(), g.cName+".Send(compho.PID(")
	g.cut(to.End(), msg.Pos(), "), ")
	g.cut(msg.End(), stmt.End(), ")")
	return nil
}

// broadcast translates a range over a peer table whose only statement
// sends one message to the entry into c.Broadcast: the table holds the
// inbox of every process, by the directive.
func (g *loopGen) broadcast(rng *ast.RangeStmt, cf *annotations.ChanField) error {
	bad := refuse(rng.Pos(), "not supported yet: a range over the peer table %s other than one send of the same message to every entry (for _, ch := range peers { ch <- m }; with its key, for q, ch := range peers, the sends on ch go to q)", types.ExprString(rng.X))
	if k, ok := rng.Key.(*ast.Ident); rng.Key != nil && (!ok || k.Name != "_") || len(rng.Body.List) != 1 {
		return bad
	}
	var send *ast.SendStmt
	switch s := rng.Body.List[0].(type) {
	case *ast.SendStmt:
		send = s
	case *ast.SelectStmt:
		for _, st := range s.Body.List {
			if c, ok := st.(*ast.CommClause).Comm.(*ast.SendStmt); ok {
				send = c
			}
		}
	}
	if send == nil {
		return bad
	}
	if to, cf2 := g.peerChan(send.Chan); cf2 != cf || to != nil {
		return bad
	}
	if !g.carried(send.Chan) {
		return refuse(send.Arrow, "not supported yet: a send on a channel of %s, which no inbox carries (make-HO delivers it to the receiver's inbox: a //sync:inbox field, or a channel of that type the loop receives from)", types.TypeString(g.info.TypeOf(send.Chan), g.qualifier()))
	}
	q := g.info.Defs[rng.Value.(*ast.Ident)]
	msg, err := g.message(send.Value, cf)
	if err != nil {
		return err
	}
	uses := false
	ast.Inspect(msg, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && g.info.Uses[id] == q {
			uses = true
		}
		return true
	})
	if uses {
		return bad
	}
	g.cut(rng.Pos(), msg.Pos(), g.cName+".Broadcast(")
	g.cut(msg.End(), rng.End(), ")")
	return nil
}

// chanReception rewrites the reception loop around the receive u from the
// inbox, whose enclosing nodes are path (see the comment at the top).
func (g *loopGen) chanReception(u *ast.UnaryExpr, path []ast.Node) error {
	notLoop := refuse(u.Pos(), "not supported yet: a receive from the inbox that is not a reception loop (label: for COND { select { case m := <-inbox: ...; case <-timer: break label } }, or for COND { m := <-inbox; ... })")
	n := len(path)
	if done, err := g.plainReception(u, path, notLoop); done {
		return err
	}
	if n < 6 {
		return notLoop
	}
	as, ok1 := path[n-1].(*ast.AssignStmt)
	cc, ok2 := path[n-2].(*ast.CommClause)
	sel, ok3 := path[n-4].(*ast.SelectStmt)
	loop, ok4 := path[n-6].(*ast.ForStmt)
	if !ok1 || !ok2 || !ok3 || !ok4 || cc.Comm != as || len(as.Lhs) != 1 || len(as.Rhs) != 1 ||
		len(loop.Body.List) != 1 || loop.Body.List[0] != sel || loop.Init != nil || loop.Post != nil {
		return notLoop
	}
	var labeled *ast.LabeledStmt
	if n >= 7 {
		if l, ok := path[n-7].(*ast.LabeledStmt); ok && l.Stmt == loop {
			labeled = l
		}
	}
	g.afterCase = nil
	cancels, err := g.otherCases(sel, cc, labeled)
	if err != nil {
		return err
	}
	if ac := g.afterCase; ac != nil {
		if loop.Cond != nil && !g.pure(loop.Cond) {
			return refuse(ac.Pos(), "not supported yet: a timeout case that returns, in a reception loop whose condition calls a function (make-HO tests the condition again after the mailbox)")
		}
		// The case's body runs once the mailbox is read, if the loop's
		// condition still holds: the reception would have waited on
		// until the timeout.
		cond := loop.Cond
		g.edits = append(g.edits, edit{start: g.off(loop.End()), end: g.off(loop.End()), text: "after", lazy: func() string {
			g.keepRemoved = true
			defer func() { g.keepRemoved = false }()
			if cond == nil {
				return "\n" + g.text(ac.Body)
			}
			// As written: the mailbox loop's header edits the
			// condition into its negation, and a helper's variables
			// are not hoisted.
			return "\nif " + string(g.src[g.off(cond.Pos()):g.off(cond.End())]) + " {\n" + g.text(ac.Body) + "\n}"
		}})
	}
	pre, val, err := g.received(u)
	if err != nil {
		return err
	}
	g.mailboxHeader(loop)
	if len(cancels) > 0 {
		// A process whose context is done when the round's update
		// starts returns, as the asynchronous one may when the
		// cancellation is ready before its first receive.
		for i := range g.edits {
			if h := &g.edits[i]; h.start == g.off(loop.For) {
				head := h.text
				h.lazy = func() string {
					var b strings.Builder
					for _, cn := range cancels {
						fmt.Fprintf(&b, "if %s.Err() != nil {\n%s%s.halted = true\nreturn\n}\n", g.exprText(cn.ctx), g.resultsText(cn.ret), g.mName)
					}
					return b.String() + head
				}
			}
		}
	}
	g.cut(sel.Pos(), as.Pos(), pre)
	g.cut(u.Pos(), u.End(), val)
	g.cut(as.End(), cc.Colon+1, "")
	end := g.trailEnd(cc.End())
	g.edits = append(g.edits, edit{start: end, end: g.off(sel.End())})
	g.removed = append(g.removed, span{token.Pos(g.base + end), sel.End()})
	// An unlabeled break of the case left the select, that is, went on
	// with the next message.
	for _, s := range cc.Body {
		g.selectBreaks(s)
	}
	if labeled != nil {
		used := false
		ast.Inspect(loop, func(n ast.Node) bool {
			if b, ok := n.(*ast.BranchStmt); ok && b.Label != nil && b.Label.Name == labeled.Label.Name && !g.isRemoved(b.Pos()) {
				used = true
			}
			return true
		})
		if !used {
			g.cut(labeled.Pos(), loop.Pos(), "")
		}
	}
	return nil
}

// plainReception rewrites the reception loop around u if u is a plain
// receive, the first statement of its loop: for COND { m := <-inbox; BODY
// }. It waits for ever; the heard-of sets say which messages come. done
// reports whether u is such a receive (err then says whether the loop
// could be rewritten).
func (g *loopGen) plainReception(u *ast.UnaryExpr, path []ast.Node, notLoop error) (done bool, err error) {
	n := len(path)
	if n < 3 {
		return false, nil
	}
	as, ok1 := path[n-1].(*ast.AssignStmt)
	loop, ok2 := path[n-3].(*ast.ForStmt)
	if !ok1 || !ok2 || len(loop.Body.List) == 0 || loop.Body.List[0] != as {
		return false, nil
	}
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 || loop.Init != nil || loop.Post != nil {
		return true, notLoop
	}
	pre, val, err := g.received(u)
	if err != nil {
		return true, err
	}
	g.mailboxHeader(loop)
	g.insert(as.Pos(), pre)
	g.cut(u.Pos(), u.End(), val)
	return true, nil
}

// otherCases checks the cases of the reception select sel other than the
// inbox's cc: timeouts that leave the loop labeled, and cancellations
// that return, whose contexts it returns.
func (g *loopGen) otherCases(sel *ast.SelectStmt, cc *ast.CommClause, labeled *ast.LabeledStmt) ([]cancel, error) {
	var cancels []cancel
	for _, st := range sel.Body.List {
		c := st.(*ast.CommClause)
		if c == cc {
			continue
		}
		if c.Comm == nil {
			return nil, refuse(c.Pos(), "not supported yet: a default case in a reception select (the reception would not wait for its messages)")
		}
		es, ok := c.Comm.(*ast.ExprStmt)
		if !ok {
			return nil, refuse(c.Pos(), "not supported yet: a case of a reception select that receives into a variable from a channel other than the inbox")
		}
		if u2, ok := ast.Unparen(es.X).(*ast.UnaryExpr); ok && g.cancels[u2] != nil && !g.leaves(c, labeled) {
			// Stopping a timer before the return goes with the timer.
			body := c.Body
			for len(body) > 1 && g.stopsTimer(body[0]) {
				body = body[1:]
			}
			r, ok := lastOf(body).(*ast.ReturnStmt)
			if len(body) != 1 || !ok || len(r.Results) != 0 && len(r.Results) != len(g.resultFields()) {
				return nil, refuse(c.Pos(), "not supported yet: a cancellation case of a reception that does more than return (make-HO handles case <-ctx.Done(): return, with the function's results or none)")
			}
			cancels = append(cancels, cancel{g.cancels[u2], r})
			continue
		}
		if !g.leaves(c, labeled) {
			// In a helper, for { select { ...; case <-timer.C: return
			// r } }: the return ends the helper once the mailbox is
			// read, as the timeout does once the messages are in.
			if _, ok := lastOf(c.Body).(*ast.ReturnStmt); ok && g.inHelper != nil && g.afterCase == nil {
				g.afterCase = c
				continue
			}
			return nil, refuse(c.Pos(), "not supported yet: a timeout case of a reception that does more than leave the reception loop (make-HO handles case <-timer: break label, the label of the loop, and in a helper that receives, for { select { ... case <-timer: return ... } })")
		}
	}
	return cancels, nil
}

// A cancel is a case <-ctx.Done(): return of a reception.
type cancel struct {
	ctx ast.Expr
	ret *ast.ReturnStmt
}

// resultsText renders the assignment of the results of the return r to
// the machine's result fields, or nothing for a return without results
// (named results keep their values).
func (g *loopGen) resultsText(r *ast.ReturnStmt) string {
	if len(r.Results) == 0 {
		return ""
	}
	// The return is in a case the rewriting removed: its results are
	// rendered with the other edits (a local variable that became a
	// field of the machine), not as removed.
	g.keepRemoved = true
	defer func() { g.keepRemoved = false }()
	var lhs, rhs []string
	for i, n := range g.resultFields() {
		lhs = append(lhs, g.mName+"."+n)
		// Without the halt that returnStmt inserts right after the
		// last result.
		rhs = append(rhs, strings.TrimSuffix(g.nodeText(r.Results[i]), "\n"+g.mName+".halted = true\nreturn"))
	}
	return strings.Join(lhs, ", ") + " = " + strings.Join(rhs, ", ") + "\n"
}

// received returns the statements that read the message of the mailbox
// entry in place of the receive u from the inbox (a type assertion for a
// typed channel) and the expression of the value received: the message,
// or the envelope rebuilt from the entry.
func (g *loopGen) received(u *ast.UnaryExpr) (pre, val string, err error) {
	cf := g.inboxChan(u.X)
	elem := g.info.TypeOf(u.X).Underlying().(*types.Chan).Elem()
	qual := g.qualifier()
	env := g.envName
	assert := func(t types.Type) string {
		if it, ok := t.Underlying().(*types.Interface); ok && it.Empty() {
			return env + ".Msg"
		}
		name, okName := g.fresh("msg", "mg"), g.fresh("ok", "isMsg")
		pre = fmt.Sprintf("%s, %s := %s.Msg.(%s)\nif !%s {\ncontinue // a message of another type: not read from this channel\n}\n", name, okName, env, types.TypeString(t, qual), okName)
		return name
	}
	if cf.From != nil {
		st := elem.Underlying().(*types.Struct)
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); f != cf.From && f != cf.Msg {
				return "", "", refuse(u.Pos(), "not supported yet: the envelope %s has a field %s besides %s and %s, which the mailbox does not carry",
					types.TypeString(elem, qual), f.Name(), cf.From.Name(), cf.Msg.Name())
			}
		}
		m := assert(cf.Msg.Type())
		val = fmt.Sprintf("%s{%s: %s(%s.From), %s: %s}", types.TypeString(elem, qual), cf.From.Name(), types.TypeString(cf.From.Type(), qual), env, cf.Msg.Name(), m)
	} else {
		val = assert(elem)
	}
	return pre, val, nil
}

// leaves reports whether the only statement of the case c leaves the
// reception loop labeled (a timeout; a cancellation that only stops the
// reception is one too).
func (g *loopGen) leaves(c *ast.CommClause, labeled *ast.LabeledStmt) bool {
	b, ok := lastOf(c.Body).(*ast.BranchStmt)
	return len(c.Body) == 1 && ok && b.Tok == token.BREAK && b.Label != nil && labeled != nil && b.Label.Name == labeled.Label.Name
}

// exprText renders a parameter or a field of the receiver as the
// machine's methods name it.
func (g *loopGen) exprText(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		if v := g.localVar(id); v != nil {
			if name, ok := g.hoisted[v]; ok {
				return g.mName + "." + name
			}
		}
	}
	return types.ExprString(e)
}

// selectBreaks turns the unlabeled breaks of s that leave the select
// around it into continues.
func (g *loopGen) selectBreaks(s ast.Node) {
	switch s := s.(type) {
	case *ast.BranchStmt:
		if s.Tok == token.BREAK && s.Label == nil {
			g.replace(s.Pos(), s.End(), "continue")
		}
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncLit:
		return // its breaks are its own
	default:
		ast.Inspect(s, func(n ast.Node) bool {
			if n == s {
				return true
			}
			switch n.(type) {
			case *ast.BranchStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncLit:
				g.selectBreaks(n)
				return false
			}
			return true
		})
	}
}

// stopsTimer reports whether s creates, resets or stops one of the timers
// of the receptions.
func (g *loopGen) stopsTimer(s ast.Stmt) bool {
	for v := range g.timers {
		if g.timerStmt(s, v) {
			return true
		}
	}
	return false
}

// timerHelper reports whether call calls a function of the package that
// only stops, resets or drains the timer it is given (drain(t): if
// !t.Stop() { select { case <-t.C: default: } }): it goes with the timer.
func (g *loopGen) timerHelper(call *ast.CallExpr) bool {
	fn, _ := calleeOf(g.info, call).(*types.Func)
	if fn == nil || fn.Pkg() != g.u.pass.Pkg || fn.Signature().Recv() != nil || fn.Signature().Params().Len() != 1 || fn.Signature().Results().Len() != 0 {
		return false
	}
	var decl *ast.FuncDecl
	for _, f := range g.u.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && g.info.Defs[fd.Name] == fn {
				decl = fd
			}
		}
	}
	if decl == nil || decl.Body == nil || len(decl.Type.Params.List[0].Names) != 1 {
		return false
	}
	t := g.info.Defs[decl.Type.Params.List[0].Names[0]]
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case nil, *ast.BlockStmt, *ast.IfStmt, *ast.SelectStmt, *ast.CommClause, *ast.ExprStmt:
		case *ast.UnaryExpr:
			ok = ok && (n.Op == token.ARROW || n.Op == token.NOT)
		case *ast.CallExpr:
			sel, isSel := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			ok = ok && isSel && (sel.Sel.Name == "Stop" || sel.Sel.Name == "Reset") && callFree(n.Args...)
		case *ast.SelectorExpr:
			id, isID := ast.Unparen(n.X).(*ast.Ident)
			ok = ok && isID && g.info.Uses[id] == t
			return false
		case *ast.Ident:
			ok = ok && g.info.Uses[n] == t
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// pure reports whether e calls nothing but the builtins len and cap, so
// that evaluating it again gives the same value.
func (g *loopGen) pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.CallExpr:
			id, isID := ast.Unparen(n.Fun).(*ast.Ident)
			b, isBuiltin := g.info.Uses[id].(*types.Builtin)
			ok = ok && isID && isBuiltin && (b.Name() == "len" || b.Name() == "cap")
		}
		return ok
	})
	return ok
}

// dropRangeValue removes the value variable of a range over a peers table
// with a key (for q, ch := range peers becomes for q := range peers) when
// the sends on it, translated to sends to q, were its only uses.
func (g *loopGen) dropRangeValue(rng *ast.RangeStmt) {
	id, ok := rng.Value.(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	v := g.info.Defs[id]
	sendChans := make(map[*ast.Ident]bool)
	ast.Inspect(rng.Body, func(n ast.Node) bool {
		if s, ok := n.(*ast.SendStmt); ok {
			if c, ok := ast.Unparen(s.Chan).(*ast.Ident); ok {
				sendChans[c] = true
			}
		}
		return true
	})
	for use, o := range g.info.Uses {
		if o == v && !sendChans[use] {
			return
		}
	}
	g.cut(rng.Key.End(), rng.Value.End(), "")
}
