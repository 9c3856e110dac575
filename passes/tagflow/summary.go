package tagflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// fieldKey identifies a struct field independently of the path to it.
type fieldKey struct {
	strct *types.Struct
	index int
}

// summaries says, for each function of the package, whether the engine
// must look inside a call to it: because it (or something it calls
// statically) writes a field that holds a synchronization variable, sends
// or receives, or builds a message.
type summaries struct {
	ann *annotations.Annotations
	// relevant is true for functions that must be inlined.
	relevant map[*ssa.Function]bool
	// writes holds the functions that may write a synchronization field.
	writes map[*ssa.Function]bool
	// syncFields are the last fields of the synchronization variables.
	syncFields map[fieldKey]bool
	// syncGlobals are the package variables that are synchronization
	// variables themselves.
	syncGlobals map[*types.Var]bool
	// escaped are the synchronization fields whose address is taken for
	// something other than a direct load or store.
	escaped map[fieldKey]bool
	// dynWriters are the methods that write a sync field, by name: an
	// interface call may reach them.
	dynWriters map[string][]*types.Signature
	// valueWriters are the signatures of writers used as function values.
	valueWriters []*types.Signature
	// all are the functions of the package.
	all []*ssa.Function
	// sees holds the functions that may read a synchronization variable,
	// or memory other than numbers, strings and booleans (and
	// collections of them): directly, through a function they call, or
	// through a call the summary does not follow. The others see of the
	// process state only what they are handed and plain data, which
	// holds no received tag (unbounded.go).
	sees map[*ssa.Function]bool
	// resizes holds the functions that may change the size of a map:
	// they update or delete from one, or call code the summary does not
	// follow (directly or through a function of the package they call).
	resizes map[*ssa.Function]bool
}

