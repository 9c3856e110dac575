package makeho

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// emit renders the machine.
func (g *loopGen) emit() ([]byte, error) {
	g.sortEdits()
	var b bytes.Buffer
	m, T := g.mName, g.typeName
	where := annotations.FuncName(g.fn) + " (" + lineOf(g.fset, g.loop.Pos()) + ")"
	qual := g.qualifier()

	// The type and its constructor.
	fmt.Fprintf(&b, "// %s is the round-based form of the %s loop of %s:\n// one phase of the machine is one iteration of the loop.\ntype %s struct {\n",
		T, g.loop.TagString(), where, T)
	fields := g.fields(qual)
	for _, f := range fields {
		fmt.Fprintf(&b, "%s %s\n", f.name, f.typ)
	}
	fmt.Fprintf(&b, "\nhalted bool // the loop has ended\n")
	if g.calls != nil {
		fmt.Fprintf(&b, "calling bool // the last round called the nested machine, which has not returned yet\n")
	}
	b.WriteString("}\n\n")
	var params, inits []string
	for _, f := range fields {
		if f.param {
			params = append(params, f.name+" "+f.typ)
			inits = append(inits, f.name+": "+f.name)
		}
	}
	fmt.Fprintf(&b, "// New%s returns the machine of a call of %s.\nfunc New%s(%s) *%s {\nreturn &%s{%s}\n}\n\n",
		exported(T), annotations.FuncName(g.fn), exported(T), strings.Join(params, ", "), T, T, strings.Join(inits, ", "))

	// Init, and the start and end of an iteration.
	var init strings.Builder
	if pre := strings.TrimRight(g.text(g.preLoop), " \t\n"); pre != "" {
		init.WriteString(pre + "\n")
	}
	if g.forStmt != nil && g.forStmt.Init != nil {
		init.WriteString(g.nodeText(g.forStmt.Init) + "\n")
	}
	if g.rangeStmt != nil {
		fmt.Fprintf(&init, "%s.%s = %s\n", m, g.itersField, g.nodeText(g.rangeStmt.X))
	}
	init.WriteString(m + ".startPhase()")
	g.method(&b, "Init runs the statements before the loop and starts its first iteration.", "Init("+g.cName+" *compho.Ctx)", init.String())

	var start strings.Builder
	switch {
	case g.forStmt != nil && g.forStmt.Cond != nil:
		fmt.Fprintf(&start, "if %s {\n%s\nreturn\n}\n", g.negate(g.forStmt.Cond), g.haltText())
	case g.rangeSlice:
		fmt.Fprintf(&start, "if %s.%s >= len(%s.%s) {\n%s\nreturn\n}\n", m, g.iterField, m, g.itersField, g.haltText())
		if id, ok := g.rangeStmt.Value.(*ast.Ident); ok && id.Name != "_" {
			fmt.Fprintf(&start, "%s.%s = %s.%s[%s.%s]\n", m, g.hoisted[g.info.Defs[id]], m, g.itersField, m, g.iterField)
		}
	case g.rangeStmt != nil:
		fmt.Fprintf(&start, "if %s.%s >= %s.%s {\n%s\nreturn\n}\n", m, g.iterField, m, g.itersField, g.haltText())
	}
	start.WriteString(g.text(g.prologue))
	start.WriteString(g.forkCond(g.rounds[0]))
	g.method(&b, "startPhase starts an iteration of the loop: it halts the machine if the\n// loop's condition is false, and runs the code before the first round's send\n// otherwise.", "startPhase()", start.String())

	var end strings.Builder
	if g.calls != nil {
		fmt.Fprintf(&end, "if %s.halted || %s.calling {\nreturn // Returned ends the iteration\n}\n", m, m)
	} else {
		fmt.Fprintf(&end, "if %s.halted {\nreturn\n}\n", m)
	}
	switch {
	case g.forStmt != nil && g.forStmt.Post != nil:
		end.WriteString(g.nodeText(g.forStmt.Post) + "\n")
	case g.rangeStmt != nil:
		fmt.Fprintf(&end, "%s.%s++\n", m, g.iterField)
	}
	end.WriteString(m + ".startPhase()")
	g.method(&b, "endPhase ends an iteration of the loop, unless the machine halted, and\n// starts the next one.", "endPhase()", end.String())
	if len(g.postLoop) > 0 {
		body := strings.TrimRight(g.text(g.postLoop), " \t\n")
		if _, ok := lastOf(g.postLoop).(*ast.ReturnStmt); !ok {
			body += "\n" + m + ".halted = true" // a return halts it already
		}
		g.method(&b, "endLoop runs the statements of the function after the loop, when the loop\n// ends, and halts the machine.", "endLoop()", body)
	}
	if g.calls != nil {
		g.method(&b, fmt.Sprintf("Returned ends the iteration whose last round called the nested machine of %s (%s),\n// when that machine returns (compho.Returner).", annotations.FuncName(g.calledFn), lineOf(g.fset, g.calls.Pos())),
			"Returned(_ *compho.Ctx, _ compho.Machine)", fmt.Sprintf("%s.calling = false\n%s.endPhase()", m, m))
	}

	// The rounds.
	rv := g.roundExpr()
	for i, r := range g.rounds {
		name := exported(r.c.Name())
		cname := r.c.Name()
		if r.c.Pkg() != g.u.pass.Pkg {
			cname = qual(r.c.Pkg()) + "." + r.c.Name()
		}
		guard := fmt.Sprintf("if %s != %s {\nreturn\n}\n", rv, cname)
		if g.single {
			guard = "" // the only round: no round variable to test
		}
		var parts []string
		for _, sp := range r.guards {
			if sp.text != "" {
				parts = append(parts, fmt.Sprintf("if %s.%s {\n%s\n}", m, sp.field, sp.text))
			}
		}
		if r.branch != nil {
			if t := g.branchText(r.branch, false); t != "" {
				parts = append(parts, t)
			}
		}
		if len(r.send) > 0 {
			parts = append(parts, g.text(r.send))
		}
		send := guard + strings.Join(parts, "\n")
		if len(parts) == 0 {
			send = "// Round " + r.c.Name() + " sends nothing."
		}
		g.method(&b, fmt.Sprintf("Send%s is the send function of round %s.", name, r.c.Name()),
			fmt.Sprintf("Send%s(%s *compho.Ctx)", name, g.cName), send)
		update := guard + g.text(g.updateOf(i))
		if r.branch != nil {
			update = guard + g.branchText(r.branch, true) + "\n" + g.text(g.updateOf(i))
		}
		if i+1 < len(g.rounds) {
			update += g.forkCond(g.rounds[i+1])
		}
		doc := fmt.Sprintf("Update%s is the update function of round %s.", name, r.c.Name())
		if i == len(g.rounds)-1 {
			update = fmt.Sprintf("defer %s.endPhase() // the iteration ends with this round, whatever path its update takes\n", m) + update
			doc += " It ends the iteration."
		}
		g.method(&b, doc, fmt.Sprintf("Update%s(%s *compho.Ctx, %s compho.Mailbox)", name, g.cName, g.mboxName), update)
	}

	// The round table and Halted.
	var table strings.Builder
	fmt.Fprintf(&table, "return []compho.Round{\n")
	for _, r := range g.rounds {
		name := exported(r.c.Name())
		fmt.Fprintf(&table, "{Name: %q, Source: %q, Send: %s.Send%s, Update: %s.Update%s},\n", r.c.Name(), g.roundSource(r), m, name, m, name)
	}
	table.WriteString("}")
	g.method(&b, "Rounds returns the round table: one phase.", "Rounds() []compho.Round", table.String())
	g.method(&b, "Halted reports whether the loop has ended.", "Halted() bool", "return "+m+".halted")
	if g.tagged {
		g.emitTag(&b)
	}
	b.WriteString(g.helperText(qual))
	g.emitClone(&b, fields)
	g.emitKey(&b, fields)
	return b.Bytes(), nil
}

