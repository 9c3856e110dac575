package annotations_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestFactsExported(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), annotations.Analyzer, "facts")
	ann := results[0].Result.(*annotations.Annotations)
	if len(ann.Problems) != 0 {
		t.Fatalf("unexpected problems: %+v", ann.Problems)
	}
	var neg *annotations.Msg
	for tn, m := range ann.Msgs {
		if tn.Name() == "Neg" {
			neg = m
		}
	}
	if neg == nil || neg.Components[1].Value.String() != "-1" || neg.Partial() {
		t.Fatalf("Neg mapping = %+v, want Ballot and the constant -1", neg)
	}
	for fn, c := range ann.Comms {
		if fn.Name() == "Recv" && !c.HasOK {
			t.Errorf("Recv: HasOK = false, want true (trailing bool)")
		}
	}
}

func parseOne(t *testing.T, src string) ([]*annotations.Directive, []annotations.Problem) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package p\n"+src+"\n", parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return annotations.ScanFile(f)
}

func TestScanFile(t *testing.T) {
	for _, tc := range []struct {
		src     string
		kind    annotations.Kind
		target  string
		list    []string
		reason  string
		problem string
	}{
		{src: "//sync:tag p.ballot,p.step", kind: annotations.KindTag, list: []string{"p.ballot", "p.step"}},
		{src: "//sync:tag a, b ,c // trailing", kind: annotations.KindTag, list: []string{"a", "b", "c"}},
		{src: "//sync:msg Ballot,_,Prepare", kind: annotations.KindMsg, list: []string{"Ballot", "_", "Prepare"}},
		{src: "//sync:msg pb.Vote View.Round,Step", kind: annotations.KindMsg, target: "pb.Vote", list: []string{"View.Round", "Step"}},
		{src: "//sync:msg Ballot, Step", kind: annotations.KindMsg, list: []string{"Ballot", "Step"}},
		{src: "//sync:send", kind: annotations.KindSend},
		{src: "//sync:recv pkg.(*T).Recv", kind: annotations.KindRecv, target: "pkg.(*T).Recv"},
		{src: "//sync:ignore syncmono,syncsend the reason: see https://x", kind: annotations.KindIgnore, list: []string{"syncmono", "syncsend"}, reason: "the reason: see https://x"},
		{src: "//sync:peers", kind: annotations.KindPeers},
		{src: "//sync:inbox From,Msg // the envelope", kind: annotations.KindInbox, list: []string{"From", "Msg"}},
		{src: "//sync:inbox From", problem: "malformed //sync:inbox"},
		{src: "//sync:peers From,Msg,X", problem: "malformed //sync:peers"},
		{src: "//sync:peers a b", problem: "malformed //sync:peers"},
		{src: "//sync:tag", problem: "malformed //sync:tag"},
		{src: "//sync:tag a,,b", problem: "empty element"},
		{src: "//sync:tag a.1", problem: "is not a variable"},
		{src: "//sync:msg", problem: "malformed //sync:msg"},
		{src: "//sync:send a b", problem: "malformed //sync:send"},
		{src: "//sync:send (T).M", problem: "is not a declaration name"},
		{src: "//sync:ignore syncmono", problem: "reason is mandatory"},
		{src: "//sync:bogus", problem: "unknown directive //sync:bogus"},
		{src: "// sync:msg A", problem: "write //sync:msg, with no space"},
		{src: "//sync:tag pkg.T Hdr.View,Step", kind: annotations.KindTag, target: "pkg.T", list: []string{"Hdr.View", "Step"}},
		{src: "//sync:tag p.Get()", problem: `"p.Get()" is a method call`},
		{src: "//sync:msg Height(),ViewNumber()", kind: annotations.KindMsg, list: []string{"Height()", "ViewNumber()"}},
		{src: "//sync:msg H,Type{A:B, C:pkg.D},_", kind: annotations.KindMsg, list: []string{"H", "Type{A:B, C:pkg.D}", "_"}},
		{src: "//sync:msg pb.Vote Type(){A:B}", kind: annotations.KindMsg, target: "pb.Vote", list: []string{"Type(){A:B}"}},
		{src: "//sync:msg Type{A}", problem: `enum mapping element "A" is not From:To`},
		{src: "//sync:msg Type{A:B", problem: `enum mapping "Type{A:B" does not end with }`},
		{src: "//sync:msg Type{A:1}", problem: `"1" in an enum mapping is not a constant name`},
		{src: "//sync:msg Hdr.View()", problem: `method component "Hdr.View()" must be a method of the message itself`},
		{src: "//sync:handler", kind: annotations.KindHandler},
		{src: "//sync:handler pkg.(*T).Step", kind: annotations.KindHandler, target: "pkg.(*T).Step"},
		{src: "//sync:handler a b", problem: "malformed //sync:handler"},
		{src: "//sync:send stamps", kind: annotations.KindSend},
		{src: "//sync:send (*T).send stamps", kind: annotations.KindSend, target: "(*T).send"},
		{src: "//sync:recv stamps", problem: "stamps on //sync:recv"},
		{src: "//sync:local Term==0", kind: annotations.KindLocal, list: []string{"Term", "0"}},
		{src: "//sync:local pkg.T GetTerm() == -1 // local", kind: annotations.KindLocal, target: "pkg.T", list: []string{"GetTerm()", "-1"}},
		{src: "//sync:local Type==pb.MsgHup", kind: annotations.KindLocal, list: []string{"Type", "pb.MsgHup"}},
		{src: "//sync:local Term", problem: "malformed //sync:local"},
		{src: "//sync:local Term==0==1", problem: "malformed //sync:local"},
		{src: "//sync:local Term<0", problem: "malformed //sync:local"},
		{src: "//sync:local Term==a+b", problem: `"a+b" is not a constant or an integer literal`},
		{src: "//sync:local Type{A:B}==0", problem: "not an enum mapping"},
		{src: "// sync:nothing here", kind: 0},
		{src: "//go:generate x", kind: 0},
	} {
		dirs, probs := parseOne(t, tc.src)
		if tc.problem != "" {
			if len(probs) != 1 || !strings.Contains(probs[0].Message, tc.problem) {
				t.Errorf("%q: problems %+v, want one containing %q", tc.src, probs, tc.problem)
			}
			continue
		}
		if len(probs) != 0 {
			t.Errorf("%q: unexpected problems %+v", tc.src, probs)
			continue
		}
		if tc.kind == 0 {
			if len(dirs) != 0 {
				t.Errorf("%q: got directive %+v, want none", tc.src, dirs[0])
			}
			continue
		}
		if len(dirs) != 1 {
			t.Errorf("%q: got %d directives", tc.src, len(dirs))
			continue
		}
		d := dirs[0]
		var list []string
		for _, it := range d.List {
			list = append(list, it.Text)
		}
		target := ""
		if d.Target != nil {
			target = d.Target.Text
		}
		if d.Kind != tc.kind || target != tc.target || strings.Join(list, "|") != strings.Join(tc.list, "|") || d.Reason != tc.reason {
			t.Errorf("%q: got kind %v target %q list %q reason %q", tc.src, d.Kind, target, list, d.Reason)
		}
	}
}

