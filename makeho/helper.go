package makeho

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// Helpers that send or receive. Protocols often wrap their sends in a method of the
// process (p.broadcast(m), which stamps the sender and sends on every
// channel of the peers table, or sends through a transport). make-HO
// follows such a call: the method becomes a method of the machine, its
// sends translated as in the loop (c.Send, c.Broadcast), which the round's
// send function calls with the round's context:
//
//	func (p *Proc) broadcast(m Msg) {        func (mc *RunMachine) broadcast(c *compho.Ctx, p *Proc, m Msg) {
//		m.From = p.id                   →        m.From = p.id
//		p.net.Broadcast(m)                       c.Broadcast(m)
//	}                                        }
//
// and p.broadcast(m) in a round's send becomes mc.broadcast(c, p, m).
// A method that receives (p.collect(need), one reception loop on each
// path, no send) becomes a method that reads the round's mailbox, called
// from the round's update: mc.collect(c, mbox, p, need).
// The helper must be a method of the process, called on the loop's own
// pointer receiver, declared in the loop's file, without results; its
// body may send (directly, or through other such helpers), compute what
// it sends, return, and lock a mutex, but neither receive nor change the
// state of the process: it runs in a send function.

// A helper is a method of the process that sends, followed from a call in
// the loop.
type helper struct {
	kind  annotations.CommKind // Send, or Recv for a helper that receives
	decl  *ast.FuncDecl
	fn    *types.Func
	recv  *types.Var // its receiver: the process, in its body
	name  string     // the machine method
	cName string     // the name of the context parameter, free in its body
	mName string     // the name of the machine's receiver, free in its body
	// mboxName and envName name the mailbox parameter and the mailbox
	// entry of a helper that receives, free in its body.
	mboxName, envName string
}

// commHelper returns the helper that call calls, if call is a call of a
// method of the process, declared in the loop's file, whose body sends
// and never receives, or receives and never sends (see the comment at
// the top); nil otherwise.
func (g *loopGen) commHelper(call *ast.CallExpr) *helper {
	fn, _ := calleeOf(g.info, call).(*types.Func)
	if fn == nil || fn.Pkg() != g.u.pass.Pkg || g.comm(call) != nil {
		return nil
	}
	// Called on the process: a method of another object (the transport)
	// is not the process's helper.
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || !g.isProcess(id) && !(g.recv != nil && g.info.Uses[id] == g.recv) {
		return nil
	}
	if g.helpers == nil {
		g.helpers = make(map[*types.Func]*helper)
		g.procAliases = make(map[types.Object]bool)
	}
	if h, ok := g.helpers[fn]; ok {
		return h
	}
	g.helpers[fn] = nil // while its body is examined: recursion is not a helper
	var decl *ast.FuncDecl
	for _, d := range g.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && g.info.Defs[fd.Name] == fn {
			decl = fd
		}
	}
	if decl == nil || decl.Body == nil || decl.Recv == nil || len(decl.Recv.List[0].Names) == 0 {
		return nil
	}
	for _, l := range g.u.ann.Loops {
		if l.Func == ast.Node(decl) {
			return nil
		}
	}
	rv, _ := g.info.Defs[decl.Recv.List[0].Names[0]].(*types.Var)
	if rv == nil {
		return nil
	}
	// Its receiver is the process in its body, where it may call other
	// helpers on it.
	g.procAliases[rv] = true
	sends, recvs := false, false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			sends = true
		case *ast.UnaryExpr:
			recvs = recvs || n.Op == token.ARROW
		case *ast.CallExpr:
			if c := g.comm(n); c != nil {
				sends = sends || c.Kind == annotations.Send
				recvs = recvs || c.Kind == annotations.Recv
			} else if h := g.commHelper(n); h != nil {
				sends = sends || h.kind == annotations.Send
				recvs = recvs || h.kind == annotations.Recv
			}
		}
		return true
	})
	if sends == recvs {
		delete(g.procAliases, rv)
		return nil
	}
	kind := annotations.Send
	if recvs {
		kind = annotations.Recv
	}
	h := &helper{kind: kind, decl: decl, fn: fn, recv: rv}
	g.helpers[fn] = h
	return h
}

// helperCalls lists the helpers called from the loop body, and from their
// bodies, in the order first called.
func (g *loopGen) helperCalls() []*helper {
	var out []*helper
	seen := make(map[*helper]bool)
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok {
				if h := g.commHelper(call); h != nil && !seen[h] {
					seen[h] = true
					out = append(out, h)
					visit(h.decl.Body)
				}
			}
			return true
		})
	}
	visit(g.loop.Body)
	return out
}

