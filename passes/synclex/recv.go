package synclex

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// received tells which values of a package hold a received message, or
// data derived from one. It is a forward, flow-insensitive and
// context-insensitive propagation over SSA:
//
// Sources are the receptions of the process's code: channel receives
// (<-ch, select cases, range over a channel) and calls of //sync:recv
// functions in the functions containing a tagged loop, in its entry
// methods (the exported methods of a type holding a synchronization
// variable, through which the environment delivers messages to it, such
// as go-ibft's AddMessage), and in every function these call, spawn or
// create. The parameters of the entry methods that may carry a message
// are sources too.
//
// A value derived from a received one is received: a field, an element, a
// loaded pointer, a type assertion or conversion, a φ-node, a closure's
// captured variable, the parameter of a package function it is passed to
// (called directly, through an interface implemented by a type of the
// package, or through a function value of the same signature that the
// package takes), what such a function returns, and the result of a call
// of code outside the package it is passed to (m.GetPrepare(),
// decode(raw)), as well as a local variable that such a call fills in
// (proto.Unmarshal(raw, &m)). A value stored in memory other than a local
// variable (a mailbox, a field of the process) is not followed: what is
// read back from there, like what is read from storage or built locally,
// is not received. The propagation ignores calling contexts: a helper
// passed a received message at one call is taken to receive one at all.
type received struct {
	pass  *analysis.Pass
	ann   *annotations.Annotations
	prog  *ssa.Program
	pkg   *ssa.Package
	vals  map[ssa.Value]bool
	queue []ssa.Value
	// returns marks the functions that return a received value.
	returns map[*ssa.Function]bool
	// callers lists the calls of each function.
	callers map[*ssa.Function][]ssa.CallInstruction
	// binops are the comparisons of the package by operator position.
	binops map[token.Pos][]*ssa.BinOp
	// methods are the package's concrete methods by name, for interface
	// calls.
	methods map[string][]method
	// taken are the functions used as values (method values and closures
	// included), for calls of function values.
	taken []*ssa.Function
}

type method struct {
	recv types.Type
	fn   *ssa.Function
}

// newReceived builds the package's SSA form and computes which values are
// received.
func newReceived(pass *analysis.Pass, ann *annotations.Annotations) *received {
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	r := &received{
		pass:    pass,
		ann:     ann,
		prog:    prog,
		pkg:     pkg,
		vals:    make(map[ssa.Value]bool),
		returns: make(map[*ssa.Function]bool),
		callers: make(map[*ssa.Function][]ssa.CallInstruction),
		binops:  make(map[token.Pos][]*ssa.BinOp),
		methods: make(map[string][]method),
	}
	r.indexMethods()
	var all []*ssa.Function
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Blocks != nil {
			all = append(all, fn)
		}
	}
	seen := make(map[*ssa.Function]bool)
	for _, fn := range all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if c, ok := instr.(ssa.CallInstruction); ok {
					callee = c.Common().Value
				}
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil || *op == callee {
						continue
					}
					if f, ok := (*op).(*ssa.Function); ok && f.Blocks != nil && !seen[f] {
						seen[f] = true
						r.taken = append(r.taken, f)
					}
				}
			}
		}
	}
	for _, fn := range all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.BinOp:
					if in.Pos().IsValid() {
						r.binops[in.Pos()] = append(r.binops[in.Pos()], in)
					}
				case ssa.CallInstruction:
					for _, callee := range r.callees(in.Common()) {
						r.callers[callee] = append(r.callers[callee], in)
					}
				}
			}
		}
	}
	r.sources()
	r.propagate()
	return r
}

// indexMethods lists the methods of the package's named types.
func (r *received) indexMethods() {
	for _, mem := range r.pkg.Members {
		t, ok := mem.(*ssa.Type)
		if !ok {
			continue
		}
		named, ok := t.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if _, isIface := named.Underlying().(*types.Interface); isIface {
			continue
		}
		for _, recv := range []types.Type{named, types.NewPointer(named)} {
			ms := r.prog.MethodSets.MethodSet(recv)
			for i := 0; i < ms.Len(); i++ {
				sel := ms.At(i)
				if fn := r.prog.MethodValue(sel); fn != nil {
					name := sel.Obj().Name()
					r.methods[name] = append(r.methods[name], method{recv, fn})
				}
			}
		}
	}
}

