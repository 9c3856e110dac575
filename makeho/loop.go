package makeho

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// A loopGen rewrites one tagged loop into a machine.
type loopGen struct {
	u     *unit
	loop  *annotations.Loop
	fn    *ast.FuncDecl
	file  *ast.File
	taken map[string]bool // machine type names already used in the package

	info *types.Info
	fset *token.FileSet
	src  []byte
	base int // offset of the file in fset

	phase, round *annotations.SyncVar
	// phases are the variables of the tag that make the phase, in order
	// (one, or more for tags such as height,round,step); phase is the
	// last of them.
	phases []*annotations.SyncVar
	single bool // a tag of one variable: one round per phase, with no round variable
	// lateIncrease: the phase is increased after the first round's send
	// (at the end of the body, or on every path through it), so a
	// continue would skip it.
	lateIncrease bool
	// tagged: the loop jumps to a later phase (jump.go), so its machine
	// is a compho.Tagger; jumpAt is the first jump.
	tagged     bool
	jumpAt     token.Pos
	outer      *annotations.Loop // the loop that calls this one, if it is a nested machine
	calls      *ast.CallExpr     // the call of a nested machine's loop in this loop's body, if any
	calledCtor string            // the constructor of the machine it calls
	calledFn   *ast.FuncDecl     // the function of the loop it calls
	calledAt   string            // the position of that loop
	forStmt    *ast.ForStmt      // the loop, if a for statement
	rangeStmt  *ast.RangeStmt    // the loop, if a range over an integer
	label      string            // the loop's label, if any

	preLoop  []ast.Stmt // statements of the function before the loop
	postLoop []ast.Stmt // statements of the function after the loop: endLoop
	prologue []ast.Stmt // the body's statements before the first round's send
	rounds   []*round

	early     []ast.Stmt            // switches nested in a statement, entering the next round early (checkEarly)
	rotated   ast.Stmt              // the last statement of the body, if it enters the first round on every path (the next iteration's)
	splits    []*splitIf            // the ifs that enter a round on one path
	forks     map[ast.Stmt]*fork    // the if/else statements that enter a round on both paths
	forkAfter map[ast.Stmt]bool     // the statements of their paths after the switches
	tails     map[ast.Stmt]*splitIf // the statements after the switch of a split if
	inTail    bool                  // findComm and maxPerPath look into tails
	edits     []edit
	recvCalls []*ast.CallExpr // the receive calls, rewritten
	removed   []span          // deleted code: its identifiers do not count
	// keepRemoved: apply renders a range inside deleted code with its
	// edits, instead of as deleted.
	keepRemoved bool

	// Channels (version 2 of the language: //sync:peers, //sync:inbox).
	inferred  map[*types.Var]*annotations.ChanField // peers tables and inboxes inferred for the loop (infer.go)
	self      *selfInbox                            // an inbox inferred as the entry of a table at the process's identity
	peerVars  map[types.Object]*ast.RangeStmt       // the value variables of ranges over a peer table
	timers    map[types.Object]bool                 // the variables that only time out receptions
	cancels   map[*ast.UnaryExpr]ast.Expr           // <-ctx.Done() cases of receptions, to their context
	preDefers []*ast.DeferStmt                      // the deferred timer stops before the loop
	usedNames map[string]bool                       // names taken in the function, for fresh ones

	// Names chosen for the generated code, free in the function.
	mName, cName, mboxName, envName string
	typeName                        string
	recv                            *types.Var // the receiver, if any
	recvPtr                         bool       // the receiver is a pointer: bound, not rewritten
	hoisted                         map[types.Object]string
	fieldNames                      map[string]bool
	iterField, itersField           string // counter and bound of a range over an integer
	rangeSlice                      bool   // the loop ranges over a slice or an array: itersField holds it

	imps map[string]string // import path -> name used in the generated code

	// Helpers that send (helper.go).
	helpers     map[*types.Func]*helper // the methods examined, nil if not helpers
	procAliases map[types.Object]bool   // the receivers of the helpers: the process in their bodies
	usedHelpers []*helper               // the helpers the loop calls, directly or through others
	inHelper    *helper                 // the helper whose receptions are being rewritten, if any
	afterCase   *ast.CommClause         // the timeout case of a helper's reception that returns, run after the mailbox (chanReception)
}

// A round is the code of one round constant.
type round struct {
	c      *types.Const
	sw     ast.Stmt   // the statement that enters the round
	pre    []ast.Stmt // from sw to the send: they end the previous round's update
	send   []ast.Stmt
	update []ast.Stmt
	guards []*splitIf // sends of the round made inside an if of the previous round
	fork   *fork      // the if/else whose paths enter the round, if so
	branch *branch    // the round's share of a fork, if any
}

// A splitIf is a top-level if statement of the loop body whose body enters
// the next round (the leader-only rounds of Zab: if p.leader == p.id {
// receive; ...; lab = NewE; send NewE }), followed at the top level by the
// switch to that same round for the other paths. Its condition is kept in
// a field of the machine, evaluated where the if is, so that the send
// function of the next round sends on the paths that took the if, as the
// path-guarded sends of the paper's make-HO.
type splitIf struct {
	s     *ast.IfStmt
	sw    ast.Stmt // the switch in its body
	c     *types.Const
	tail  []ast.Stmt // the statements after sw: the guarded sends
	round *round     // the round sw enters
	field string     // the machine field that holds the condition
	cond  string     // the condition, rendered
	text  string     // the tail, rendered
}

type edit struct {
	start, end int // offsets in the file
	text       string
	lazy       func() string // if not nil, the text, known only once the variables are hoisted
	tail       bool          // the removal of a split if's tail: not applied when rendering exactly that range
}

type span struct{ start, end token.Pos }

// run checks the loop and renders its machine.
func (g *loopGen) run() ([]byte, map[string]string, error) {
	g.info = g.u.pass.TypesInfo
	g.fset = g.u.pass.Fset
	tf := g.fset.File(g.loop.Pos())
	g.base = tf.Base()
	src, err := fileContent(g.fset, g.file)
	if err != nil {
		return nil, nil, err
	}
	g.src = src
	g.imps = make(map[string]string)
	// The statements copied may use any import of the file; assemble
	// keeps those the generated code refers to.
	for _, im := range g.file.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := ""
		if im.Name != nil {
			name = im.Name.Name
		} else if p := importedPkg(g.u.pass.Pkg, path); p != nil {
			name = p.Name()
		}
		if name != "" && name != "_" && name != "." {
			g.imps[path] = name
		}
	}
	steps := []func() error{
		g.checkTag,
		g.findHelpers,
		g.inferChans,
		g.checkNesting,
		g.locate,
		g.chooseNames,
		g.helperParams,
		g.callEdits,
		g.checkChannels,
		g.split,
		g.checkPhase,
		g.findJumps,
		g.checkHelpers,
		g.branches,
		g.sends,
		g.receptions,
		g.checkHiddenComm,
		g.hoist,
		g.nameHelpers,
		func() error { g.splitEdits(); return nil },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, nil, err
		}
	}
	code, err := g.emit()
	return code, g.imps, err
}