// TestItemPositions checks that each item points at its own text, so that
// diagnostics underline the offending name.
func TestItemPositions(t *testing.T) {
	src := "//sync:tag alpha,  beta,gamma"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package p\n"+src+"\n", parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := annotations.ScanFile(f)
	for _, it := range dirs[0].List {
		off := fset.Position(it.Pos).Offset - len("package p\n")
		if got := src[off : off+len(it.Text)]; got != it.Text {
			t.Errorf("item %q points at %q", it.Text, got)
		}
	}
}

// TestMapPositions checks that the items of an enum mapping point at
// their own text, and that //sync:send stamps is recorded.
func TestMapPositions(t *testing.T) {
	src := "//sync:msg H, Type{ PrevoteType:RoundStepPrevote,pkg.B : pkg.C }"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package p\n"+src+"\n//sync:send stamps\n", parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	dirs, probs := annotations.ScanFile(f)
	if len(probs) != 0 || len(dirs) != 2 {
		t.Fatalf("got %d directives and problems %+v", len(dirs), probs)
	}
	var got []string
	for _, p := range dirs[0].List[1].Map {
		for _, it := range []*annotations.Item{p.From, p.To} {
			off := fset.Position(it.Pos).Offset - len("package p\n")
			got = append(got, it.Text+"@"+src[off:off+len(it.Text)])
		}
	}
	want := "PrevoteType@PrevoteType RoundStepPrevote@RoundStepPrevote pkg.B@pkg.B pkg.C@pkg.C"
	if strings.Join(got, " ") != want {
		t.Errorf("map items %q, want %q", strings.Join(got, " "), want)
	}
	if !dirs[1].Stamps || dirs[0].Stamps {
		t.Errorf("Stamps = %v, %v; want false, true", dirs[0].Stamps, dirs[1].Stamps)
	}
}