// roundSource is where round r starts in the source, as file:line: the
// statement that enters it, else its send, else the loop.
func (g *loopGen) roundSource(r *round) string {
	switch {
	case r.sw != nil:
		return lineOf(g.fset, r.sw.Pos())
	case len(r.send) > 0:
		return lineOf(g.fset, r.send[0].Pos())
	}
	return lineOf(g.fset, g.loop.Pos())
}

type field struct {
	name, typ string
	param     bool
	t         types.Type // nil for the synthesized bool fields
}

// fields lists the machine's fields: the receiver and the parameters
// first, then the other hoisted variables in source order, then the
// results and the loop counter.
func (g *loopGen) fields(qual types.Qualifier) []field {
	var vars []types.Object
	for v := range g.hoisted {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].Pos() < vars[j].Pos() })
	var out []field
	isParam := func(v types.Object) bool {
		return v.Pos() < g.fn.Type.End() && v.Pos() >= g.fn.Pos() && !g.isResult(v)
	}
	for _, v := range vars {
		if isParam(v) {
			out = append(out, field{g.hoisted[v], types.TypeString(v.Type(), qual), true, v.Type()})
		}
	}
	for _, v := range vars {
		if !isParam(v) && !g.isResult(v) {
			out = append(out, field{g.hoisted[v], types.TypeString(v.Type(), qual), false, v.Type()})
		}
	}
	if res := g.fn.Type.Results; res != nil {
		names := g.resultFields()
		i := 0
		for _, f := range res.List {
			n := max(len(f.Names), 1)
			for range n {
				out = append(out, field{names[i], types.TypeString(g.info.TypeOf(f.Type), qual) + " // result of the function", false, g.info.TypeOf(f.Type)})
				i++
			}
		}
	}
	for _, r := range g.rounds {
		if f := r.fork; f != nil {
			out = append(out, field{f.field, "bool // " + g.nodeText(f.s.Cond) + " at " + lineOf(g.fset, f.s.Pos()) + ": the path of the if/else that enters " + f.c.Name(), false, nil})
		} else if b := r.branch; b != nil && b.f.c == nil {
			out = append(out, field{b.f.field, "bool // " + g.nodeText(b.f.s.Cond) + " at " + lineOf(g.fset, b.f.s.Pos()) + ": the path of the if/else of round " + r.c.Name(), false, nil})
		}
	}
	for _, sp := range g.splits {
		out = append(out, field{sp.field, "bool // " + sp.cond + " at " + lineOf(g.fset, sp.s.Pos()) + ": the path that enters " + sp.c.Name() + " in the if", false, nil})
	}
	if g.rangeStmt != nil {
		xt := g.info.TypeOf(g.rangeStmt.X)
		it := xt
		if g.rangeSlice {
			it = types.Typ[types.Int]
		}
		if id, ok := g.rangeStmt.Key.(*ast.Ident); !ok || id.Name == "_" {
			out = append(out, field{g.iterField, types.TypeString(it, qual) + " // iterations done", false, it})
		}
		what := " // iterations to do"
		if g.rangeSlice {
			what = " // the values ranged over"
		}
		out = append(out, field{g.itersField, types.TypeString(xt, qual) + what, false, xt})
	}
	return out
}

