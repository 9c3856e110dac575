package makeho

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"github.com/ccvet/ccvet/annotations"
)

// Differential tests (ccvet makeho -difftest). For a loop of a method of
// the process (func (p *Proc) Run(...)) whose inbox and peers table are
// fields of the process, over envelopes that carry the sender, make-HO
// can write the whole differential test but the inputs: a
// TestDifferential<F> that runs the asynchronous method and the
// generated machine side by side with lockstep.Diff (positions from the
// tag variables and the messages' tags, state from the process's fields),
// and a variable diff<F> in which a test of the user sets the number of
// processes, the timeout and the function that builds process i.

// DiffSuffix ends the name of the file of the differential tests of the
// machines of a source file: x.go gets x_compho_diff_test.go.
const DiffSuffix = "_compho_diff_test.go"

// diffTest returns the differential test of the loop's machine, or why
// it cannot be written.
func (g *loopGen) diffTest() (string, string) {
	fn := annotations.FuncName(g.fn)
	if g.recv == nil || !g.recvPtr {
		return "", "the loop is not in a method of the process with a pointer receiver"
	}
	if g.outer != nil || g.calls != nil {
		return "", "nested machines are compared by lockstep.RunNested with positions of both loops"
	}
	st, ok := g.recv.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return "", "the process is not a struct"
	}
	var inbox, peers *annotations.ChanField
	var stateFields []*types.Var
	for i := range st.NumFields() {
		f := st.Field(i)
		switch cf := g.chanOf(f); {
		case cf != nil && cf.Role == annotations.Inbox:
			inbox = cf
		case cf != nil && cf.Role == annotations.Peers:
			peers = cf
		case !isEnvType(f.Type()):
			stateFields = append(stateFields, f)
		}
	}
	if inbox == nil || peers == nil {
		return "", "its inbox and peers table are not both fields of the process"
	}
	in, ok := inbox.Field.Type().Underlying().(*types.Chan)
	if !ok || len(inbox.Chans) != 1 {
		return "", fmt.Sprintf("its inbox %s is not one channel", inbox.Field.Name())
	}
	sl, ok := peers.Field.Type().Underlying().(*types.Slice)
	if !ok {
		return "", fmt.Sprintf("its peers table %s is not a slice", peers.Field.Name())
	}
	out, ok := sl.Elem().Underlying().(*types.Chan)
	if !ok || !types.Identical(out.Elem(), in.Elem()) || out.Dir() == types.RecvOnly || in.Dir() == types.SendOnly {
		return "", "its peers table is not a slice of channels of what its inbox carries"
	}
	if inbox.From == nil || inbox.Msg == nil {
		return "", "its channels carry messages without their sender (lockstep needs an envelope with the sender's identity)"
	}
	msgCase, why := g.diffMessage(inbox.Msg)
	if why != "" {
		return "", why
	}
	r := g.recv.Name()
	var tag []string
	vars := append(append([]*annotations.SyncVar{}, g.phases...), g.round)
	if g.single {
		vars = g.phases
	}
	for _, v := range vars {
		if v.Root != g.recv {
			return "", fmt.Sprintf("the tag variable %s is not a field of the process", v.Name)
		}
		tag = append(tag, "int("+v.Name+")")
	}
	if g.single {
		tag = append(tag, "0")
	}
	if msgCase.n != len(tag) {
		return "", fmt.Sprintf("the tags of its messages have %d components, the loop's %d", msgCase.n, len(tag))
	}

	qual := g.qualifier()
	P := types.TypeString(g.recv.Type(), qual)
	E := types.TypeString(in.Elem(), qual)
	T := g.typeName
	var params, args []string
	sig := g.info.Defs[g.fn.Name].Type().(*types.Signature)
	for i := range sig.Params().Len() {
		v := sig.Params().At(i)
		name := v.Name()
		if name == "" || name == "_" || name == r {
			name = fmt.Sprintf("arg%d", i)
		}
		params = append(params, name+" "+types.TypeString(v.Type(), qual))
		args = append(args, name)
	}
	var names, fmts []string
	for _, f := range stateFields {
		names = append(names, r+"."+f.Name())
		fmts = append(fmts, f.Name()+"=%v")
	}
	hook := "diff" + exported(strings.NewReplacer("(", "", ")", "", "*", "", ".", "").Replace(fn))
	setup := fmt.Sprintf("func(i, n int) (%s %s%s)", r, P, prefixed(params))
	callArgs := prefixed(args)

	var b strings.Builder
	fmt.Fprintf(&b, `// %s configures Test%s, the differential test of the loop of
// %s (%s) and its machine %s: set Setup in a test file of yours, e.g. in an
// init function, to the function that returns process i of a run of n, with
// its inputs, and the arguments of %s; the test sets the inbox and the peers
// table. Until then the test is skipped.
var %s struct {
	N       int           // the number of processes; 0 means 4
	Timeout time.Duration // the longest reception timeout of the code; 0 means a second
	Seeds   int           // random-loss seeds; 0 means 10
	Setup   %s
}

`, hook, exported(hook), fn, lineOf(g.fset, g.loop.Pos()), T, fn, hook, setup)
	fmt.Fprintf(&b, `// Test%s runs %s and its machine %s side by side (lockstep.Diff) under no
// loss, random loss and lossy-synchronous adversaries, and checks that every
// process goes through the same states, up to stuttering.
func Test%s(t *testing.T) {
	cfg := %s
	if cfg.Setup == nil {
		t.Skip("set %s.Setup in a test file to run the differential test")
	}
	n, timeout, seeds := cmp.Or(cfg.N, 4), cmp.Or(cfg.Timeout, time.Second), cmp.Or(cfg.Seeds, 10)
	where, state := %sWhere, %sState
	d := &lockstep.Diff[%s, %s, *%s]{
		N: n, Timeout: timeout,
		Async: func(i int, in chan %s, out []chan<- %s) (%s, func(context.Context)) {
			%s%s := cfg.Setup(i, n)
			%s.%s, %s.%s = in, out
			return %s, func(context.Context) { %s.%s(%s) }
		},
		Machine: func(i int) *%s {
			%s%s := cfg.Setup(i, n)
			%s.%s = make([]chan<- %s, n)
			return New%s(%s%s)
		},
		Where:        where,
		MachineWhere: func(m *%s) lockstep.Where { return where(m.%s) },
		Message: func(e %s) (compho.PID, lockstep.Where) {
			%s
		},
		State:        state,
		MachineState: func(m *%s) string { return state(m.%s) },
	}
	advs, err := lockstep.DiffAdversaries(n, seeds)
	if err != nil {
		t.Fatal(err)
	}
	res := d.Run(t, advs)
	for _, e := range res.Errors {
		t.Error(e)
	}
	if res.Differ > 0 {
		t.Errorf("%%d of %%d process runs differ; the first:\n%%s", res.Differ, res.Runs, res.First)
	}
	t.Logf("%%d process runs compared, %%d changed state, %%d differ (%%d equal up to stuttering); %%d partial receptions", res.Runs, res.Changed, res.Differ, res.Exact, res.Partial)
}

`, exported(hook), fn, T, exported(hook), hook, hook,
		hook, hook,
		P, E, T,
		E, E, P,
		r, callArgs, r, inbox.Field.Name(), r, peers.Field.Name(),
		r, r, g.fn.Name.Name, strings.Join(args, ", "),
		T,
		r, callArgs, r, peers.Field.Name(), E, exported(T), r, callArgs,
		T, g.hoisted[g.recv],
		E, msgCase.body(inbox.From.Name(), g.single),
		T, g.hoisted[g.recv])
	// The position and the state of a process are read while every
	// process is blocked (synctest.Wait), which the race detector does not
	// see as synchronization.
	fmt.Fprintf(&b, `// %sWhere is the position of a process: its tag.
//
//go:norace
func %sWhere(%s %s) lockstep.Where {
	return lockstep.TagWhere(compho.Tag{%s})
}

// %sState renders the state of a process that the test compares.
//
//go:norace
func %sState(%s %s) string {
	return fmt.Sprintf(%q%s)
}

`, hook, hook, r, P, strings.Join(tag, ", "), hook, hook, r, P, strings.Join(fmts, " "), prefixed(names))
	return b.String(), ""
}