// findHelpers finds the helpers of the loop before the channels are
// inferred, so that their receivers count as the process.
func (g *loopGen) findHelpers() error {
	g.usedHelpers = g.helperCalls()
	return nil
}

// checkHelpers checks the helpers' bodies: at most one send on a path,
// nothing that changes the state of the process, no result.
func (g *loopGen) checkHelpers() error {
	for _, h := range g.usedHelpers {
		where := fmt.Sprintf("%s (%s)", h.fn.Name(), lineOf(g.fset, h.decl.Pos()))
		if h.kind == annotations.Recv {
			if err := g.checkRecvHelper(h, where); err != nil {
				return err
			}
			continue
		}
		if h.decl.Type.Results != nil {
			return refuse(h.decl.Pos(), "not supported yet: the helper %s sends and has results (make-HO calls it from a send function, which returns nothing)", where)
		}
		for _, f := range h.decl.Type.Params.List {
			if _, ok := f.Type.(*ast.Ellipsis); ok {
				return refuse(h.decl.Pos(), "not supported yet: the helper %s that sends is variadic", where)
			}
		}
		if h.decl.Type.TypeParams != nil {
			return refuse(h.decl.Pos(), "not supported yet: the helper %s that sends is generic", where)
		}
		if pos := g.unsafeIn(h.decl.Body, h.decl, true); pos.IsValid() {
			return refuse(pos, "not supported yet: a statement that may change the state in %s, which sends (make-HO calls it from a round's send function, which must not change the state)", where)
		}
		if pos := g.maxPerPath(h.decl.Body.List, annotations.Send); pos.IsValid() {
			return refuse(pos, "more than one send on a path of %s, which a round calls to send (make-HO needs at most one send, possibly to many, per round)", where)
		}
	}
	return nil
}

