package makeho

import (
	"fmt"
	"go/types"
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
	msg := g.u.ann.MsgOf(inbox.Msg.Type())
	if msg == nil {
		return "", fmt.Sprintf("the message field %s of the envelope has no //sync:msg tag", inbox.Msg.Name())
	}
	var msgTag []string
	for _, c := range msg.Components {
		if c.Kind != annotations.Field {
			return "", fmt.Sprintf("the tag component %s of %s is not a field", c.Text, msg.Type.Name())
		}
		msgTag = append(msgTag, fmt.Sprintf("int(e.%s.%s)", inbox.Msg.Name(), c.Text))
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
		msgTag = append(msgTag, "0")
	}
	if len(msgTag) != len(tag) {
		return "", fmt.Sprintf("the tag of %s has %d components, the loop's %d", msg.Type.Name(), len(msgTag), len(tag))
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
	where := func(%s %s) lockstep.Where {
		return lockstep.TagWhere(compho.Tag{%s})
	}
	state := func(%s %s) string {
		return fmt.Sprintf(%q%s)
	}
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
			return compho.PID(e.%s), lockstep.TagWhere(compho.Tag{%s})
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
	t.Logf("%%d process runs compared, %%d changed state, %%d differ", res.Runs, res.Changed, res.Differ)
}

`, exported(hook), fn, T, exported(hook), hook, hook,
		r, P, strings.Join(tag, ", "),
		r, P, strings.Join(fmts, " "), prefixed(names),
		P, E, T,
		E, E, P,
		r, callArgs, r, inbox.Field.Name(), r, peers.Field.Name(),
		r, r, g.fn.Name.Name, strings.Join(args, ", "),
		T,
		r, callArgs, r, peers.Field.Name(), E, exported(T), r, callArgs,
		T, g.hoisted[g.recv],
		E, inbox.From.Name(), strings.Join(msgTag, ", "),
		T, g.hoisted[g.recv])
	return b.String(), ""
}

// prefixed renders ", a, b" for a list, "" for none.
func prefixed(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return ", " + strings.Join(xs, ", ")
}