// prefixed renders ", a, b" for a list, "" for none.
func prefixed(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return ", " + strings.Join(xs, ", ")
}

// A diffMsg renders the tag of the message of an envelope, in the
// differential test: of one //sync:msg type, or a type switch over the
// //sync:msg types an interface field holds.
type diffMsg struct {
	n     int      // components
	field string   // the envelope's message field
	one   []string // the components, for a message of one type
	cases []string // "case T:\ntag = compho.Tag{...}", for an interface
}

// body renders the Message function's body, from the envelope e.
func (d *diffMsg) body(from string, single bool) string {
	zero := ""
	if single {
		zero = ", 0"
	}
	if d.cases == nil {
		return fmt.Sprintf("return compho.PID(e.%s), lockstep.TagWhere(compho.Tag{%s%s})", from, strings.Join(d.one, ", "), zero)
	}
	ret := "tag"
	if single {
		ret = "append(tag, 0)"
	}
	return fmt.Sprintf("var tag compho.Tag\nswitch m := e.%s.(type) {\n%s\n}\nreturn compho.PID(e.%s), lockstep.TagWhere(%s)",
		d.field, strings.Join(d.cases, "\n"), from, ret)
}

// diffMessage returns how the test reads the tag of the messages of the
// envelope field f, or why it cannot.
func (g *loopGen) diffMessage(f *types.Var) (*diffMsg, string) {
	comps := func(m *annotations.Msg, x string) ([]string, string) {
		var out []string
		for _, c := range m.Components {
			switch c.Kind {
			case annotations.Field:
				out = append(out, fmt.Sprintf("int(%s.%s)", x, c.Text))
			case annotations.Method:
				out = append(out, fmt.Sprintf("int(%s.%s)", x, c.Text))
			case annotations.Const:
				if c.Const == nil {
					return nil, fmt.Sprintf("the tag component %s of %s is a constant of a package the test does not see", c.Text, m.Type.Name())
				}
				out = append(out, fmt.Sprintf("int(%s)", c.Text))
			default:
				return nil, fmt.Sprintf("the tag component %s of %s is neither a field, a method nor a constant", c.Text, m.Type.Name())
			}
		}
		return out, ""
	}
	d := &diffMsg{field: f.Name()}
	if m := g.u.ann.MsgOf(f.Type()); m != nil && !m.Interface() {
		one, why := comps(m, "e."+f.Name())
		if why != "" {
			return nil, why
		}
		d.one, d.n = one, len(one)
		return d, ""
	}
	iface, ok := f.Type().Underlying().(*types.Interface)
	if !ok {
		return nil, fmt.Sprintf("the message field %s of the envelope has no //sync:msg tag", f.Name())
	}
	// The //sync:msg types of the package the field can hold, in source
	// order, by value and by pointer.
	var msgs []*annotations.Msg
	for _, m := range g.u.ann.Msgs {
		if m.Type.Pkg() == g.u.pass.Pkg && !m.Interface() {
			msgs = append(msgs, m)
		}
	}
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].Type.Pos() < msgs[j].Type.Pos() })
	qual := g.qualifier()
	d.n = -1
	for _, m := range msgs {
		for _, t := range []types.Type{m.Type.Type(), types.NewPointer(m.Type.Type())} {
			if !types.Implements(t, iface) {
				continue
			}
			c, why := comps(m, "m")
			if why != "" {
				return nil, why
			}
			if d.n >= 0 && len(c) != d.n {
				return nil, fmt.Sprintf("the tags of the messages %s holds have different lengths", f.Name())
			}
			d.n = len(c)
			d.cases = append(d.cases, fmt.Sprintf("case %s:\ntag = compho.Tag{%s}", types.TypeString(t, qual), strings.Join(c, ", ")))
		}
	}
	if len(d.cases) == 0 {
		return nil, fmt.Sprintf("no //sync:msg type of the package fits the message field %s of the envelope", f.Name())
	}
	return d, ""
}