// TestProblemFixes checks the suggested fixes of ScanFile's problems: the
// comment each gives once applied, or none where the repair is not certain.
func TestProblemFixes(t *testing.T) {
	for _, tc := range []struct{ src, fixed string }{
		{"// sync:tag a,b", "//sync:tag a,b"},
		{"//\t sync:msg A", "//sync:msg A"},
		{"//sync: tag a,b", "//sync:tag a,b"},
		{"//sync: \t ignore syncmono why", "//sync:ignore syncmono why"},
		{"//sync:tags a,b", "//sync:tag a,b"},
		{"//sync:mgs A // note", "//sync:msg A // note"},
		{"//sync:snd", "//sync:send"},
		{"//sync:ingore syncmono why", "//sync:ignore syncmono why"},
		{"//sync:receive", ""}, // three edits from recv
		{"//sync:rend", ""},    // send and recv are both two edits away
		{"//sync:Tag a", ""},   // tag and msg are both within two edits
		{"//sync:", ""},
		{"//sync: bogus", ""},
		{"//sync:tag", ""}, // malformed, but no certain repair
	} {
		_, probs := parseOne(t, tc.src)
		if len(probs) != 1 {
			t.Errorf("%q: %d problems, want 1", tc.src, len(probs))
			continue
		}
		fixes := probs[0].Fixes
		if tc.fixed == "" {
			if len(fixes) != 0 {
				t.Errorf("%q: got fix %+v, want none", tc.src, fixes)
			}
			continue
		}
		if len(fixes) != 1 || len(fixes[0].TextEdits) != 1 {
			t.Errorf("%q: fixes %+v, want one with one edit", tc.src, fixes)
			continue
		}
		// The comment starts at offset len("package p\n"), position 1+that.
		base := token.Pos(1 + len("package p\n"))
		e := fixes[0].TextEdits[0]
		got := tc.src[:e.Pos-base] + string(e.NewText) + tc.src[e.End-base:]
		if got != tc.fixed {
			t.Errorf("%q: fix %q gives %q, want %q", tc.src, fixes[0].Message, got, tc.fixed)
		}
	}
}

// FuzzScanFile checks that no comment text makes the scanner panic, and
// that every item it returns and every fix edit lies inside its comment.
func FuzzScanFile(f *testing.F) {
	for _, s := range []string{"//sync:tag a,b", "//sync:msg p.T A,_", "//sync:ignore x y", "//sync:send pkg.(*T).M", "// sync:tag", "//sync:", "//sync:msg H(),T{A:B,C:D}", "//sync:local p.T F()==-1", "//sync:send stamps", "//sync:handler (*T).M"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsAny(text, "\n\r") || !strings.HasPrefix(text, "//") {
			return
		}
		c := &ast.Comment{Slash: 100, Text: text}
		file := &ast.File{Comments: []*ast.CommentGroup{{List: []*ast.Comment{c}}}}
		dirs, probs := annotations.ScanFile(file)
		for _, d := range dirs {
			items := d.List
			if d.Target != nil {
				items = append(items, d.Target)
			}
			for _, it := range items {
				if it.Pos < c.Slash || it.End() > c.End() {
					t.Fatalf("item %q at %d..%d outside comment %d..%d", it.Text, it.Pos, it.End(), c.Slash, c.End())
				}
			}
		}
		for _, p := range probs {
			for _, fix := range p.Fixes {
				for _, e := range fix.TextEdits {
					if e.Pos < c.Slash || e.End > c.End() || e.End < e.Pos {
						t.Fatalf("fix edit %d..%d outside comment %d..%d", e.Pos, e.End, c.Slash, c.End())
					}
				}
			}
		}
	})
}