// callees resolves a call to the functions with a body it may run: its
// static callee; for an interface call, the package's methods of that name
// whose receiver implements the interface; for a call of a function value,
// the functions used as values whose signature is the value's.
func (r *received) callees(c *ssa.CallCommon) []*ssa.Function {
	if c.IsInvoke() {
		iface, ok := c.Value.Type().Underlying().(*types.Interface)
		if !ok {
			return nil
		}
		var out []*ssa.Function
		for _, m := range r.methods[c.Method.Name()] {
			if m.fn.Blocks != nil && types.Implements(m.recv, iface) {
				out = append(out, m.fn)
			}
		}
		return out
	}
	if fn := c.StaticCallee(); fn != nil {
		if fn.Blocks != nil {
			return []*ssa.Function{fn}
		}
		return nil
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return nil
	}
	var out []*ssa.Function
	for _, f := range r.taken {
		if types.Identical(f.Signature, c.Signature()) {
			out = append(out, f)
		}
	}
	return out
}

// sources marks the receptions of the process's code and the message
// parameters of its entry methods.
func (r *received) sources() {
	loopFuncs := make(map[ast.Node]bool)
	for _, l := range r.ann.Loops {
		loopFuncs[l.Func] = true
	}
	var roots []*ssa.Function
	var addSyntax func(fn *ssa.Function)
	addSyntax = func(fn *ssa.Function) {
		if loopFuncs[fn.Syntax()] {
			roots = append(roots, fn)
		}
		for _, anon := range fn.AnonFuncs {
			addSyntax(anon)
		}
	}
	for _, mem := range r.pkg.Members {
		switch mem := mem.(type) {
		case *ssa.Function:
			addSyntax(mem)
		case *ssa.Type:
			if named, ok := mem.Type().(*types.Named); ok {
				for i := 0; i < named.NumMethods(); i++ {
					if fn := r.prog.FuncValue(named.Method(i)); fn != nil {
						addSyntax(fn)
					}
				}
			}
		}
	}
	// Entry methods: the exported methods of the types that hold a
	// synchronization variable.
	procs := make(map[*types.TypeName]bool)
	for _, l := range r.ann.Loops {
		for _, v := range l.Vars {
			if len(v.Fields) == 0 {
				continue
			}
			t := types.Unalias(v.Root.Type())
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = types.Unalias(p.Elem())
			}
			if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == r.pass.Pkg {
				procs[n.Origin().Obj()] = true
			}
		}
	}
	for tn := range procs {
		named := tn.Type().(*types.Named)
		for i := 0; i < named.NumMethods(); i++ {
			m := named.Method(i)
			if !m.Exported() {
				continue
			}
			fn := r.prog.FuncValue(m)
			if fn == nil || fn.Blocks == nil {
				continue
			}
			roots = append(roots, fn)
			if loopFuncs[fn.Syntax()] {
				continue // the loop's own parameters are its initial state
			}
			for _, p := range fn.Params[1:] {
				if r.ann.CanCarry(p.Type()) {
					r.mark(p)
				}
			}
		}
	}
	// The process's code: every function the roots call, spawn, defer or
	// create.
	seen := make(map[*ssa.Function]bool)
	for len(roots) > 0 {
		fn := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		if seen[fn] || fn.Blocks == nil {
			continue
		}
		seen[fn] = true
		roots = append(roots, fn.AnonFuncs...)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					roots = append(roots, r.callees(c.Common())...)
				}
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op != nil {
						if f, ok := (*op).(*ssa.Function); ok {
							roots = append(roots, f)
						}
					}
				}
				r.reception(instr)
			}
		}
	}
}

// reception marks the value that instr receives, if it is a reception.
func (r *received) reception(instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			r.mark(in)
		}
	case *ssa.Select:
		for _, s := range in.States {
			if s.Dir == types.RecvOnly {
				r.mark(in)
				break
			}
		}
	case *ssa.Call:
		c := in.Common()
		fn := c.Method
		if fn == nil {
			if callee := c.StaticCallee(); callee != nil {
				fn, _ = callee.Object().(*types.Func)
			}
		}
		if comm := r.ann.CommOf(fn); comm != nil && comm.Kind == annotations.Recv {
			r.mark(in)
		}
	}
}