func newSummaries(pass *analysis.Pass, ann *annotations.Annotations, funcs map[ast.Node]*ssa.Function) *summaries {
	s := &summaries{
		ann:         ann,
		relevant:    make(map[*ssa.Function]bool),
		writes:      make(map[*ssa.Function]bool),
		syncFields:  make(map[fieldKey]bool),
		syncGlobals: make(map[*types.Var]bool),
		escaped:     make(map[fieldKey]bool),
		dynWriters:  make(map[string][]*types.Signature),
	}
	for _, l := range ann.Loops {
		for _, v := range l.Vars {
			if k, ok := lastFieldKey(v); ok {
				s.syncFields[k] = true
			} else if v.Root.Parent() == pass.Pkg.Scope() {
				s.syncGlobals[v.Root] = true
			}
		}
	}
	// headers are the struct types a message's tag field lies in (Header
	// embedded in each message: h.Hdr() is a getter of the tag).
	headers := make(map[types.Type]bool)
	for _, m := range ann.Msgs {
		for _, c := range m.Components {
			for _, f := range c.Fields[:max(len(c.Fields)-1, 0)] {
				if _, ok := derefType(f.Type()).Underlying().(*types.Struct); ok {
					headers[types.Unalias(derefType(f.Type()))] = true
				}
			}
		}
	}
	comm := make(map[*ssa.Function]bool)
	// opaque holds the functions with a call the summary does not follow
	// that may reach the process state.
	opaque := make(map[*ssa.Function]bool)
	// loadsRich holds the functions that load from memory a value that is
	// not plain data (plainData), or address a message's field.
	loadsRich := make(map[*ssa.Function]bool)
	resizes := make(map[*ssa.Function]bool)
	// dyncalls are the calls of each function that the summary cannot
	// follow statically.
	dyncalls := make(map[*ssa.Function][]*ssa.CallCommon)
	// reads holds the functions that read a synchronization field or
	// package variable (directly, or by calling one that returns an
	// integer or a boolean read from one).
	reads := make(map[*ssa.Function]bool)
	callees := make(map[*ssa.Function][]*ssa.Function)
	var all []*ssa.Function
	for _, f := range funcs {
		all = append(all, f)
	}
	s.all = all
	for _, f := range all {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					if s.isSyncAddr(instr.Addr) || s.holdsSync(instr.Addr) {
						s.writes[f] = true
					}
					// A function emptying a field of the process for the
					// next round (p.startRound()): followed, so that the
					// field is seen as a mailbox (fieldmbox.go).
					if _, ok := instr.Addr.(*ssa.FieldAddr); ok && emptyValue(instr.Val) {
						s.relevant[f] = true
					}
				case *ssa.FieldAddr:
					// A field of a message in memory (p.best.Round, a plain
					// number, is a received tag).
					if st := types.Unalias(derefType(instr.X.Type())); ann.MsgOf(st) != nil || headers[st] {
						loadsRich[f] = true
					}
					if k, ok := fieldKeyOf(instr); ok && s.syncFields[k] {
						for _, r := range *instr.Referrers() {
							switch r := r.(type) {
							case *ssa.UnOp:
								if r.Op == token.MUL {
									reads[f] = true
									continue
								}
							case *ssa.Store:
								if r.Addr == instr {
									continue
								}
							case *ssa.DebugRef:
								continue
							case ssa.CallInstruction:
								if op := atomicCallOf(r.Common()); op != nil && op.addr == instr {
									continue // an atomic operation on the field, below
								}
							}
							s.escaped[k] = true
						}
					}
				case *ssa.Send, *ssa.Select:
					comm[f] = true
				case *ssa.MapUpdate:
					if !madeHere(instr.Map) {
						resizes[f] = true
					}
				case *ssa.UnOp:
					if instr.Op == token.ARROW {
						comm[f] = true
					}
					if instr.Op == token.MUL && !plainData(instr.Type(), 0) {
						loadsRich[f] = true
					}
					if g, ok := instr.X.(*ssa.Global); ok && instr.Op == token.MUL && s.isSyncAddr(g) {
						reads[f] = true
					}
				case ssa.CallInstruction:
					common := instr.Common()
					if op := atomicCallOf(common); op != nil {
						if s.isSyncAddr(op.addr) {
							if op.writes() {
								s.writes[f] = true
							}
							reads[f] = true
						}
					} else {
						for _, v := range passedValues(common) {
							if s.isSyncAddr(v) {
								// The callee is handed the variable's
								// address: it may write it.
								s.writes[f] = true
							}
						}
					}
					if bi, ok := common.Value.(*ssa.Builtin); ok && bi.Name() == "clear" {
						s.relevant[f] = true // clear(p.votes) for the next round
					}
					if bi, ok := common.Value.(*ssa.Builtin); ok && (bi.Name() == "clear" || bi.Name() == "delete") && !madeHere(common.Args[0]) {
						resizes[f] = true
					}
					if callee := staticCallee(common); callee != nil && callee.Pkg == f.Pkg && callee.Blocks != nil {
						callees[f] = append(callees[f], callee)
					} else if _, builtin := common.Value.(*ssa.Builtin); !builtin {
						dyncalls[f] = append(dyncalls[f], common)
						// Code of another package, called statically,
						// sees the process state only through what it
						// is handed (slices.Min(vals) does not).
						if callee == nil || callee.Pkg == f.Pkg || !plainArgs(common) {
							opaque[f] = true
						}
					}
					if fn := calleeObj(common); fn != nil && ann.CommOf(fn) != nil {
						comm[f] = true
					}
				}
			}
		}
		res := f.Signature.Results()
		for i := 0; i < res.Len(); i++ {
			if ann.MsgOf(res.At(i).Type()) != nil || ann.MsgOf(derefType(res.At(i).Type())) != nil {
				s.relevant[f] = true // builds a message
			}
			if headers[types.Unalias(derefType(res.At(i).Type()))] {
				s.relevant[f] = true // builds the header holding a message's tag (p.hdr())
			}
		}
		// A getter of a message (m.GetView(), as protobuf generates
		// them, m.Tag() (int, Step), h.Hdr() Header): inlined so that
		// what it returns is known to be the message's fields.
		if tagLikeResults(f) {
			for _, p := range f.Params {
				if ann.MsgOf(p.Type()) != nil || ann.MsgOf(derefType(p.Type())) != nil || headers[types.Unalias(derefType(p.Type()))] {
					s.relevant[f] = true
				}
			}
		}
		// A predicate (p.accepts(m)): inlined so that its comparisons
		// count as the caller's filter.
		if res.Len() == 1 && types.Identical(res.At(0).Type().Underlying(), types.Typ[types.Bool]) && f.Signature.Params().Len() > 0 {
			s.relevant[f] = true
		}
	}
	// Functions used as values (not just called) may be called
	// dynamically. A function literal that is only ever called where it
	// is made (go func() { ... }()) is not such a value.
	// asValue maps each such function (a method, for a method value
	// h.reset or expression (*H).reset) to the signatures of its values.
	asValue := make(map[*ssa.Function][]*types.Signature)
	addValue := func(fn *ssa.Function) {
		o := originOf(fn)
		asValue[o] = append(asValue[o], fn.Signature)
	}
	for _, f := range all {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if escapes(mc) {
						addValue(mc.Fn.(*ssa.Function))
					}
					continue
				}
				var ops []*ssa.Value
				ops = instr.Operands(ops)
				if call, ok := instr.(ssa.CallInstruction); ok && !call.Common().IsInvoke() {
					ops = ops[1:] // the callee itself
				}
				for _, op := range ops {
					if fn, ok := (*op).(*ssa.Function); ok {
						addValue(fn)
					}
				}
			}
		}
	}
	// Close over static calls, and over the dynamic calls (through an
	// interface or a function value, or handing a function to other code)
	// that may reach a writer, until nothing changes: a helper that
	// calls ev.apply(s), where some apply writes the tag, may write it.
	for changed := true; changed; {
		changed = false
		for _, f := range all {
			for _, c := range callees[f] {
				if s.writes[c] && !s.writes[f] {
					s.writes[f], changed = true, true
				}
				if comm[c] && !comm[f] {
					comm[f], changed = true, true
				}
				if reads[c] && trackedResult(c) && !reads[f] {
					reads[f], changed = true, true
				}
			}
		}
		s.collectWriters(all, asValue)
		for _, f := range all {
			if s.writes[f] {
				continue
			}
			for _, c := range dyncalls[f] {
				if s.mayWriteCall(c) {
					s.writes[f], changed = true, true
					break
				}
			}
		}
	}
	for _, f := range all {
		for _, c := range dyncalls[f] {
			for _, a := range c.Args {
				if mayReachMap(a.Type(), 0) {
					resizes[f] = true
				}
			}
		}
	}
	closeOverCallees(resizes, all, callees)
	s.resizes = resizes
	s.sees = make(map[*ssa.Function]bool)
	for _, f := range all {
		if reads[f] || s.writes[f] || opaque[f] || loadsRich[f] {
			s.sees[f] = true
		}
	}
	closeOverCallees(s.sees, all, callees)
	for _, f := range all {
		if s.writes[f] || comm[f] {
			s.relevant[f] = true
		}
		// A getter (p.getTerm(), an atomic load of p.term), or a
		// predicate about the tag: inlined so that what it returns is
		// known to be the variable's value, or a comparison with it.
		if reads[f] && trackedResult(f) {
			s.relevant[f] = true
		}
	}
	return s
}

