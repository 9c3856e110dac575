package makeho

import (
	"bytes"
	"fmt"
	"go/types"
	"strings"
)

// emitClone writes the machine's Clone method (compho.Cloner): a copy of
// the machine whose data it does not share with the original. The
// process struct the loop runs on is copied with compho.CopyPointee, the
// other fields that hold references with compho.CopyOf; one Copier per
// process keeps a nested machine and its caller on the same copy.
func (g *loopGen) emitClone(b *bytes.Buffer, fields []field) {
	var body strings.Builder
	fmt.Fprintf(&body, "c := *%s\n", g.mName)
	for _, f := range fields {
		switch {
		case g.isRecvField(f):
			fmt.Fprintf(&body, "c.%s = compho.CopyPointee(cp, %s.%s)\n", f.name, g.mName, f.name)
		case f.t == nil || isScalar(f.t) || isEnvType(f.t) || types.IsInterface(f.t) && !types.Identical(f.t.Underlying(), types.NewInterfaceType(nil, nil)):
		default:
			fmt.Fprintf(&body, "c.%s = compho.CopyOf(cp, %s.%s)\n", f.name, g.mName, f.name)
		}
	}
	body.WriteString("return &c")
	fmt.Fprintf(b, "// Clone returns a copy of the machine that shares no data with it\n// (compho.Cloner); the environment (channels, functions, networks) is shared.\nfunc (%s *%s) Clone(cp *compho.Copier) compho.Machine {\n%s\n}\n\n", g.mName, g.typeName, body.String())
}

// emitKey writes the machine's Key method (compho.Keyer): every
// variable of the loop, those of the process struct it runs on included,
// except the environment; the phase variable of the loop's tag and the
// loop's iteration count are counters (compho.Counter), which an
// exploration may abstract.
func (g *loopGen) emitKey(b *bytes.Buffer, fields []field) {
	var body strings.Builder
	var env []string
	m := g.mName
	for _, f := range fields {
		expr := m + "." + f.name
		switch {
		case f.t == nil:
			fmt.Fprintf(&body, "k.Bool(%s)\n", expr)
		case g.isRecvField(f):
			st, _ := f.t.Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
			if st == nil {
				fmt.Fprintf(&body, "k.Value(%s)\n", expr)
				continue
			}
			fmt.Fprintf(&body, "k.Bool(%s == nil)\nif %s != nil {\n", expr, expr)
			for i := range st.NumFields() {
				v := st.Field(i)
				switch {
				case v.Name() == "_":
				case isEnvType(v.Type()):
					env = append(env, g.recv.Name()+"."+v.Name())
				case g.isPhase(v):
					fmt.Fprintf(&body, "compho.Counter(k, &%s.%s) // the phase\n", expr, v.Name())
				default:
					body.WriteString(keyStmt(v.Type(), expr+"."+v.Name()))
				}
			}
			body.WriteString("}\n")
		case isEnvType(f.t):
			env = append(env, f.name)
		case f.name == g.iterField && isInteger(f.t):
			fmt.Fprintf(&body, "compho.Counter(k, &%s) // iterations done\n", expr)
		case g.phase != nil && len(g.phases) == 1 && len(g.phase.Fields) == 0 && g.hoisted[g.phase.Root] == f.name && isInteger(f.t):
			fmt.Fprintf(&body, "compho.Counter(k, &%s) // the phase\n", expr)
		default:
			body.WriteString(keyStmt(f.t, expr))
		}
	}
	fmt.Fprintf(&body, "k.Bool(%s.halted)\n", m)
	if g.calls != nil {
		fmt.Fprintf(&body, "k.Bool(%s.calling)\n", m)
	}
	doc := "Key writes the state of the machine to k (compho.Keyer): its variables,\n// the phase and the iteration count as counters (reset when abstracted)."
	if len(env) > 0 {
		doc += " The environment is left out: " + strings.Join(env, ", ") + "."
	}
	fmt.Fprintf(b, "// %s\nfunc (%s *%s) Key(k *compho.Key) {\n%s}\n\n", doc, m, g.typeName, body.String())
}

// isRecvField reports whether f holds the loop's pointer receiver.
func (g *loopGen) isRecvField(f field) bool {
	return g.recv != nil && g.recvPtr && g.hoisted[g.recv] == f.name
}

// isPhase reports whether v is the field of the pointer receiver that is
// the phase variable of the loop's tag.
func (g *loopGen) isPhase(v *types.Var) bool {
	// A phase of several variables (height,round) is not a mere counter:
	// the inner one starts again when the outer one increases, and the
	// code compares it; it is written as a value.
	return g.phase != nil && len(g.phases) == 1 && g.phase.Root == g.recv && len(g.phase.Fields) == 1 && g.phase.Fields[0] == v && isInteger(v.Type())
}

// keyStmt renders the statement that writes expr, of type t, to k.
func keyStmt(t types.Type, expr string) string {
	u, ok := t.Underlying().(*types.Basic)
	if !ok {
		return fmt.Sprintf("k.Value(%s)\n", expr)
	}
	conv := func(to string) string {
		if t == types.Typ[u.Kind()] && to == u.Name() {
			return expr
		}
		return to + "(" + expr + ")"
	}
	switch info := u.Info(); {
	case info&types.IsBoolean != 0:
		return fmt.Sprintf("k.Bool(%s)\n", conv("bool"))
	case info&types.IsInteger != 0 && info&types.IsUnsigned != 0:
		return fmt.Sprintf("k.Uint(%s)\n", conv("uint64"))
	case info&types.IsInteger != 0:
		return fmt.Sprintf("k.Int(%s)\n", conv("int64"))
	case info&types.IsString != 0:
		return fmt.Sprintf("k.String(%s)\n", conv("string"))
	}
	return fmt.Sprintf("k.Value(%s)\n", expr)
}

// isScalar reports whether values of t hold no reference: copying them
// copies them deeply.
func isScalar(t types.Type) bool {
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

// isEnvType reports whether values of t are the environment of a process
// rather than its state: channels, functions, interfaces with methods,
// pointers to structs that hold one of those or a lock (a network), and
// containers of them. It is the rule compho.CopyOf shares by. An error
// is state: it is keyed (and shared, as an interface with methods).
func isEnvType(t types.Type) bool {
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	// A mutex (of the process, which helpers that send lock) orders
	// goroutines: it is no state of the algorithm, and must not be copied.
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	case *types.Interface:
		return u.NumMethods() > 0
	case *types.Pointer:
		st, ok := u.Elem().Underlying().(*types.Struct)
		if !ok {
			return false
		}
		for i := range st.NumFields() {
			ft := st.Field(i).Type()
			switch fu := ft.Underlying().(type) {
			case *types.Chan, *types.Signature:
				return true
			case *types.Interface:
				if fu.NumMethods() > 0 {
					return true
				}
			}
			if n, ok := ft.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" {
				return true
			}
		}
		return false
	case *types.Slice:
		return isEnvType(u.Elem())
	case *types.Array:
		return isEnvType(u.Elem())
	case *types.Map:
		return isEnvType(u.Elem())
	}
	return false
}