// TestChans checks the resolution of //sync:peers and //sync:inbox: the
// role, the channels reached and the envelope's fields.
func TestChans(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), annotations.Analyzer, "chanfields")
	ann := results[0].Result.(*annotations.Annotations)
	if len(ann.Problems) != 0 {
		t.Fatalf("unexpected problems: %+v", ann.Problems)
	}
	got := make(map[string]string)
	for v, cf := range ann.Chans {
		if ann.ChanOf(v) != cf {
			t.Errorf("ChanOf(%s) is not its annotation", v.Name())
		}
		env := ""
		if cf.From != nil {
			env = " " + cf.From.Name() + "," + cf.Msg.Name()
		}
		got[v.Name()] = fmt.Sprintf("%v %d%s", cf.Role, len(cf.Chans), env)
	}
	want := map[string]string{
		"in":      "//sync:inbox 1 From,Msg",
		"out":     "//sync:peers 1 From,Msg",
		"inbox":   "//sync:inbox 2",
		"byID":    "//sync:peers 2",
		"typed":   "//sync:inbox 1",
		"unnamed": "",
	}
	delete(want, "unnamed")
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestProcessForm checks the resolution of the process form and of the
// message forms of real code, in the declaring package and, through
// facts, in an importing one.
func TestProcessForm(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), annotations.Analyzer, "handlers", "handleruse", "handleruse2")
	want := map[string]string{
		"handlers": strings.Join([]string{
			"msg Message: GetTerm()=method GetTerm uint64 | Type{MsgVote:Candidate,MsgVoteResp:Candidate,MsgApp:Leader}=mapped Type MsgType->Role [1->1 2->1 3->2] | local GetTerm()==0 local Type==MsgApp",
			"msg Payload: Height()=method Height uint32 | View()=method View byte | interface",
			"process Node: hdr.Term [1 0] uint64 | role [2] Role enum 3",
			"handler (*Node).OnAny: Node 1 v",
			"handler (*Node).OnReceive: Node 0 p",
			"handler (*Node).Step: Node 1 m",
			"handler Node.Tick: Node -1 local",
			"comm send: send stamps",
		}, "\n"),
		"handleruse": strings.Join([]string{
			"msg Message: GetTerm()=method GetTerm uint64 | Type{MsgVote:Candidate,MsgVoteResp:Candidate,MsgApp:Leader}=mapped Type MsgType->Role [1->1 2->1 3->2] | local GetTerm()==0 local Type==MsgApp local From==0 imported",
			"msg Payload: Height()=method Height uint32 | View()=method View byte | interface imported",
			"process Driver: Hdr.Term [0 0] uint64 | Role [1] handlers.Role enum 3",
			"process Node: hdr.Term [1 0] uint64 | role [2] Role enum 3 imported",
			"process Replica: View [0] uint32",
			"handler (*Driver).Run: Driver 0 m",
			"handler (*Node).OnAny: Node 1 v imported",
			"handler (*Node).OnReceive: Node 0 p imported",
			"handler (*Node).Step: Node 1 m imported",
			"handler (*Replica).OnTimeout: Replica -1 local",
			"handler Node.Tick: Node -1 local imported",
			"comm send: send stamps imported",
		}, "\n"),
		"handleruse2": strings.Join([]string{
			"msg Message: GetTerm()=method GetTerm uint64 | Type{MsgVote:Candidate,MsgVoteResp:Candidate,MsgApp:Leader}=mapped Type MsgType->Role [1->1 2->1 3->2] | local GetTerm()==0 local Type==MsgApp local From==0 imported",
			"msg Payload: Height()=method Height uint32 | View()=method View byte | interface imported",
			"process Driver: Hdr.Term [0 0] uint64 | Role [1] handlers.Role enum 3 imported",
			"process Node: hdr.Term [1 0] uint64 | role [2] Role enum 3 imported",
			"process Replica: View [0] uint32 imported",
			"handler (*Driver).Run: Driver 0 m imported",
			"handler (*Node).OnAny: Node 1 v imported",
			"handler (*Node).OnReceive: Node 0 p imported",
			"handler (*Node).Step: Node 1 m imported",
			"handler (*Replica).OnTimeout: Replica -1 local imported",
			"handler Node.Tick: Node -1 local imported",
			"comm send: send stamps imported",
		}, "\n"),
	}
	for _, res := range results {
		ann := res.Result.(*annotations.Annotations)
		name := res.Action.Package.Types.Name()
		if len(ann.Problems) != 0 {
			t.Fatalf("%s: unexpected problems: %+v", name, ann.Problems)
		}
		if got := renderProcessForm(ann); got != want[name] {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, want[name])
		}
	}
}

