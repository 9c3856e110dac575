package tagflow

import (
	"go/ast"
	"go/token"
	"go/types"

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
	// dynWrites is set when some function that may be called dynamically
	// (a method, or a function whose value is taken) writes a sync field.
	dynWriters map[string][]*types.Signature // methods that write, by name
	// genericWriters are the names of writing methods of generic types,
	// whose signatures mention type parameters that an interface call's
	// signature names differently: they match any call of that name.
	genericWriters map[string]bool
	// valueWriters are the signatures of writers used as function values.
	valueWriters []*types.Signature
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

		genericWriters: make(map[string]bool),
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
	comm := make(map[*ssa.Function]bool)
	// reads holds the functions that read a synchronization field or
	// package variable (directly, or by calling one that returns an
	// integer or a boolean read from one).
	reads := make(map[*ssa.Function]bool)
	callees := make(map[*ssa.Function][]*ssa.Function)
	var all []*ssa.Function
	for _, f := range funcs {
		all = append(all, f)
	}
	for _, f := range all {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					if s.isSyncAddr(instr.Addr) || s.holdsSync(instr.Addr) {
						s.writes[f] = true
					}
				case *ssa.FieldAddr:
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
				case *ssa.UnOp:
					if instr.Op == token.ARROW {
						comm[f] = true
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
					if callee := common.StaticCallee(); callee != nil && callee.Pkg == f.Pkg && callee.Blocks != nil {
						callees[f] = append(callees[f], callee)
					}
					if fn := calleeObj(common); fn != nil && ann.CommOf(fn) != nil {
						comm[f] = true
					}
				}
			}
		}
		res := f.Signature.Results()
		for i := 0; i < res.Len(); i++ {
			if ann.MsgOf(res.At(i).Type()) != nil {
				s.relevant[f] = true // builds a message
			}
		}
		// A predicate (p.accepts(m)): inlined so that its comparisons
		// count as the caller's filter.
		if res.Len() == 1 && types.Identical(res.At(0).Type().Underlying(), types.Typ[types.Bool]) && f.Signature.Params().Len() > 0 {
			s.relevant[f] = true
		}
	}
	// Close over static calls.
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
	}
	// Functions used as values (not just called) may be called dynamically.
	asValue := make(map[*ssa.Function]bool)
	for _, f := range all {
		if f.Parent() != nil {
			asValue[f] = true
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				var ops []*ssa.Value
				ops = instr.Operands(ops)
				if call, ok := instr.(ssa.CallInstruction); ok && !call.Common().IsInvoke() {
					ops = ops[1:] // the callee itself
				}
				for _, op := range ops {
					if fn, ok := (*op).(*ssa.Function); ok {
						asValue[fn] = true
					}
				}
			}
		}
	}
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
		if s.writes[f] {
			if f.Signature.Recv() != nil {
				s.dynWriters[f.Name()] = append(s.dynWriters[f.Name()], f.Signature)
				if isGenericMethod(f) {
					s.genericWriters[f.Name()] = true
				}
			}
			if asValue[f] {
				s.valueWriters = append(s.valueWriters, f.Signature)
			}
		}
	}
	return s
}

// trackedResult reports whether f returns an integer or a boolean, the
// values the engine relates to the tag.
func trackedResult(f *ssa.Function) bool {
	res := f.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		if isTracked(res.At(i).Type()) {
			return true
		}
	}
	return false
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
func (s *summaries) mayWriteDynamic(name string, sig *types.Signature) bool {
	same := func(a, b *types.Signature) bool {
		return types.Identical(types.NewSignatureType(nil, nil, nil, a.Params(), a.Results(), a.Variadic()),
			types.NewSignatureType(nil, nil, nil, b.Params(), b.Results(), b.Variadic()))
	}
	if name != "" {
		if s.genericWriters[name] {
			return true
		}
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

// isGenericMethod reports whether f is a method of a generic type (or an
// instance of one).
func isGenericMethod(f *ssa.Function) bool {
	if f.TypeParams().Len() > 0 || f.Origin() != nil {
		return true
	}
	recv := f.Signature.Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && (n.TypeParams().Len() > 0 || n.TypeArgs().Len() > 0)
}
