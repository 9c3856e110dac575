package explore

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/ccvet/ccvet/compho"
)

// A Counterexample is an execution that violates an invariant.
type Counterexample struct {
	// Invariant is the name of the violated invariant, Err what it said.
	Invariant string
	Err       error
	// Initial is the index, in Model.Initial, of the initial state (0
	// for a sampled run).
	Initial int
	// Steps are the steps of the execution, in order.
	Steps []TraceStep
	// Network is the name of the network assumption, or says which
	// sampled run it is.
	Network string
	// Init lists the variables of each process in the initial state.
	Init [][]Var
}

// A TraceStep is one global step of a counterexample.
type TraceStep struct {
	// Positions are where each process executes the step (see
	// compho.Step.Position); Sources the file:line of those rounds.
	Positions []compho.Position
	Sources   []string
	// Cands[p] are the candidate senders of receiver p, Heard[p] its HO
	// set: the messages of Cands[p] not in Heard[p] were lost.
	Cands, Heard []compho.Set
	// Changed[p] lists the variables of process p the step changed.
	Changed [][]Change
}

// A Var is a variable of a process and its value, as printed by %v.
type Var struct{ Name, Value string }

// A Change is a variable that a step changed.
type Change struct{ Name, Old, New string }

// Script returns the HO sets of the execution in the form of
// compho.Scripted: replayed from the initial state with
// compho.Run(procs, compho.Config{Adversary: compho.Scripted(c.Script(), nil)}),
// it runs the same steps. Steps past the end lose nothing.
func (c *Counterexample) Script() []map[compho.PID][]compho.PID {
	script := make([]map[compho.PID][]compho.PID, len(c.Steps))
	for i, st := range c.Steps {
		script[i] = make(map[compho.PID][]compho.PID)
		for p, h := range st.Heard {
			if st.Cands[p] != 0 {
				script[i][compho.PID(p)] = h.PIDs()
			}
		}
	}
	return script
}

// Losses returns the number of messages lost in the execution.
func (c *Counterexample) Losses() (lost int) {
	for _, st := range c.Steps {
		for p := range st.Heard {
			lost += (st.Cands[p] &^ st.Heard[p]).Len()
		}
	}
	return lost
}

func setString(s compho.Set) string {
	ps := s.PIDs()
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprint(int(p))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// String prints the counterexample as a lock-step trace: for each step,
// the round (by its name, with the file:line of the round in the source
// when make-HO recorded it), the messages lost (receiver ← senders; the
// other messages were delivered), and the variables each process
// changed.
func (c *Counterexample) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s violated after %d steps (network: %s): %v\n", c.Invariant, len(c.Steps), c.Network, c.Err)
	fmt.Fprintf(&b, "initial state %d:\n", c.Initial)
	for p, vs := range c.Init {
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = v.Name + "=" + v.Value
		}
		fmt.Fprintf(&b, "  p%d: %s\n", p, strings.Join(parts, " "))
	}
	for i, st := range c.Steps {
		fmt.Fprintf(&b, "step %d: %s\n", i, positionsString(st))
		var lost []string
		for p := range st.Heard {
			if l := st.Cands[p] &^ st.Heard[p]; l != 0 {
				lost = append(lost, fmt.Sprintf("%d←%s", p, setString(l)))
			}
		}
		if len(lost) == 0 {
			b.WriteString("  no loss\n")
		} else {
			fmt.Fprintf(&b, "  lost: %s\n", strings.Join(lost, " "))
		}
		for p, ch := range st.Changed {
			if len(ch) == 0 {
				continue
			}
			parts := make([]string, len(ch))
			for j, x := range ch {
				parts[j] = fmt.Sprintf("%s %s → %s", x.Name, x.Old, x.New)
			}
			fmt.Fprintf(&b, "  p%d: %s\n", p, strings.Join(parts, ", "))
		}
	}
	return b.String()
}

func positionString(pos compho.Position, src string) string {
	s := fmt.Sprintf("%s phase %d", pos.RoundName, pos.Phase)
	if pos.Depth > 0 {
		s = fmt.Sprintf("%s %s", strings.TrimPrefix(pos.Machine, "*"), s)
	}
	if src != "" {
		s += " (" + src + ")"
	}
	return s
}

// positionsString prints the round of a step: once if every running
// process executes the same, else per process.
func positionsString(st TraceStep) string {
	var first string
	same := true
	var parts []string
	for p, pos := range st.Positions {
		var s string
		switch {
		case pos.Halted:
			s = "finished"
		case pos.Waiting:
			s = "waits"
		default:
			s = positionString(pos, st.Sources[p])
			if first == "" {
				first = s
			} else if s != first {
				same = false
			}
		}
		parts = append(parts, fmt.Sprintf("p%d %s", p, s))
	}
	if same && first != "" {
		return first
	}
	return strings.Join(parts, "; ")
}