// renderProcessForm renders what TestProcessForm checks, one sorted line
// per message type, process, handler and communication function.
func renderProcessForm(ann *annotations.Annotations) string {
	imported := func(b bool) string {
		if b {
			return " imported"
		}
		return ""
	}
	var lines []string
	for tn, m := range ann.Msgs {
		var comps []string
		for _, c := range m.Components {
			s := c.Text + "="
			switch c.Kind {
			case annotations.Method:
				s += "method " + c.Method.Name() + " " + c.Type().String()
			case annotations.Mapped:
				s += fmt.Sprintf("mapped %s %s->%s [", c.Fields[0].Name(), types.TypeString(c.Map.From, types.RelativeTo(tn.Pkg())), types.TypeString(c.Map.To, types.RelativeTo(tn.Pkg())))
				for i, p := range c.Map.Pairs {
					if i > 0 {
						s += " "
					}
					s += p.FromValue.String() + "->" + p.ToValue.String()
				}
				s += "]"
			default:
				s += fmt.Sprint(c.Kind)
			}
			comps = append(comps, s)
		}
		line := "msg " + tn.Name() + ": " + strings.Join(comps, " | ")
		if len(m.Locals) > 0 {
			line += " |"
			for _, lc := range m.Locals {
				line += " local " + lc.Text
			}
		}
		if m.Interface() {
			line += " | interface"
		}
		lines = append(lines, line+imported(m.Imported))
	}
	for tn, p := range ann.Processes {
		if ann.ProcessOf(types.NewPointer(tn.Type())) != p {
			lines = append(lines, "ProcessOf(*"+tn.Name()+") is not its process")
		}
		var vars []string
		for _, v := range p.Vars {
			s := fmt.Sprintf("%s %v %s", v.Name, v.FieldIndex, types.TypeString(v.Type, types.RelativeTo(tn.Pkg())))
			if v.Enum != nil {
				s += fmt.Sprintf(" enum %d", len(v.Enum.Consts))
			}
			vars = append(vars, s)
		}
		lines = append(lines, "process "+tn.Name()+": "+strings.Join(vars, " | ")+imported(p.Imported))
	}
	for fn, h := range ann.Handlers {
		if ann.HandlerOf(fn) != h {
			lines = append(lines, "HandlerOf("+fn.Name()+") is not its handler")
		}
		recv := types.TypeString(fn.Signature().Recv().Type(), func(*types.Package) string { return "" })
		if strings.HasPrefix(recv, "*") {
			recv = "(" + recv + ")"
		}
		param := "local"
		if v := h.Param(); v != nil {
			param = v.Name()
		}
		if h.Local() != (h.Param() == nil) {
			param += " (Local disagrees)"
		}
		lines = append(lines, fmt.Sprintf("handler %s.%s: %s %d %s%s", recv, fn.Name(), h.Process.Type.Name(), h.Msg, param, imported(h.Imported)))
	}
	for fn, c := range ann.Comms {
		s := "comm " + fn.Name() + ": " + c.Kind.String()
		if c.Stamps {
			s += " stamps"
		}
		lines = append(lines, s+imported(c.Imported))
	}
	sort.SliceStable(lines, func(i, j int) bool {
		return order(lines[i]) < order(lines[j]) || order(lines[i]) == order(lines[j]) && lines[i] < lines[j]
	})
	return strings.Join(lines, "\n")
}

func order(line string) int {
	for i, p := range []string{"msg ", "process ", "handler ", "comm "} {
		if strings.HasPrefix(line, p) {
			return i
		}
	}
	return 4
}