// importedPkg returns the package with the given path that pkg imports.
func importedPkg(pkg *types.Package, path string) *types.Package {
	for _, p := range pkg.Imports() {
		if p.Path() == path {
			return p
		}
	}
	return nil
}

// checkTag checks that the loop has a phase and a round, and that the
// round takes values in an enum (the paper's bounded domain).
func (g *loopGen) checkTag() error {
	own := g.loop.Vars
	if g.loop.Parent != nil {
		return refuse(g.loop.Pos(), "not supported yet: a tagged loop nested in the tagged loop at %s (nested machines)", lineOf(g.fset, g.loop.Parent.Pos()))
	}
	switch {
	case len(own) == 1:
		// A tag of one variable is a phase of one round (OneThirdRule
		// written with the round as its only variable): the round is
		// implicit, a variable the code never names.
		g.phases, g.phase, g.single = own, own[0], true
		name := own[0].Name[strings.LastIndex(own[0].Name, ".")+1:]
		c := types.NewConst(token.NoPos, g.u.pass.Pkg, name, types.Typ[types.Int], constant.MakeInt64(0))
		g.round = &annotations.SyncVar{Name: "(the implicit round)", Root: types.NewVar(token.NoPos, g.u.pass.Pkg, "", types.Typ[types.Int]), Type: types.Typ[types.Int],
			Enum: &annotations.Enum{Consts: []*types.Const{c}}}
		return nil
	case len(own) > 2:
		// A loop whose tag extends the tag of a loop that calls it by
		// two variables is a nested machine: its phase and round are
		// the last two; the outer ones do not change while it runs.
		for _, l := range g.u.ann.Loops {
			if l != g.loop && extends(own, l.Vars) && len(own) == len(l.Vars)+2 {
				g.outer = l
			}
		}
		if g.outer != nil {
			own = own[len(own)-2:]
		}
	}
	// The leading variables together are the phase, ordered
	// lexicographically (height,round,step: the phase is the pair
	// height,round); the last one is the round.
	g.phases, g.round = own[:len(own)-1], own[len(own)-1]
	g.phase = g.phases[len(g.phases)-1]
	if g.round.Enum == nil {
		return refuse(g.round.Pos, "round variable %s has an unbounded domain: its type %s has no constants (make-HO needs the rounds as a Go enum)",
			g.round.Name, types.TypeString(g.round.Type, types.RelativeTo(g.u.pass.Pkg)))
	}
	return nil
}

// checkNesting refuses tagged loops nested in this one, directly or
// through a call of a function of the package that has a tagged loop.
func (g *loopGen) checkNesting() error {
	for _, l := range g.u.ann.Loops {
		if l.Parent == g.loop {
			return refuse(l.Pos(), "not supported yet: nested tagged loop (nested machines through c.Call)")
		}
	}
	inner := make(map[types.Object]*annotations.Loop)
	for _, l := range g.u.ann.Loops {
		if fd, ok := l.Func.(*ast.FuncDecl); ok && l.Parent == nil {
			if obj := g.info.Defs[fd.Name]; obj != nil {
				inner[obj] = l
			}
		}
	}
	var err error
	ast.Inspect(g.loop.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || err != nil {
			return err == nil
		}
		l := inner[calleeOf(g.info, call)]
		if l == nil || l == g.loop {
			return true
		}
		if !extends(l.Vars, g.loop.Vars) {
			err = refuse(call.Pos(), "nested loop without the outer tags: the loop at %s, called here, is tagged %s, which does not start with this loop's tag %s",
				lineOf(g.fset, l.Pos()), l.TagString(), g.loop.TagString())
		} else {
			err = g.nestedCall(call, l)
		}
		return false
	})
	return err
}

func extends(inner, outer []*annotations.SyncVar) bool {
	if len(inner) <= len(outer) {
		return false
	}
	for i, v := range outer {
		if !sameVar(v, inner[i]) {
			return false
		}
	}
	return true
}

// sameVar reports whether v and w denote the same variable, across
// functions: the receivers of two methods of a type are the same process.
func sameVar(v, w *annotations.SyncVar) bool {
	if v.Same(w) {
		return true
	}
	if v.Root.Name() != w.Root.Name() || !types.Identical(v.Root.Type(), w.Root.Type()) || len(v.Fields) != len(w.Fields) {
		return false
	}
	for i := range v.Fields {
		if v.Fields[i] != w.Fields[i] {
			return false
		}
	}
	return true
}

// calleeOf returns the function or method a call statically calls.
func calleeOf(info *types.Info, call *ast.CallExpr) types.Object {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return info.Uses[f]
	case *ast.SelectorExpr:
		return info.Uses[f.Sel]
	case *ast.IndexExpr:
		if id, ok := f.X.(*ast.Ident); ok {
			return info.Uses[id]
		}
	}
	return nil
}