// closeOverCallees adds to set every function of all that calls, through
// static calls of the package (callees), one in it.
func closeOverCallees(set map[*ssa.Function]bool, all []*ssa.Function, callees map[*ssa.Function][]*ssa.Function) {
	for changed := true; changed; {
		changed = false
		for _, f := range all {
			for _, c := range callees[f] {
				if set[c] && !set[f] {
					set[f], changed = true, true
				}
			}
		}
	}
}

// plainArgs reports whether the arguments of call c are plain data
// (numbers, strings, booleans, and slices, arrays and maps of them),
// which reach no memory of the caller's but their own.
func plainArgs(c *ssa.CallCommon) bool {
	for _, a := range c.Args {
		if !plainData(a.Type(), 0) {
			return false
		}
	}
	return true
}

func plainData(t types.Type, depth int) bool {
	if depth > 4 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Slice:
		return plainData(u.Elem(), depth+1)
	case *types.Array:
		return plainData(u.Elem(), depth+1)
	case *types.Map:
		return plainData(u.Key(), depth+1) && plainData(u.Elem(), depth+1)
	}
	return false
}

// madeHere reports whether map m is one its function makes (make(map),
// a literal, through phis), which no caller can hold before it returns.
func madeHere(m ssa.Value) bool {
	seen := make(map[ssa.Value]bool)
	var made func(v ssa.Value) bool
	made = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.MakeMap:
			return true
		case *ssa.Phi:
			for _, e := range v.Edges {
				if !made(e) {
					return false
				}
			}
			return true
		}
		return false
	}
	return made(m)
}