// counterexample rebuilds the execution that reaches v's state: the path
// of parents, each step found again by expanding the parent.
func counterexample[M compho.Machine](e *engine, m Model[M], v *violation) (*Counterexample, error) {
	var path []int
	for i := v.state; i >= 0; i = int(e.parent[i]) {
		path = append(path, i)
	}
	slices.Reverse(path)
	root := path[0]
	cex := &Counterexample{Invariant: v.inv, Err: v.err, Initial: int(e.seq[root]), Network: e.net.Name()}
	ids, _ := e.unpack(e.key(root))
	sys, err := compho.Assemble(e.locals(ids), 0)
	if err != nil {
		return nil, err
	}
	before := make([][]Var, e.n)
	for p := range e.n {
		before[p] = vars(sys.Root(compho.PID(p)))
	}
	cex.Init = slices.Clone(before)
	w := newWorker(e)
	for i := 1; i < len(path); i++ {
		parent, child := e.key(path[i-1]), e.key(path[i])
		var ho []compho.Set
		ids, mon := e.unpack(parent)
		err := w.expand(ids, mon, i-1, func(s succ) bool {
			if slices.Equal(s.key, child) {
				ho = slices.Clone(s.ho)
				return false
			}
			return true
		})
		if err != nil {
			return nil, err
		}
		if ho == nil {
			return nil, fmt.Errorf("explore: step %d of the counterexample not found again", i-1)
		}
		st := TraceStep{Positions: make([]compho.Position, e.n), Sources: make([]string, e.n), Heard: ho, Changed: make([][]Change, e.n)}
		for p := range e.n {
			st.Positions[p] = sys.Position(compho.PID(p))
			st.Sources[p] = sys.Source(compho.PID(p))
		}
		cands, running, err := sys.Begin()
		if err != nil {
			return nil, err
		}
		st.Cands = cands
		for p := range e.n {
			if running[p] {
				if _, err := sys.Update(compho.PID(p), ho[p]); err != nil {
					return nil, err
				}
			}
		}
		if err := sys.Finish(); err != nil {
			return nil, err
		}
		if m.Normalize != nil {
			procs := make([]M, e.n)
			for p := range procs {
				procs[p] = sys.Root(compho.PID(p)).(M)
			}
			if m.Normalize(procs, false) {
				m.Normalize(procs, true)
			}
		}
		for p := range e.n {
			after := vars(sys.Root(compho.PID(p)))
			st.Changed[p] = diff(before[p], after)
			before[p] = after
		}
		cex.Steps = append(cex.Steps, st)
	}
	return cex, nil
}

// vars lists the variables of a machine: the fields of the struct it
// points to, and one level down those of the structs its fields point to
// (the process struct of a machine make-HO wrote), as name=value. The
// environment (channels, functions, interfaces with methods, and, inside
// the process struct, pointers to structs holding a lock or channels) is
// left out.
func vars(m any) []Var {
	var out []Var
	var walk func(prefix string, v reflect.Value, depth int)
	walk = func(prefix string, v reflect.Value, depth int) {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return
		}
		t := v.Type()
		for i := range t.NumField() {
			f, fv := t.Field(i), v.Field(i)
			if f.Anonymous && fv.Kind() == reflect.Struct {
				walk(prefix, fv, depth)
				continue
			}
			switch fv.Kind() {
			case reflect.Chan, reflect.Func, reflect.UnsafePointer:
				continue
			case reflect.Interface:
				if fv.Type().NumMethod() > 0 {
					continue
				}
			case reflect.Pointer:
				if depth < 1 && fv.Type().Elem().Kind() == reflect.Struct {
					walk(prefix+f.Name+".", fv, depth+1)
					continue
				}
				if shared(fv.Type().Elem()) {
					continue
				}
			case reflect.Slice:
				if k := fv.Type().Elem().Kind(); k == reflect.Chan || k == reflect.Func {
					continue
				}
			}
			out = append(out, Var{prefix + f.Name, show(fv)})
		}
	}
	walk("", reflect.ValueOf(m), 0)
	return out
}

// shared reports whether t is a struct that holds a lock or channels (a
// network, say): a pointer to one, inside the process struct, is the
// environment, which make-HO's Key leaves out too.
func shared(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		ft := t.Field(i).Type
		if ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Chan || ft.PkgPath() == "sync" {
			return true
		}
	}
	return false
}

// show renders a value: strings quoted, unexported fields included,
// maps sorted.
func show(v reflect.Value) string { return reflectString(v) }

func reflectString(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return fmt.Sprint(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprint(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return fmt.Sprint(v.Uint())
	case reflect.Float32, reflect.Float64:
		return fmt.Sprint(v.Float())
	case reflect.String:
		return fmt.Sprintf("%q", v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return "[]"
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = reflectString(v.Index(i))
		}
		return "[" + strings.Join(parts, " ") + "]"
	case reflect.Map:
		var parts []string
		for it := v.MapRange(); it.Next(); {
			parts = append(parts, reflectString(it.Key())+":"+reflectString(it.Value()))
		}
		slices.Sort(parts)
		return "map[" + strings.Join(parts, " ") + "]"
	case reflect.Struct:
		parts := make([]string, v.NumField())
		for i := range parts {
			parts[i] = v.Type().Field(i).Name + ":" + reflectString(v.Field(i))
		}
		return "{" + strings.Join(parts, " ") + "}"
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return reflectString(v.Elem())
	}
	return v.Type().String()
}

// diff lists the variables whose values differ between before and after.
func diff(before, after []Var) []Change {
	old := make(map[string]string, len(before))
	for _, v := range before {
		old[v.Name] = v.Value
	}
	var out []Change
	for _, v := range after {
		if o, ok := old[v.Name]; !ok || o != v.Value {
			out = append(out, Change{v.Name, o, v.Value})
		}
	}
	return out
}