// locate finds the loop among the function's statements and checks its
// header.
func (g *loopGen) locate() error {
	idx := -1
	for i, s := range g.fn.Body.List {
		t := s
		if l, ok := s.(*ast.LabeledStmt); ok {
			t = l.Stmt
			if t == g.loop.Stmt {
				g.label = l.Label.Name
			}
		}
		if t == g.loop.Stmt {
			idx = i
		}
	}
	if idx < 0 {
		return refuse(g.loop.Pos(), "not supported yet: a tagged loop nested in another statement (make-HO needs it at the top level of its function's body)")
	}
	if g.outer != nil && idx != len(g.fn.Body.List)-1 {
		return refuse(g.fn.Body.List[idx+1].Pos(), "not supported yet: a statement after the nested tagged loop at %s (make-HO needs the nested loop to end its function)", lineOf(g.fset, g.loop.Pos()))
	}
	g.preLoop = g.fn.Body.List[:idx]
	for _, s := range g.preLoop {
		if err := g.checkPreLoop(s); err != nil {
			return err
		}
	}
	g.postLoop = g.fn.Body.List[idx+1:]
	for _, s := range g.postLoop {
		if err := g.checkPostLoop(s); err != nil {
			return err
		}
	}
	switch s := g.loop.Stmt.(type) {
	case *ast.ForStmt:
		g.forStmt = s
	case *ast.RangeStmt:
		switch t := g.info.TypeOf(s.X).Underlying().(type) {
		case *types.Basic:
			if t.Info()&types.IsInteger == 0 {
				return refuse(s.Pos(), "not supported yet: a tagged range loop over %s (make-HO handles for loops, and ranges over integers, slices and arrays)", types.ExprString(s.X))
			}
			if s.Value != nil {
				return refuse(s.Value.Pos(), "not supported yet: a range over an integer with two variables")
			}
		case *types.Slice, *types.Array:
			// One iteration per element: the machine keeps the
			// slice, evaluated once as the range does, and the
			// index; the value variable is a field set when an
			// iteration starts.
			g.rangeSlice = true
			if s.Tok == token.ASSIGN {
				return refuse(s.Pos(), "not supported yet: a tagged range loop over %s that assigns existing variables (make-HO needs := or no variables)", types.ExprString(s.X))
			}
		default:
			return refuse(s.Pos(), "not supported yet: a tagged range loop over %s (make-HO handles for loops, and ranges over integers, slices and arrays)", types.ExprString(s.X))
		}
		g.rangeStmt = s
	}
	return nil
}

// checkPreLoop checks a statement before the loop, which Init runs.
func (g *loopGen) checkPreLoop(s ast.Stmt) error {
	var err error
	ast.Inspect(s, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			// A deferred stop of a timer that only times out receptions
			// goes with the timer (see timers); any other defer would
			// have to run when the loop ends, which Init cannot do.
			if g.timerCall(n.Call) == nil {
				err = refuse(n.Pos(), "not supported yet: defer before the tagged loop (Init cannot run it when the loop ends: call it after the loop instead)")
			} else {
				g.preDefers = append(g.preDefers, n)
			}
			return false
		case *ast.GoStmt:
			err = refuse(n.Pos(), "not supported yet: go statement before the tagged loop (the machine has no goroutines: start it outside the function)")
		case *ast.ReturnStmt, *ast.BranchStmt, *ast.LabeledStmt:
			err = refuse(n.Pos(), "not supported yet: control flow that leaves the function before the tagged loop")
		default:
			if k := g.commKind(n); k != 0 {
				err = refuse(n.Pos(), "not supported yet: a %s before the tagged loop (the machine has no round for it: move it into the loop's first round)", k)
			}
		}
		return true
	})
	return err
}

// checkPostLoop checks a statement after the loop, which the machine runs
// when the loop ends (endLoop): it may compute and return, not
// communicate.
func (g *loopGen) checkPostLoop(s ast.Stmt) error {
	var err error
	ast.Inspect(s, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt, *ast.GoStmt, *ast.LabeledStmt:
			err = refuse(n.Pos(), "not supported yet: a defer, go or labeled statement after the tagged loop (the machine runs the statements after the loop when it ends)")
		case *ast.CallExpr:
			if k := g.commKind(n); k != 0 {
				err = refuse(n.Pos(), "not supported yet: a %s after the tagged loop (the machine has no round left for it)", k)
			} else if name := g.hiddenComm(n, 0); name != "" {
				err = refuse(n.Pos(), "not supported yet: a call of %s, which sends or receives, after the tagged loop (the machine has no round left for it)", name)
			}
		case *ast.SendStmt, *ast.SelectStmt:
			err = refuse(n.Pos(), "not supported yet: a channel operation after the tagged loop (the machine has no round left for it)")
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				err = refuse(n.Pos(), "not supported yet: a channel operation after the tagged loop (the machine has no round left for it)")
			}
		}
		return true
	})
	return err
}

// haltText renders what ends the loop in the machine: halting, after
// the statements that follow the loop (endLoop) if there are any.
func (g *loopGen) haltText() string {
	if len(g.postLoop) > 0 {
		return g.mName + ".endLoop()"
	}
	return g.mName + ".halted = true"
}

// comm returns the //sync:send or //sync:recv annotation of the function
// a call calls, if any.
func (g *loopGen) comm(call *ast.CallExpr) *annotations.Comm {
	fn, _ := calleeOf(g.info, call).(*types.Func)
	return g.u.ann.CommOf(fn)
}

// isVar reports whether e denotes the synchronization variable v.
func (g *loopGen) isVar(e ast.Expr, v *annotations.SyncVar) bool {
	e = ast.Unparen(e)
	var fields []*types.Var
	for {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			break
		}
		s := g.info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return false
		}
		// The selection's implicit embedded fields come first.
		st := s.Recv()
		var path []*types.Var
		for _, i := range s.Index() {
			if p, ok := st.Underlying().(*types.Pointer); ok {
				st = p.Elem()
			}
			f := st.Underlying().(*types.Struct).Field(i)
			path = append(path, f)
			st = f.Type()
		}
		fields = append(path, fields...)
		e = ast.Unparen(sel.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok || g.info.Uses[id] != v.Root || len(fields) != len(v.Fields) {
		return false
	}
	for i := range fields {
		if fields[i] != v.Fields[i] {
			return false
		}
	}
	return true
}

// roundConst returns the round constant a statement enters, if it is an
// assignment of a constant to the round variable.
func (g *loopGen) roundConst(s ast.Stmt) *types.Const {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || !g.isVar(as.Lhs[0], g.round) {
		return nil
	}
	v := g.info.Types[as.Rhs[0]].Value
	if v == nil {
		return nil
	}
	for _, c := range g.round.Enum.Consts {
		if constant.Compare(c.Val(), token.EQL, v) {
			return c
		}
	}
	return nil
}