func (r *received) mark(v ssa.Value) {
	if v == nil || r.vals[v] {
		return
	}
	r.vals[v] = true
	r.queue = append(r.queue, v)
}

// propagate marks every value derived from a received one.
func (r *received) propagate() {
	for len(r.queue) > 0 {
		v := r.queue[len(r.queue)-1]
		r.queue = r.queue[:len(r.queue)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, instr := range *refs {
			r.flow(v, instr)
		}
	}
}

// flow marks what instr derives from the received value v.
func (r *received) flow(v ssa.Value, instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.UnOp:
		if in.Op == token.MUL || in.Op == token.ARROW {
			r.mark(in)
		}
	case *ssa.Field, *ssa.FieldAddr, *ssa.TypeAssert, *ssa.Extract, *ssa.Convert,
		*ssa.ChangeType, *ssa.ChangeInterface, *ssa.MakeInterface, *ssa.SliceToArrayPointer,
		*ssa.MultiConvert, *ssa.Phi, *ssa.Range, *ssa.Next:
		r.mark(instr.(ssa.Value))
	case *ssa.Slice:
		if in.X == v {
			r.mark(in)
		}
	case *ssa.Index:
		if in.X == v {
			r.mark(in)
		}
	case *ssa.IndexAddr:
		if in.X == v {
			r.mark(in)
		}
	case *ssa.Lookup:
		if in.X == v {
			r.mark(in)
		}
	case *ssa.Store:
		// A local variable holding the message (one a closure captures,
		// or whose address is taken).
		if a, ok := in.Addr.(*ssa.Alloc); ok && in.Val == v {
			r.mark(a)
		}
	case *ssa.MakeClosure:
		fn := in.Fn.(*ssa.Function)
		for i, b := range in.Bindings {
			if b == v && i < len(fn.FreeVars) {
				r.mark(fn.FreeVars[i])
			}
		}
	case *ssa.Return:
		fn := in.Parent()
		if !r.returns[fn] {
			r.returns[fn] = true
			for _, call := range r.callers[fn] {
				if cv := call.Value(); cv != nil {
					r.mark(cv)
				}
			}
		}
	case ssa.CallInstruction:
		c := in.Common()
		callees := r.callees(c)
		for _, callee := range callees {
			r.param(c, callee, v)
		}
		if len(callees) > 0 {
			return
		}
		// Code outside the package: its result derives from its
		// arguments, and it may fill in a local variable passed to it.
		if cv := in.Value(); cv != nil {
			r.mark(cv)
		}
		for _, a := range c.Args {
			if mi, ok := a.(*ssa.MakeInterface); ok {
				a = mi.X
			}
			if al, ok := a.(*ssa.Alloc); ok {
				r.mark(al)
			}
		}
	}
}

// param marks the parameters of callee that the call c passes v to.
func (r *received) param(c *ssa.CallCommon, callee *ssa.Function, v ssa.Value) {
	params := callee.Params
	if c.IsInvoke() {
		if len(params) == 0 {
			return
		}
		if c.Value == v {
			r.mark(params[0])
		}
		params = params[1:]
	}
	for i, a := range c.Args {
		if a == v && i < len(params) {
			r.mark(params[i])
		}
	}
}

// compares reports whether the comparison e (one of the package's, with
// operator position e.OpPos) has an operand read from a received message.
func (r *received) compares(e *ast.BinaryExpr) bool {
	for _, b := range r.binops[e.OpPos] {
		if r.fromReceived(b.X) || r.fromReceived(b.Y) {
			return true
		}
	}
	return false
}

// fromReceived follows an operand back through loads, field selections
// and conversions to the message it is read from, and reports whether
// that message is received.
func (r *received) fromReceived(v ssa.Value) bool {
	for range 64 {
		if r.ann.MsgOf(v.Type()) != nil {
			return r.vals[v]
		}
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return false
		}
	}
	return false
}