// mayReachMap reports whether a value of type t may reach a map: be one,
// point to or hold one, or be a function or an interface (which may hold
// anything).
func mayReachMap(t types.Type, depth int) bool {
	if depth > 6 {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Map, *types.Signature, *types.Interface:
		return true
	case *types.Pointer:
		return mayReachMap(u.Elem(), depth+1)
	case *types.Slice:
		return mayReachMap(u.Elem(), depth+1)
	case *types.Array:
		return mayReachMap(u.Elem(), depth+1)
	case *types.Chan:
		return mayReachMap(u.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayReachMap(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// escapes reports whether closure mc is used other than as the callee of
// a call, go or defer statement.
func escapes(mc *ssa.MakeClosure) bool {
	for _, r := range *mc.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
			continue
		case ssa.CallInstruction:
			if r.Common().Value == ssa.Value(mc) && !slices.Contains(r.Common().Args, ssa.Value(mc)) {
				continue
			}
		}
		return true
	}
	return false
}

// trackedResult reports whether f returns an integer or a boolean, the
// values the engine relates to the tag.
// tagLikeResults reports whether f returns only integers, booleans and
// structs or pointers to structs (a tag, or a header holding one:
// m.GetHdr().GetTerm() in protobuf code).
func tagLikeResults(f *ssa.Function) bool {
	res := f.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		t := res.At(i).Type()
		if _, isStruct := derefType(t).Underlying().(*types.Struct); !isTracked(t) && !isStruct {
			return false
		}
	}
	return res.Len() > 0
}

func trackedResult(f *ssa.Function) bool {
	res := f.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		if isTracked(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// collectWriters lists the writers that dynamic calls may reach: methods
// by name, and functions used as values by signature.
func (s *summaries) collectWriters(all []*ssa.Function, asValue map[*ssa.Function][]*types.Signature) {
	s.dynWriters = make(map[string][]*types.Signature)
	s.valueWriters = nil
	for _, f := range all {
		if !s.writes[f] {
			continue
		}
		if f.Signature.Recv() != nil {
			s.dynWriters[f.Name()] = append(s.dynWriters[f.Name()], f.Signature)
		}
		s.valueWriters = append(s.valueWriters, asValue[f]...)
	}
}

// mayWriteCall reports whether a call the summary does not follow
// statically may reach a writer: through an interface, or by handing a
// writing function to the callee. (Calls of function values are not
// followed here: matched by signature alone, any func() would reach
// every writing closure; the engine checks those the loop makes.)
func (s *summaries) mayWriteCall(c *ssa.CallCommon) bool {
	if c.IsInvoke() && s.mayWriteDynamic(c.Method.Name(), c.Signature()) {
		return true
	}
	for _, a := range c.Args {
		switch a := a.(type) {
		case *ssa.MakeClosure:
			if s.writes[originOf(a.Fn.(*ssa.Function))] {
				return true
			}
		case *ssa.Function:
			if s.writes[originOf(a)] {
				return true
			}
		}
	}
	return false
}

// staticCallee is the function a call statically calls, the generic
// function itself for a call of an instance of one: without
// monomorphisation, SSA calls an instance through a wrapper that belongs
// to no package and calls the generic function.
func staticCallee(c *ssa.CallCommon) *ssa.Function {
	if f := c.StaticCallee(); f != nil {
		return originOf(f)
	}
	return nil
}

// originOf is the function that f stands for: the generic function f
// instantiates, the method of a method value's wrapper (h.reset) or of
// a method expression's thunk ((*H).reset), or f itself.
func originOf(f *ssa.Function) *ssa.Function {
	if o := f.Origin(); o != nil {
		return o
	}
	if isBound(f) || isThunk(f) {
		if obj, ok := f.Object().(*types.Func); ok {
			if m := f.Prog.FuncValue(obj.Origin()); m != nil && m.Signature.Recv() != nil {
				// A thunk of a promoted method selects the embedded
				// receiver first: it does not stand for the method.
				if isBound(f) || sameUpToTypeParams(f.Signature.Params().At(0).Type(), m.Signature.Recv().Type(), 0) {
					return m
				}
			}
		}
	}
	return f
}

// isThunk reports whether f is the function of a method expression
// ((*H).reset), whose first parameter is the receiver.
func isThunk(f *ssa.Function) bool {
	return strings.HasPrefix(f.Synthetic, "thunk for ") && f.Signature.Params().Len() > 0
}

// isBound reports whether f is the wrapper of a method value, whose
// receiver is its only free variable.
func isBound(f *ssa.Function) bool {
	return strings.HasPrefix(f.Synthetic, "bound method wrapper ") && len(f.FreeVars) == 1
}

// calleeObj returns the function or interface method a call names.
func calleeObj(c *ssa.CallCommon) *types.Func {
	if c.IsInvoke() {
		return c.Method
	}
	switch v := c.Value.(type) {
	case *ssa.Function:
		if fn, ok := v.Object().(*types.Func); ok {
			return fn
		}
		if o := v.Origin(); o != nil {
			if fn, ok := o.Object().(*types.Func); ok {
				return fn
			}
		}
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function).Object().(*types.Func); ok {
			return fn
		}
	}
	return nil
}

// isSyncAddr reports whether addr is the address of a synchronization
// field (of any value) or a synchronization package variable.
func (s *summaries) isSyncAddr(addr ssa.Value) bool {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		k, ok := fieldKeyOf(a)
		return ok && s.syncFields[k]
	case *ssa.Global:
		if v, ok := a.Object().(*types.Var); ok {
			return s.syncGlobals[v]
		}
	}
	return false
}

// holdsSync reports whether a store to addr stores a struct that holds a
// synchronization field (p.st = s under the tag p.st.round), writing that
// field. A local variable of the function (a spilled parameter, a copy)
// is not state its callers see.
func (s *summaries) holdsSync(addr ssa.Value) bool {
	if _, local := addr.(*ssa.Alloc); local {
		return false
	}
	var holds func(t types.Type, depth int) bool
	holds = func(t types.Type, depth int) bool {
		st := keyStruct(t)
		if st == nil || depth > 4 {
			return false
		}
		for j := 0; j < st.NumFields(); j++ {
			if s.syncFields[fieldKey{st, j}] {
				return true
			}
			if _, isStruct := st.Field(j).Type().Underlying().(*types.Struct); isStruct && holds(st.Field(j).Type(), depth+1) {
				return true
			}
		}
		return false
	}
	return holds(derefType(addr.Type()), 0)
}

func fieldKeyOf(fa *ssa.FieldAddr) (fieldKey, bool) {
	pt, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return fieldKey{}, false
	}
	if _, ok := pt.Elem().Underlying().(*types.Struct); !ok {
		return fieldKey{}, false
	}
	return fieldKey{keyStruct(pt.Elem()), fa.Field}, true
}