// split cuts the body at the statements that enter a round, and each
// round into the code before its send, its send and its update.
func (g *loopGen) split() error {
	body := g.loop.Body.List
	top := make(map[ast.Stmt]bool)
	for _, s := range body {
		top[s] = true
	}
	if err := g.findSplits(body); err != nil {
		return err
	}
	for _, sp := range g.splits {
		top[sp.sw] = true
	}
	g.findForks(body)
	for _, f := range g.forks {
		top[f.sw[0]], top[f.sw[1]] = true, true
	}
	if err := g.findRotation(body, top); err != nil {
		return err
	}
	if err := g.checkRoundWrites(top); err != nil {
		return err
	}
	if err := g.earlyComm(body); err != nil {
		return err
	}
	var cur *round
	var before []ast.Stmt
	if g.rotated != nil || g.single {
		// The first round is entered at the end of the previous
		// iteration, and before the loop (or is the only one, of a
		// tag of one variable): its code starts the body.
		cur = &round{c: g.round.Enum.Consts[0]}
		g.rounds = append(g.rounds, cur)
	}
	for _, s := range body {
		if s == g.rotated {
			cur.update = append(cur.update, s) // the end of the last round's update
			continue
		}
		if c := g.roundConst(s); c != nil {
			if cur != nil && constant.Compare(c.Val(), token.LEQ, cur.c.Val()) {
				return refuse(s.Pos(), "more than one phase in one iteration: %s goes back from %s to %s (make-HO needs each iteration of the loop to be one phase)",
					g.round.Name, cur.c.Name(), c.Name())
			}
			cur = &round{c: c, sw: s}
			g.rounds = append(g.rounds, cur)
			for _, sp := range g.splits {
				if sp.c == c && len(g.rounds) > 1 && sp.s == lastOf(g.rounds[len(g.rounds)-2].update) {
					sp.round = cur
					cur.guards = append(cur.guards, sp)
				}
			}
		}
		if cur == nil {
			before = append(before, s)
		} else {
			cur.update = append(cur.update, s) // split below
		}
		if f := g.forks[s]; f != nil {
			switch {
			case cur == nil:
				return refuse(s.Pos(), "not supported yet: an if/else that enters round %s on both paths before the loop body enters its first round", f.c.Name())
			case constant.Compare(f.c.Val(), token.LEQ, cur.c.Val()):
				return refuse(s.Pos(), "more than one phase in one iteration: %s goes back from %s to %s (make-HO needs each iteration of the loop to be one phase)",
					g.round.Name, cur.c.Name(), f.c.Name())
			}
			cur = &round{c: f.c, sw: s, fork: f}
			g.rounds = append(g.rounds, cur)
		}
	}
	if len(g.rounds) == 0 {
		return refuse(g.loop.Pos(), "the loop body never sets the round variable %s to one of its constants", g.round.Name)
	}
	for i, c := range g.round.Enum.Consts {
		if i >= len(g.rounds) || g.rounds[i].c != c {
			return refuse(g.loop.Pos(), "round %s has no code: no path of the loop body enters it (make-HO fills only the rounds skipped by continue with no-ops)", c.Name())
		}
	}
	for _, s := range before {
		if pos := g.findComm(s, 0); pos.IsValid() {
			return refuse(pos, "not supported yet: communication before the loop body enters its first round")
		}
	}
	for _, sp := range g.splits {
		if sp.round == nil {
			return refuse(sp.sw.Pos(), "not supported yet: %s enters round %s inside an if, and the statement after the if is not the switch to %s of the other paths", g.round.Name, sp.c.Name(), sp.c.Name())
		}
	}
	for _, r := range g.rounds {
		if err := g.splitRound(r); err != nil {
			return err
		}
	}
	for i, r := range g.rounds {
		for _, sp := range r.guards {
			if !slices.Contains(g.rounds[i-1].update, ast.Stmt(sp.s)) {
				return refuse(sp.s.Pos(), "not supported yet: an if that enters round %s before the send of round %s", sp.c.Name(), g.rounds[i-1].c.Name())
			}
		}
	}
	g.prologue = append(before, g.rounds[0].pre...)
	for i, r := range g.rounds {
		if err := g.checkPre(r, i == 0); err != nil {
			return err
		}
	}
	return g.checkEarly()
}

// checkEarly checks the switches nested in a statement of the loop body
// that are not those of a split if, a fork or a rotated end: a path that
// enters the next round early (case *Checkpoint: r.phase = Checkpointing,
// in the update of round Execute, before the top-level r.phase =
// Checkpointing of the other paths). In the machine it is an assignment
// of the update, as in the asynchronous code: make-HO needs it in the
// update of the round before the one it enters (after that round's
// communication), and nothing communicating from the statement that holds
// it up to the top-level switch, so that the path goes into the next
// round's send as the others do.
func (g *loopGen) checkEarly() error {
	for _, sw := range g.early {
		bad := g.earlyRefusal(sw)
		ok := false
		for i, r := range g.rounds[:len(g.rounds)-1] {
			u := g.updateOf(i)
			k := slices.IndexFunc(u, func(s ast.Stmt) bool { return s.Pos() <= sw.Pos() && sw.End() <= s.End() })
			if k < 0 || g.rounds[i+1].c != g.roundConst(sw) || g.rounds[i+1].fork != nil || r.branch != nil {
				continue
			}
			for _, s := range u[k:] {
				if g.findComm(s, 0).IsValid() {
					return bad
				}
			}
			ok = true
		}
		if !ok {
			return bad
		}
	}
	return nil
}

// checkRoundWrites refuses a write of the round variable that is not a
// top-level switch (in top) or the switch of a split if, or not to one of
// its constants.
func (g *loopGen) checkRoundWrites(top map[ast.Stmt]bool) error {
	var err error
	ast.Inspect(g.loop.Body, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if !g.isVar(l, g.round) {
					continue
				}
				switch {
				case g.roundConst(n) == nil:
					err = refuse(n.Pos(), "not supported yet: %s set to something other than one of its constants (the rounds of a phase are the machine's functions, in order: jump the phase variables to the message's, and set %s to one of %s)", g.round.Name, g.round.Name, constNames(g.round.Enum.Consts))
				case !top[n]:
					// Perhaps an early entry into the next round
					// (checkEarly, once the rounds are known).
					g.early = append(g.early, n)
				}
			}
		case *ast.IncDecStmt:
			if g.isVar(n.X, g.round) {
				err = refuse(n.Pos(), "not supported yet: %s%s (make-HO needs round changes to constants)", g.round.Name, n.Tok)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && g.isVar(n.X, g.round) {
				err = refuse(n.Pos(), "not supported yet: the address of the round variable %s is taken", g.round.Name)
			}
		}
		return true
	})
	return err
}

// findComm returns the position of the first send (kind Send), reception
// (kind Recv) or either (0) in n.
func (g *loopGen) findComm(n ast.Node, kind annotations.CommKind) token.Pos {
	var pos token.Pos
	ast.Inspect(n, func(n ast.Node) bool {
		if pos.IsValid() || g.skipTail(n) {
			return false
		}
		if k := g.commKind(n); k != 0 && (kind == 0 || k == kind) {
			pos = n.Pos()
		}
		return true
	})
	return pos
}