// helperCall translates the call of a helper in a send, x.f(args), into
// mc.f(c, x, args). The receiver x must be the process: the loop's own
// pointer receiver, which the machine binds and never rewrites, or the
// receiver of the helper that calls it.
func (g *loopGen) helperCall(call *ast.CallExpr, h *helper) error {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || g.info.Selections[sel] == nil {
		return refuse(call.Pos(), "not supported yet: a call of %s, which sends, through a method value", h.fn.Name())
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || !g.isProcess(id) && !(g.recv != nil && g.recvPtr && g.info.Uses[id] == g.recv) {
		return refuse(call.Pos(), "not supported yet: a call of %s, which sends, on %s (make-HO follows the calls of helpers that send on the process)", h.fn.Name(), types.ExprString(sel.X))
	}
	sep := ""
	if len(call.Args) > 0 {
		sep = ", "
	}
	// The method's name is chosen once the machine's fields are known,
	// and the process may be a local variable that becomes a field of
	// the machine: rendered then, with its edits.
	m, c := g.mName, g.cName
	if h.kind == annotations.Recv {
		c += ", " + g.mboxName // a helper that receives reads the round's mailbox
	}
	// (The text is a placeholder: an edit with no text is a deletion.)
	g.edits = append(g.edits, edit{start: g.off(call.Pos()), end: g.off(call.Lparen + 1), text: "helper(", lazy: func() string {
		return m + "." + h.name + "(" + c + ", " + g.nodeText(sel.X) + sep
	}})
	return nil
}

// nameHelpers names the machine methods of the helpers, once the fields
// of the machine are known.
func (g *loopGen) nameHelpers() error {
	reserved := map[string]bool{"Init": true, "Rounds": true, "Halted": true, "Clone": true, "Key": true, "Returned": true, "startPhase": true, "endPhase": true, "endLoop": true}
	for _, r := range g.rounds {
		reserved["Send"+exported(r.c.Name())] = true
		reserved["Update"+exported(r.c.Name())] = true
	}
	for _, h := range g.usedHelpers {
		name := h.fn.Name()
		for i := 2; reserved[name] || g.fieldNames[name]; i++ {
			name = h.fn.Name() + fmt.Sprint(i)
		}
		reserved[name] = true
		h.name = name
	}
	return nil
}

// helperParams names the context and machine parameters of each helper,
// free in its body.
func (g *loopGen) helperParams() error {
	for _, h := range g.usedHelpers {
		used := make(map[string]bool)
		ast.Inspect(h.decl, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
		pick := func(cands ...string) string {
			for i := 0; ; i++ {
				for _, c := range cands {
					if i > 0 {
						c += fmt.Sprint(i + 1)
					}
					if !used[c] && g.u.pass.Pkg.Scope().Lookup(c) == nil {
						used[c] = true
						return c
					}
				}
			}
		}
		h.cName = pick(g.cName, "c", "hc", "cx")
		h.mName = pick(g.mName, "m", "mc", "hm")
		h.mboxName = pick(g.mboxName, "mbox", "mb", "mailbox")
		h.envName = pick(g.envName, "e", "env", "en")
	}
	return nil
}

// helperSends translates the sends in the helpers' bodies, with each
// helper's own names for the context and the machine.
func (g *loopGen) helperSends() error {
	c, m := g.cName, g.mName
	defer func() { g.cName, g.mName = c, m }()
	for _, h := range g.usedHelpers {
		if h.kind != annotations.Send {
			continue
		}
		g.cName, g.mName = h.cName, h.mName
		if err := g.sendsIn(h.decl.Body); err != nil {
			return err
		}
	}
	return nil
}

// helperReceptions rewrites the reception loop of each helper that
// receives into a loop over the mailbox it is given, with the helper's
// own names.
func (g *loopGen) helperReceptions() error {
	c, m, mb, e := g.cName, g.mName, g.mboxName, g.envName
	defer func() { g.cName, g.mName, g.mboxName, g.envName = c, m, mb, e }()
	for _, h := range g.usedHelpers {
		if h.kind != annotations.Recv {
			continue
		}
		g.cName, g.mName, g.mboxName, g.envName = h.cName, h.mName, h.mboxName, h.envName
		g.inHelper = h
		err := g.receptionsIn(h.decl.Body)
		g.inHelper = nil
		if err != nil {
			return err
		}
	}
	return nil
}

// checkRecvHelper checks a helper that receives: one reception loop on
// every path, no send.
func (g *loopGen) checkRecvHelper(h *helper, where string) error {
	if h.decl.Type.TypeParams != nil {
		return refuse(h.decl.Pos(), "not supported yet: the helper %s that receives is generic", where)
	}
	for _, f := range h.decl.Type.Params.List {
		if _, ok := f.Type.(*ast.Ellipsis); ok {
			return refuse(h.decl.Pos(), "not supported yet: the helper %s that receives is variadic", where)
		}
	}
	if pos := g.maxPerPath(h.decl.Body.List, annotations.Recv); pos.IsValid() {
		return refuse(pos, "more than one reception on a path of %s, which a round calls to receive (make-HO needs at most one reception loop per round)", where)
	}
	return nil
}

// helperText renders the machine methods of the helpers.
func (g *loopGen) helperText(qual types.Qualifier) string {
	var b strings.Builder
	for _, h := range g.usedHelpers {
		params := []string{h.cName + " *compho.Ctx", h.recv.Name() + " " + types.TypeString(h.recv.Type(), qual)}
		what := "whose sends go through " + h.cName + ": the send functions of the rounds call it"
		if h.kind == annotations.Recv {
			params = append(params[:1], append([]string{h.mboxName + " compho.Mailbox"}, params[1:]...)...)
			what = "whose reception reads " + h.mboxName + ": the update functions of the rounds call it"
		}
		for _, f := range h.decl.Type.Params.List {
			var names []string
			for _, id := range f.Names {
				names = append(names, id.Name)
			}
			if len(names) == 0 {
				names = []string{"_"}
			}
			params = append(params, strings.Join(names, ", ")+" "+types.TypeString(g.info.TypeOf(f.Type), qual))
		}
		results := ""
		if h.decl.Type.Results != nil {
			results = " " + g.nodeText(h.decl.Type.Results)
		}
		body := g.apply(g.off(h.decl.Body.Lbrace+1), g.off(h.decl.Body.Rbrace))
		fmt.Fprintf(&b, "// %s is %s (%s), %s.\nfunc (%s *%s) %s(%s)%s {%s}\n\n",
			h.name, annotations.FuncName(h.decl), lineOf(g.fset, h.decl.Pos()), what, h.mName, g.typeName, h.name, strings.Join(params, ", "), results, body)
	}
	return b.String()
}

// isMutexCall reports whether call locks or unlocks a sync.Mutex or
// sync.RWMutex.
func isMutexCall(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := calleeOf(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch fn.Name() {
	case "Lock", "Unlock", "RLock", "RUnlock":
		return true
	}
	return false
}