// keyStruct is the struct type that identifies t's fields: that of the
// generic type when t is an instance of one, so that the methods of a
// generic type, each with its own type parameters, name the same fields.
func keyStruct(t types.Type) *types.Struct {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		t = n.Origin()
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

// lastFieldKey returns the struct field that holds v, for a field path.
func lastFieldKey(v *annotations.SyncVar) (fieldKey, bool) {
	if len(v.Fields) == 0 {
		return fieldKey{}, false
	}
	t := v.Root.Type()
	for i, f := range v.Fields {
		st, ok := derefType(t).Underlying().(*types.Struct)
		if !ok {
			return fieldKey{}, false
		}
		idx := -1
		for j := 0; j < st.NumFields(); j++ {
			if st.Field(j) == f {
				idx = j
			}
		}
		if idx < 0 {
			return fieldKey{}, false
		}
		if i == len(v.Fields)-1 {
			return fieldKey{keyStruct(derefType(t)), idx}, true
		}
		t = f.Type()
	}
	return fieldKey{}, false
}

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// mayWriteDynamic reports whether a dynamic call with signature sig (of a
// method named name, for an interface call) may reach a writer.
// Signatures are compared without their receivers, and up to type
// parameters: a method of a generic type, or a call from generic code,
// names the types of its signature with its own type parameters, which
// may be instantiated to anything.
func (s *summaries) mayWriteDynamic(name string, sig *types.Signature) bool {
	same := func(a, b *types.Signature) bool {
		return sameUpToTypeParams(types.NewSignatureType(nil, nil, nil, a.Params(), a.Results(), a.Variadic()),
			types.NewSignatureType(nil, nil, nil, b.Params(), b.Results(), b.Variadic()), 0)
	}
	if name != "" {
		for _, w := range s.dynWriters[name] {
			if same(w, sig) {
				return true
			}
		}
		return false
	}
	for _, w := range s.valueWriters {
		if same(w, sig) {
			return true
		}
	}
	return false
}

// sameUpToTypeParams reports whether x and y may be the same type once
// their type parameters are instantiated: identical where neither has a
// type parameter, with the same structure elsewhere.
func sameUpToTypeParams(x, y types.Type, depth int) bool {
	if types.Identical(x, y) {
		return true
	}
	x, y = types.Unalias(x), types.Unalias(y)
	_, xp := x.(*types.TypeParam)
	_, yp := y.(*types.TypeParam)
	if xp || yp || depth > 8 {
		return true
	}
	rec := func(a, b types.Type) bool { return sameUpToTypeParams(a, b, depth+1) }
	tuples := func(a, b *types.Tuple) bool {
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !rec(a.At(i).Type(), b.At(i).Type()) {
				return false
			}
		}
		return true
	}
	switch x := x.(type) {
	case *types.Pointer:
		y, ok := y.(*types.Pointer)
		return ok && rec(x.Elem(), y.Elem())
	case *types.Slice:
		y, ok := y.(*types.Slice)
		return ok && rec(x.Elem(), y.Elem())
	case *types.Array:
		y, ok := y.(*types.Array)
		return ok && x.Len() == y.Len() && rec(x.Elem(), y.Elem())
	case *types.Map:
		y, ok := y.(*types.Map)
		return ok && rec(x.Key(), y.Key()) && rec(x.Elem(), y.Elem())
	case *types.Chan:
		y, ok := y.(*types.Chan)
		return ok && x.Dir() == y.Dir() && rec(x.Elem(), y.Elem())
	case *types.Signature:
		y, ok := y.(*types.Signature)
		return ok && x.Variadic() == y.Variadic() && tuples(x.Params(), y.Params()) && tuples(x.Results(), y.Results())
	case *types.Named:
		y, ok := y.(*types.Named)
		if !ok || x.Origin() != y.Origin() {
			return false
		}
		xa, ya := x.TypeArgs(), y.TypeArgs()
		if xa.Len() != ya.Len() {
			return true // the generic type itself and an instance of it
		}
		for i := 0; i < xa.Len(); i++ {
			if !rec(xa.At(i), ya.At(i)) {
				return false
			}
		}
		return true
	case *types.Struct:
		y, ok := y.(*types.Struct)
		if !ok || x.NumFields() != y.NumFields() {
			return false
		}
		for i := 0; i < x.NumFields(); i++ {
			if x.Field(i).Name() != y.Field(i).Name() || !rec(x.Field(i).Type(), y.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Interface:
		_, ok := y.(*types.Interface)
		return ok // not compared further: may be the same
	}
	return false
}