// splitRound splits the statements of round r (r.update, from its switch
// on) into pre, send and update.
func (g *loopGen) splitRound(r *round) error {
	seg := r.update
	name := r.c.Name()
	if r.fork != nil {
		if f := g.forks[lastOf(seg)]; f != nil {
			return refuse(f.s.Pos(), "not supported yet: an if/else that enters round %s on both paths right after the one that enters round %s", f.c.Name(), name)
		}
		return g.forkRound(r, r.fork)
	}
	if f := g.forks[lastOf(seg)]; f != nil {
		return g.forkShare(r, f, len(seg)-1, seg)
	}
	// At most one send and one reception on every path.
	if pos := g.maxPerPath(seg, annotations.Send); pos.IsValid() {
		return refuse(pos, "more than one send on a path of round %s (make-HO needs at most one send, possibly to many, per round)", name)
	}
	if pos := g.maxPerPath(seg, annotations.Recv); pos.IsValid() {
		return refuse(pos, "more than one reception on a path of round %s (make-HO needs at most one reception loop per round)", name)
	}
	first, last, recv := -1, -1, -1
	for i, s := range seg {
		if g.findComm(s, annotations.Send).IsValid() {
			if first < 0 {
				first = i
			}
			last = i
		}
		if recv < 0 && g.findComm(s, annotations.Recv).IsValid() {
			recv = i
		}
	}
	if ifs, ok := seg[max(first, 0)].(*ast.IfStmt); ok && first >= 0 && first == recv && len(r.guards) == 0 {
		if _, ok := ifs.Else.(*ast.BlockStmt); ok && ifs.Init == nil {
			return g.branchShare(r, ifs, first, seg)
		}
	}
	if first >= 0 && recv >= 0 && last >= recv {
		return refuse(g.findComm(seg[last], annotations.Send), "not supported yet: a send after the reception of round %s (make-HO needs send, then receive, then update)", name)
	}
	if len(r.guards) > 0 && first >= 0 {
		return refuse(g.findComm(seg[first], annotations.Send), "more than one send on a path of round %s (make-HO needs at most one send, possibly to many, per round)", name)
	}
	// seg starts with the switch into the round, except for the first
	// round of a loop that enters it at the end of its body (rotated).
	lo := 1
	if r.sw == nil {
		lo = 0
	}
	if first < 0 {
		r.pre, r.send, r.update = seg[:lo], nil, seg[lo:]
		return nil
	}
	for i := first; i <= last; i++ {
		if pos := g.sendUnsafe(seg[i]); pos.IsValid() {
			return refuse(pos, "not supported yet: a statement that may change the state among the sends of round %s (they are the round's send function, which must not change the state: compute it before the round's first send, or after its reception)", name)
		}
	}
	// Extend the send backwards over the statements that only compute
	// what it sends (est := Msg{...}).
	start := first
	for start > lo && !g.findComm(seg[start-1], 0).IsValid() && !g.sendUnsafe(seg[start-1]).IsValid() && g.localTo(seg[start-1], seg[start:last+1]) {
		start--
	}
	r.pre, r.send, r.update = seg[:start], seg[start:last+1], seg[last+1:]
	return nil
}

// checkPre checks the statements that run between a round's switch and
// its send, at the end of the previous round's update (or when an
// iteration starts): they must not leave the iteration, since the round
// variable already says that the round is entered.
func (g *loopGen) checkPre(r *round, first bool) error {
	stmts := r.pre
	if first {
		stmts = g.prologue
	}
	for _, s := range stmts {
		var pos token.Pos
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				// Before the first round's send, a return or a break
				// halts the machine when the iteration starts, before
				// it sends: the asynchronous code too leaves the loop
				// before sending.
				if !first {
					pos = n.Pos()
				}
			case *ast.BranchStmt:
				if g.targetsLoop(s, n) && (!first || n.Tok == token.CONTINUE) {
					pos = n.Pos()
				}
			}
			return !pos.IsValid()
		})
		if pos.IsValid() {
			if first {
				return refuse(pos, "not supported yet: a continue before the first round's send (make-HO runs the rounds of every iteration it starts: leave the loop, or skip the rounds' code in an if)")
			}
			return refuse(pos, "not supported yet: leaving the iteration between entering round %s and its send", r.c.Name())
		}
	}
	return nil
}

// maxPerPath returns the position of a second send or reception (kind)
// on one path of stmts, if any.
func (g *loopGen) maxPerPath(stmts []ast.Stmt, kind annotations.CommKind) token.Pos {
	var second token.Pos
	var count func(n ast.Node) int
	max := func(a, b int) int {
		if a > b {
			return a
		}
		return b
	}
	list := func(ss []ast.Stmt) int {
		k := 0
		for _, s := range ss {
			if g.skipTail(s) {
				continue
			}
			k += count(s)
			if k > 1 && !second.IsValid() {
				second = g.findComm(s, kind)
			}
		}
		return k
	}
	count = func(n ast.Node) int {
		switch n := n.(type) {
		case nil:
			return 0
		case *ast.BlockStmt:
			return list(n.List)
		case *ast.IfStmt:
			return count(n.Init) + max(count(n.Body), count(n.Else))
		case *ast.SwitchStmt, *ast.TypeSwitchStmt:
			k := 0
			var clauses []ast.Stmt
			if s, ok := n.(*ast.SwitchStmt); ok {
				clauses = s.Body.List
			} else {
				clauses = n.(*ast.TypeSwitchStmt).Body.List
			}
			for _, c := range clauses {
				k = max(k, list(c.(*ast.CaseClause).Body))
			}
			return k
		case *ast.ForStmt:
			// A send in a loop is one send to many; a reception loop is
			// one reception.
			return max(min(count(n.Body), 1), 0)
		case *ast.RangeStmt:
			return min(count(n.Body), 1)
		case *ast.LabeledStmt:
			return count(n.Stmt)
		case *ast.FuncLit:
			return 0
		}
		k := 0
		ast.Inspect(n, func(m ast.Node) bool {
			if _, ok := m.(*ast.FuncLit); ok {
				return false
			}
			if g.commKind(m) == kind {
				k++
			}
			return true
		})
		return k
	}
	list(stmts)
	return second
}

// sendUnsafe returns the position of something in s that may change the
// state of the process, other than a send: Send functions must not.
func (g *loopGen) sendUnsafe(s ast.Stmt) token.Pos {
	return g.unsafeIn(s, s, false)
}

