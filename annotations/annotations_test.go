package annotations_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
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
	for _, s := range []string{"//sync:tag a,b", "//sync:msg p.T A,_", "//sync:ignore x y", "//sync:send pkg.(*T).M", "// sync:tag", "//sync:"} {
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