// method writes one method of the machine, binding the loop's receiver to
// its usual name when the body uses it.
func (g *loopGen) method(b *bytes.Buffer, doc, sig, body string) {
	body = strings.TrimRight(body, " \t\n")
	if g.recv != nil && g.recvPtr && usesName(body, g.recv.Name()) {
		body = fmt.Sprintf("%s := %s.%s\n", g.recv.Name(), g.mName, g.hoisted[g.recv]) + body
	}
	fmt.Fprintf(b, "// %s\nfunc (%s *%s) %s {\n%s\n}\n\n", doc, g.mName, g.typeName, sig, body)
}

// usesName reports whether the statements of body refer to name.
func usesName(body, name string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+body+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return true // let format report it
	}
	found := false
	ast.Inspect(f.Decls[0], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// roundExpr renders the round variable in the machine's methods.
func (g *loopGen) roundExpr() string { return g.varExpr(g.round) }

// negate renders the negation of cond, edited.
func (g *loopGen) negate(cond ast.Expr) string {
	inverse := map[token.Token]string{
		token.LSS: ">=", token.GEQ: "<", token.GTR: "<=", token.LEQ: ">", token.EQL: "!=", token.NEQ: "==",
	}
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return g.nodeText(c.X)
		}
	case *ast.BinaryExpr:
		if inv, ok := inverse[c.Op]; ok {
			return g.nodeText(c.X) + " " + inv + " " + g.nodeText(c.Y)
		}
	}
	return "!(" + g.nodeText(cond) + ")"
}

// sortEdits sorts the edits for apply: by start, the widest first.
func (g *loopGen) sortEdits() {
	sort.SliceStable(g.edits, func(i, j int) bool {
		a, b := g.edits[i], g.edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		return a.end > b.end
	})
}

// text renders consecutive statements with their comments, edited.
func (g *loopGen) text(stmts []ast.Stmt) string {
	if len(stmts) == 0 {
		return ""
	}
	return g.apply(g.leadStart(stmts[0].Pos()), g.trailEnd(stmts[len(stmts)-1].End()))
}

// nodeText renders one node, edited.
func (g *loopGen) nodeText(n ast.Node) string {
	return g.apply(g.off(n.Pos()), g.off(n.End()))
}

// apply renders the source between offsets start and end with the edits
// inside it; an edit inside a replaced range is dropped.
func (g *loopGen) apply(start, end int) string {
	var b strings.Builder
	cur := start
	for _, e := range g.edits {
		if e.text == "" && !e.tail && e.start < end && e.end > start && !g.keepRemoved {
			// A deletion that reaches over the rendered range (a
			// statement removed with its line, first or last of the
			// range) deletes what is inside.
			e.start, e.end = max(e.start, start), min(e.end, end)
		}
		if e.start < cur || e.end > end || e.start < start || e.tail && start >= e.start {
			continue
		}
		b.Write(g.src[cur:e.start])
		if e.lazy != nil {
			e.text = e.lazy()
		}
		b.WriteString(e.text)
		cur = e.end
	}
	b.Write(g.src[cur:end])
	return b.String()
}

// leadStart extends the start of a statement at p over the comment lines
// right above it.
func (g *loopGen) leadStart(p token.Pos) int {
	o := g.off(p)
	for {
		moved := false
		for _, cg := range g.file.Comments {
			s, e := g.off(cg.Pos()), g.off(cg.End())
			if e <= o && s < o && blank(g.src[e:o]) && blank(g.src[lineStart(g.src, s):s]) {
				o = s
				moved = true
				break
			}
		}
		if !moved {
			return o
		}
	}
}

// trailEnd extends the end of a statement at p over a comment on the same
// line.
func (g *loopGen) trailEnd(p token.Pos) int {
	o := g.off(p)
	for _, cg := range g.file.Comments {
		s, e := g.off(cg.Pos()), g.off(cg.End())
		if s >= o && !bytes.ContainsRune(g.src[o:s], '\n') && blank(g.src[o:s]) {
			return e
		}
	}
	return o
}

func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

func lineStart(src []byte, o int) int {
	return bytes.LastIndexByte(src[:o], '\n') + 1
}