// unsafeIn returns the position of something in s that may change the
// state of the process, other than a send; the variables declared in
// scope are local. In the body of a helper that sends (helper), a return
// and the locking of a mutex (which only orders the helper's sends with
// other goroutines) are allowed too.
func (g *loopGen) unsafeIn(s ast.Stmt, scope ast.Node, helper bool) token.Pos {
	local := func(e ast.Expr) bool {
		// A field of a local struct value (ack.Last = p.last) is local
		// too; through a pointer, slice or map it is not.
		e = ast.Unparen(e)
		for {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if s := g.info.Selections[sel]; s == nil || s.Kind() != types.FieldVal || s.Indirect() {
				return false
			}
			if _, ok := g.info.TypeOf(sel.X).Underlying().(*types.Struct); !ok {
				return false
			}
			e = ast.Unparen(sel.X)
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return false
		}
		if id.Name == "_" {
			return true
		}
		obj := g.info.ObjectOf(id)
		return obj != nil && scope.Pos() <= obj.Pos() && obj.Pos() < scope.End()
	}
	var pos token.Pos
	ast.Inspect(s, func(n ast.Node) bool {
		if pos.IsValid() {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if !local(l) {
					pos = n.Pos()
				}
			}
		case *ast.IncDecStmt:
			if !local(n.X) {
				pos = n.Pos()
			}
		case *ast.ExprStmt:
			call, ok := ast.Unparen(n.X).(*ast.CallExpr)
			if !ok {
				break
			}
			if g.commKind(call) == annotations.Send {
				// The arguments are expressions; calls in them are
				// message builders, assumed not to change the state.
				return false
			}
			if helper && isMutexCall(g.info, call) {
				return false
			}
			pos = n.Pos()
		case *ast.SendStmt:
			if g.commKind(n) == annotations.Send {
				// A send to a peer; its operands are expressions, as
				// the arguments of a //sync:send call.
				return false
			}
			pos = n.Pos()
		case *ast.ReturnStmt:
			if !helper {
				pos = n.Pos()
			}
		case *ast.DeferStmt:
			if !helper || !isMutexCall(g.info, n.Call) {
				pos = n.Pos()
			}
			return false
		case *ast.BranchStmt:
			// A break or continue of a loop of the helper stays in it.
			if !helper || n.Tok == token.GOTO || n.Tok == token.FALLTHROUGH {
				pos = n.Pos()
			}
		case *ast.GoStmt, *ast.LabeledStmt:
			pos = n.Pos()
		case *ast.FuncLit:
			return false
		}
		return true
	})
	return pos
}

// localTo reports whether the variables s declares are used only in s and
// in the statements of rest.
func (g *loopGen) localTo(s ast.Stmt, rest []ast.Stmt) bool {
	end := rest[len(rest)-1].End()
	ok := true
	for id, obj := range g.info.Uses {
		if obj == nil || obj.Pos() < s.Pos() || obj.Pos() >= s.End() {
			continue
		}
		if id.Pos() < s.Pos() || id.Pos() >= end {
			ok = false
		}
	}
	return ok
}

// checkPhase checks that the phase is increased on every iteration: by a
// top-level statement before the first round's send, or by the loop's
// post statement.
func (g *loopGen) checkPhase() error {
	// With a phase of several variables, increasing any of them
	// increases the phase: condition I, which the suite proved, says
	// that the tag never decreases, so the variables after it may be
	// reset (height++; round = 0).
	inc := func(s ast.Stmt) bool {
		for _, ph := range g.phases {
			if g.increments(s, ph) {
				return true
			}
		}
		return false
	}
	for _, s := range g.prologue {
		if inc(s) {
			return nil
		}
	}
	if g.forStmt != nil && g.forStmt.Post != nil && inc(g.forStmt.Post) {
		return nil
	}
	// Or anywhere on every path through the body (phase++ at its end, or
	// in both branches of an if/else): a continue is then refused
	// (branches), so every top-level statement runs.
	if g.alwaysIncreases(g.loop.Body.List, inc) {
		g.lateIncrease = true
		return nil
	}
	if len(g.phases) > 1 {
		var names []string
		for _, ph := range g.phases {
			names = append(names, ph.Name)
		}
		return refuse(g.loop.Pos(), "phase (%s) is not increased on every iteration: make-HO needs %s++ (or an increase of a variable before it) on every path through the loop body (at its top level, or in both branches of an if/else), or in the loop's post statement",
			strings.Join(names, ","), g.phase.Name)
	}
	return refuse(g.loop.Pos(), "phase %s is not increased on every iteration: make-HO needs %s++ on every path through the loop body (at its top level, or in both branches of an if/else), or in the loop's post statement",
		g.phase.Name, g.phase.Name)
}

// increments reports whether s increases the variable v by a positive
// constant: v++, v += k or v = v + k.
func (g *loopGen) increments(s ast.Stmt, v *annotations.SyncVar) bool {
	switch s := s.(type) {
	case *ast.IncDecStmt:
		return s.Tok == token.INC && g.isVar(s.X, v)
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || !g.isVar(s.Lhs[0], v) {
			return false
		}
		switch s.Tok {
		case token.ADD_ASSIGN:
			k := g.info.Types[s.Rhs[0]].Value
			return k != nil && constant.Sign(k) > 0
		case token.ASSIGN:
			b, ok := ast.Unparen(s.Rhs[0]).(*ast.BinaryExpr)
			if !ok || b.Op != token.ADD {
				return false
			}
			k := g.info.Types[b.Y].Value
			return g.isVar(b.X, v) && k != nil && constant.Sign(k) > 0
		}
	}
	return false
}

// targetsLoop reports whether the branch statement b, inside the top-level
// statement top of the body, leaves or continues the tagged loop.
func (g *loopGen) targetsLoop(top ast.Stmt, b *ast.BranchStmt) bool {
	if b.Tok != token.BREAK && b.Tok != token.CONTINUE {
		return false
	}
	if b.Label != nil {
		return b.Label.Name == g.label
	}
	// Unlabeled: the innermost enclosing loop (or switch or select, for
	// break) between top and b is the target.
	var path, found []ast.Node
	ast.Inspect(top, func(n ast.Node) bool {
		switch {
		case found != nil:
			return false
		case n == nil:
			path = path[:len(path)-1]
			return false
		case n == ast.Node(b):
			found = append([]ast.Node{}, path...)
			return false
		}
		path = append(path, n)
		return true
	})
	for _, n := range found {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if b.Tok == token.BREAK {
				return false
			}
		case *ast.FuncLit:
			return false
		}
	}
	return true
}

// branches translates continue, break and return out of the loop in the
// rounds: continue ends the update (the rounds up to the end of the phase
// are no-ops, their round test fails); break and return halt the machine.
func (g *loopGen) branches() error {
	stmts := append(append([]ast.Stmt{}, g.prologue...), g.postLoop...)
	for _, r := range g.rounds {
		stmts = append(stmts, forkStmts(r, false)...)
		stmts = append(stmts, r.send...)
		stmts = append(stmts, forkStmts(r, true)...)
		stmts = append(stmts, r.update...)
	}
	for _, s := range stmts {
		top := s
		var err error
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if !g.targetsLoop(top, n) {
					break
				}
				if n.Tok == token.CONTINUE {
					if g.lateIncrease && g.rotated == nil {
						err = refuse(n.Pos(), "not supported yet: a continue in a loop that increases its phase %s at the end of its body: the next iteration would run in the same phase (make-HO needs %s++ before the first send, or on every path; write the end of the iteration in an if/else instead)",
							g.phase.Name, g.phase.Name)
						return false
					}
					if g.rotated != nil {
						err = refuse(n.Pos(), "not supported yet: a continue in a loop that enters its first round %s at the end of its body (%s): the next iteration would start in another round (make-HO needs the switch to %s on every path; write the end of the iteration in an if/else instead)",
							g.round.Enum.Consts[0].Name(), lineOf(g.fset, g.rotated.Pos()), g.round.Enum.Consts[0].Name())
						return false
					}
					g.replace(n.Pos(), n.End(), "return")
				} else {
					g.replace(n.Pos(), n.End(), g.haltText()+"\nreturn")
				}
			case *ast.ReturnStmt:
				err = g.returnStmt(n)
			}
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// returnStmt translates a return of the function in the loop: the results
// go to the machine's fields and the machine halts.
func (g *loopGen) returnStmt(r *ast.ReturnStmt) error {
	res := g.fn.Type.Results
	if len(r.Results) == 0 {
		g.replace(r.Pos(), r.End(), g.mName+".halted = true\nreturn")
		return nil
	}
	names := g.resultFields()
	if len(r.Results) != len(names) {
		return refuse(r.Pos(), "not supported yet: returning the results of a call with several results")
	}
	_ = res
	lhs := make([]string, len(names))
	for i, n := range names {
		lhs[i] = g.mName + "." + n
	}
	g.replace(r.Pos(), r.Results[0].Pos(), strings.Join(lhs, ", ")+" = ")
	g.insert(r.End(), "\n"+g.mName+".halted = true\nreturn")
	return nil
}

// resultFields names the fields that hold the function's results.
func (g *loopGen) resultFields() []string {
	var names []string
	res := g.fn.Type.Results
	if res == nil {
		return nil
	}
	n := res.NumFields()
	i := 0
	for _, f := range res.List {
		if len(f.Names) == 0 {
			name := "result"
			if n > 1 {
				name = fmt.Sprintf("result%d", i)
			} else if isErrorType(g.info.TypeOf(f.Type)) {
				name = "err"
			}
			names = append(names, name)
			i++
			continue
		}
		for _, id := range f.Names {
			names = append(names, id.Name)
			i++
		}
	}
	return names
}

func isErrorType(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

func (g *loopGen) off(p token.Pos) int { return int(p) - g.base }

func (g *loopGen) replace(start, end token.Pos, text string) {
	g.edits = append(g.edits, edit{start: g.off(start), end: g.off(end), text: text})
}

func (g *loopGen) insert(at token.Pos, text string) { g.replace(at, at, text) }

func (g *loopGen) remove(start, end token.Pos) {
	g.replace(start, end, "")
	g.removed = append(g.removed, span{start, end})
}

func (g *loopGen) isRemoved(p token.Pos) bool {
	for _, s := range g.removed {
		if s.start <= p && p < s.end {
			return true
		}
	}
	return false
}

// findSplits finds the split ifs among the top-level statements of the
// loop body: an if without init whose body, at its top level, sets the
// round variable once, and whose other statements do not.
func (g *loopGen) findSplits(body []ast.Stmt) error {
	g.tails = make(map[ast.Stmt]*splitIf)
	for _, st := range body {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil {
			continue
		}
		var writes []ast.Stmt
		ast.Inspect(ifs, func(n ast.Node) bool {
			if a, ok := n.(*ast.AssignStmt); ok {
				for _, l := range a.Lhs {
					if g.isVar(l, g.round) {
						writes = append(writes, a)
					}
				}
			}
			return true
		})
		if len(writes) != 1 {
			continue
		}
		k := slices.Index(ifs.Body.List, writes[0])
		c := g.roundConst(writes[0])
		if k < 0 || c == nil {
			continue
		}
		sp := &splitIf{s: ifs, sw: writes[0], c: c, tail: ifs.Body.List[k+1:]}
		g.splits = append(g.splits, sp)
		for _, t := range sp.tail {
			g.tails[t] = sp
		}
		if err := g.checkTail(sp); err != nil {
			return err
		}
	}
	return nil
}

// checkTail checks that the statements after the switch of a split if
// only send, and compute what they send: they become the guarded part of
// the next round's send function.
func (g *loopGen) checkTail(sp *splitIf) error {
	g.inTail = true
	defer func() { g.inTail = false }()
	name := sp.c.Name()
	for _, t := range sp.tail {
		if pos := g.findComm(t, annotations.Recv); pos.IsValid() {
			return refuse(pos, "not supported yet: a reception after %s enters round %s inside an if (make-HO needs the reception at the top level of the loop body)", g.round.Name, name)
		}
		if pos := g.sendUnsafe(t); pos.IsValid() {
			return refuse(pos, "not supported yet: a statement that may change the state after %s enters round %s inside an if (make-HO puts that code in the send function of %s, which must not change the state: move it before the switch to %s, or after the round's send)", g.round.Name, name, name, name)
		}
	}
	if pos := g.maxPerPath(sp.tail, annotations.Send); pos.IsValid() {
		return refuse(pos, "more than one send on a path of round %s (make-HO needs at most one send, possibly to many, per round)", name)
	}
	return nil
}

// skipTail reports whether n is a statement of a split if's tail that the
// analysis of the enclosing round must not see: it belongs to the next
// round.
func (g *loopGen) skipTail(n ast.Node) bool {
	s, ok := n.(ast.Stmt)
	return ok && !g.inTail && (g.tails[s] != nil || g.forkAfter[s])
}

// lastOf returns the last statement of ss, or nil.
func lastOf(ss []ast.Stmt) ast.Stmt {
	if len(ss) == 0 {
		return nil
	}
	return ss[len(ss)-1]
}

// splitEdits moves the tails of the split ifs to the send functions of the
// rounds they enter: the if's condition is stored in a field where the if
// is, the tail is rendered under that field in the next round's send, and
// removed from the if. It runs after all other edits.
func (g *loopGen) splitEdits() {
	g.sortEdits()
	for _, r := range g.rounds {
		if r.fork != nil {
			r.fork.field = g.freshField("via" + exported(r.c.Name()))
		} else if r.branch != nil && r.branch.f.c == nil {
			r.branch.f.field = g.freshField("path" + exported(r.c.Name()))
		}
	}
	for _, sp := range g.splits {
		sp.field = g.freshField("via" + exported(sp.c.Name()))
		sp.cond = g.nodeText(sp.s.Cond)
		if len(sp.tail) > 0 {
			sp.text = g.text(sp.tail)
			g.edits = append(g.edits, edit{start: g.trailEnd(sp.sw.End()), end: g.trailEnd(lastOf(sp.tail).End()), tail: true})
		}
		g.insert(sp.s.Pos(), g.mName+"."+sp.field+" = "+sp.cond+" // the path that enters "+sp.c.Name()+" in this if\n")
		g.replace(sp.s.Cond.Pos(), sp.s.Cond.End(), g.mName+"."+sp.field)
	}
}

// nestedCall checks a call, in the loop body, of a function whose tagged
// loop l extends this loop's tag, and rewrites it into a c.Call of l's
// machine (Sec. 3.3 of the paper: nested loops become machines that call
// each other). The call must be the last statement of the loop body, so
// that the iteration ends when the nested machine returns: the machine
// defers its endPhase to Returned.
func (g *loopGen) nestedCall(call *ast.CallExpr, l *annotations.Loop) error {
	at := lineOf(g.fset, l.Pos())
	if len(l.Vars) != len(g.loop.Vars)+2 {
		return refuse(call.Pos(), "not supported yet: a call of the nested tagged loop at %s, tagged %s: make-HO needs the nested loop's tag to extend this loop's tag %s by a phase and a round",
			at, l.TagString(), g.loop.TagString())
	}
	body := g.loop.Body.List
	last, ok := lastOf(body).(*ast.ExprStmt)
	if !ok || len(body) == 0 || ast.Unparen(last.X) != call {
		return refuse(call.Pos(), "not supported yet: a call of the nested tagged loop at %s that is not the last statement of the loop body (make-HO ends the iteration when the nested machine returns)", at)
	}
	if g.calls != nil {
		return refuse(call.Pos(), "not supported yet: a second call of a nested tagged loop (at %s)", at)
	}
	fd, _ := l.Func.(*ast.FuncDecl)
	if fd == nil || fd.Type.TypeParams != nil {
		return refuse(call.Pos(), "not supported yet: a call of the nested tagged loop at %s in a function literal or generic function", at)
	}
	for _, f := range fd.Type.Params.List {
		if len(f.Names) == 0 || slices.ContainsFunc(f.Names, func(id *ast.Ident) bool { return id.Name == "_" }) {
			return refuse(call.Pos(), "not supported yet: a call of the nested tagged loop at %s, whose function has an unnamed parameter", at)
		}
		if _, ok := f.Type.(*ast.Ellipsis); ok {
			return refuse(call.Pos(), "not supported yet: a call of the nested tagged loop at %s, whose function is variadic", at)
		}
	}
	name := fd.Name.Name + "Machine"
	if g.u.pass.Pkg.Scope().Lookup(name) != nil || g.u.pass.Pkg.Scope().Lookup("New"+exported(name)) != nil {
		return refuse(call.Pos(), "not supported yet: a call of the nested tagged loop at %s, whose machine name %s is taken in the package", at, name)
	}
	if fd.Recv != nil {
		if _, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); !ok {
			return refuse(call.Pos(), "not supported yet: a call of the nested tagged loop at %s through a method value", at)
		}
	}
	g.calls = call
	g.calledCtor = "New" + exported(name)
	g.calledFn = fd
	g.calledAt = at
	return nil
}

// callEdits rewrites the call of a nested machine's loop, f(args) or
// x.f(args), into c.Call(NewFMachine(args)) or c.Call(NewFMachine(x,
// args)), and records that the iteration now ends when it returns.
func (g *loopGen) callEdits() error {
	call := g.calls
	if call == nil {
		return nil
	}
	open := g.cName + ".Call(" + g.calledCtor + "("
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && g.info.Selections[sel] != nil {
		// The receiver is copied as written: only the function's own
		// pointer receiver, which the machine binds and never rewrites.
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || g.recv == nil || !g.recvPtr || g.info.Uses[id] != g.recv {
			return refuse(call.Pos(), "not supported yet: a call of the nested tagged loop at %s on %s (make-HO handles calls on the function's own pointer receiver)",
				g.calledAt, types.ExprString(sel.X))
		}
		sep := ""
		if len(call.Args) > 0 {
			sep = ", "
		}
		g.insert(call.Pos(), open)
		g.replace(sel.X.End(), call.Lparen+1, sep)
	} else {
		g.replace(call.Pos(), call.Lparen+1, open)
	}
	g.insert(call.End(), ")\n"+g.mName+".calling = true // the iteration ends when the machine returns (Returned)")
	return nil
}

// earlyRefusal is the refusal of the early switch sw (checkEarly).
func (g *loopGen) earlyRefusal(sw ast.Stmt) *refusal {
	c := g.roundConst(sw)
	return refuse(sw.Pos(), "not supported yet: %s enters round %s inside a nested statement (make-HO handles that in the update of the round before %s, followed by no communication up to the top-level %s = %s of the other paths)",
		g.round.Name, c.Name(), c.Name(), g.round.Name, c.Name())
}

// earlyComm refuses an early switch followed by communication in the
// top-level statement of body that holds it, before the rounds are split
// (whose refusals would attribute that communication to the round before).
func (g *loopGen) earlyComm(body []ast.Stmt) error {
	for _, sw := range g.early {
		for _, s := range body {
			if s.Pos() > sw.Pos() || sw.End() > s.End() {
				continue
			}
			found := false
			ast.Inspect(s, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok || found {
					return false
				}
				found = n != nil && n.Pos() > sw.End() && g.commKind(n) != 0
				return !found
			})
			if found {
				return g.earlyRefusal(sw)
			}
		}
	}
	return nil
}

// constNames renders the names of the round constants, "A, B or C".
func constNames(cs []*types.Const) string {
	var names []string
	for _, c := range cs {
		names = append(names, c.Name())
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
