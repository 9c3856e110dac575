package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/analysisdoc"
	"github.com/ccvet/ccvet/internal/testenv"
)

var ccvet string // path of the binary under test

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ccvet-bin")
	if err != nil {
		panic(err)
	}
	ccvet = filepath.Join(dir, "ccvet")
	if runtime.GOOS == "windows" {
		ccvet += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", ccvet, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// procGo uses msgs.Msg in a loop whose tag has one variable: only the
// facts exported by package msgs tell that Msg has two components.
const procGo = `package proc

import "example.com/two/msgs"

func Run() {
	var ballot int
	//sync:tag ballot
	for ballot < 3 {
		ballot++
		msgs.Broadcast(msgs.Msg{Ballot: ballot})
	}
}
`

const wantMsg = "message msgs.Msg maps 2 tag component(s) but is used in a loop tagged ballot (1 variables): give one component per variable, _ for one it does not carry"

// run runs the command name in dir, outside any workspace.
func run(t testing.TB, dir string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	return testenv.Run(t, cmd)
}

// TestGoVet runs the real go vet with ccvet as its vet tool on a
// two-package module.
func TestGoVet(t *testing.T) {
	dir := testenv.TempModule(t, "example.com/two", map[string]string{"msgs/msgs.go": testenv.MsgsGo, "proc/proc.go": procGo})
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+ccvet, "./...")
	if code == 0 || !strings.Contains(stderr, "proc/proc.go:10:18: "+wantMsg) {
		t.Fatalf("go vet exit %d, stderr:\n%s\nwant the diagnostic %q", code, stderr, wantMsg)
	}
	// Disabling the analyzer silences it.
	_, stderr, code = run(t, dir, "go", "vet", "-vettool="+ccvet, "-syncdirective=false", "./...")
	if code != 0 {
		t.Fatalf("go vet -syncdirective=false: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestStandalone(t *testing.T) {
	dir := testenv.TempModule(t, "example.com/two", map[string]string{"msgs/msgs.go": testenv.MsgsGo, "proc/proc.go": procGo})

	stdout, stderr, code := run(t, dir, ccvet, "./...")
	want := "proc/proc.go:10:18: " + wantMsg + " (syncdirective)\n" +
		"\tmsgs/msgs.go:13:6: msgs.Msg is declared here\n" +
		"\tproc/proc.go:7:2: //sync:tag of the loop\n"
	if code != 1 || stdout != want {
		t.Fatalf("ccvet ./...: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1 and\n%s", code, stdout, stderr, want)
	}

	stdout, _, code = run(t, dir, ccvet, "-json", "./proc")
	var findings []struct {
		Analyzer, Posn, Message string
		Line, Column            int
	}
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil {
		t.Fatalf("-json: %v\n%s", err, stdout)
	}
	if code != 1 || len(findings) != 1 || findings[0].Message != wantMsg || findings[0].Line != 10 || findings[0].Analyzer != "syncdirective" {
		t.Fatalf("-json: exit %d, findings %+v", code, findings)
	}

	// Selecting only another analyzer leaves nothing to report.
	stdout, _, code = run(t, dir, ccvet, "-syncmono", "./...")
	if code != 0 || stdout != "" {
		t.Fatalf("-syncmono: exit %d, stdout %q", code, stdout)
	}
	stdout, _, code = run(t, dir, ccvet, "-json", "-syncmono", "./...")
	if code != 0 || strings.TrimSpace(stdout) != "[]" {
		t.Fatalf("-json -syncmono: exit %d, stdout %q", code, stdout)
	}
}

func TestStandaloneClean(t *testing.T) {
	dir := testenv.TempModule(t, "example.com/two", map[string]string{"msgs/msgs.go": testenv.MsgsGo})
	stdout, stderr, code := run(t, dir, ccvet, "./...")
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestStandaloneErrors(t *testing.T) {
	dir := testenv.TempModule(t, "example.com/two", map[string]string{
		"msgs/msgs.go": testenv.MsgsGo,
		"bad/bad.go":   "package bad\n\nfunc f() int { return \"x\" }\n",
	})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"./bad"}, "bad/bad.go:3:23: cannot use \"x\""},
		{[]string{"./nonexistent"}, "nonexistent"},
		{[]string{"-nosuchflag", "./..."}, "flag provided but not defined: -nosuchflag"},
		{[]string{"help", "nosuch"}, `unknown analyzer "nosuch"`},
	} {
		_, stderr, code := run(t, dir, ccvet, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("ccvet %v: exit %d, stderr:\n%s\nwant exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestHelp(t *testing.T) {
	stdout, _, code := run(t, ".", ccvet, "help")
	want := `ccvet analyzers (run 'ccvet help NAME' for details):

  syncdirective  report malformed //sync: annotations
  syncmono       check that the synchronization tag never decreases (condition I)
  syncsend       check that every message sent carries the tag of the round it is sent in (condition II)
  syncrecv       check that a received message is stored only if it is from the current or a later round (condition III)
  syncjump       check that a process that stored a message from a future round jumps to it first (condition IV)
  synclex        advisory: report filters that compare a round without its phase (non-lexicographic tag comparisons)
`
	if code != 0 || stdout != want {
		t.Errorf("help: exit %d\n%s\nwant\n%s", code, stdout, want)
	}
}

// TestHelpName checks that ccvet help NAME prints the analyzer's whole
// section of its doc.go, read here from the file, and its URL; and that it
// gives the rules rather than sending the reader to the README.
func TestHelpName(t *testing.T) {
	for _, a := range append(slices.Clip(analyzer.Suite), analyzer.Advisory...) {
		src, err := os.ReadFile(filepath.Join("..", "..", "passes", a.Name, "doc.go"))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := analysisdoc.Extract(string(src), a.Name)
		if err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := run(t, ".", ccvet, "help", a.Name)
		want := a.Name + ": " + doc + "\n\n" + a.URL + "\n"
		if code != 0 || stdout != want {
			t.Errorf("help %s: exit %d, stderr %q\n%s\nwant\n%s", a.Name, code, stderr, stdout, want)
		}
		if strings.Count(stdout, "README") != strings.Count(a.URL, "README") {
			t.Errorf("help %s mentions the README besides its URL:\n%s", a.Name, stdout)
		}
	}
	// Lines each condition's help must have: its rules, not a pointer.
	for name, lines := range map[string][]string{
		"syncmono":      {"Where the tag is compared. Only at communication points: sends,"},
		"syncsend":      {"What is a send. Channel sends (ch <- m, select cases), calls of"},
		"syncrecv":      {"The mailbox is inferred, not annotated: the variables a reception writes"},
		"syncjump":      {"Where the jump is checked. At the next send or receive after the"},
		"syncdirective": {"A tagged loop in which the analysis finds no //sync:msg type sent or"},
	} {
		stdout, _, _ := run(t, ".", ccvet, "help", name)
		for _, l := range lines {
			if !slices.Contains(strings.Split(stdout, "\n"), l) {
				t.Errorf("help %s lacks the line %q:\n%s", name, l, stdout)
			}
		}
	}
}

// TestUsage checks that ccvet -h lists every form of the command and the
// flags, -v included.
func TestUsage(t *testing.T) {
	_, stderr, code := run(t, ".", ccvet, "-h")
	if code != 0 {
		t.Fatalf("-h: exit %d", code)
	}
	lines := strings.Split(stderr, "\n")
	for _, l := range []string{
		"  ccvet [flags] [packages]                   analyse packages (default ./...); flags below",
		"  ccvet help [analyzer]                      list the analyzers, or print one's rules in full",
		"  ccvet makeho [-o dir] [-check] [packages]  generate the round-based model of each proved loop (ccvet makeho -h)",
		"  ccvet lsp [flags]                          run a language server for editors (ccvet lsp -h)",
		"  ccvet explore [-run regexp] [packages]     run the explorations a package declares (ccvet explore -h, docs/explore.md)",
		"  go vet -vettool=$(which ccvet) [packages]  run ccvet inside go vet (the same analyzer flags)",
		"Exit status: 0 no findings, 1 findings, 2 errors.",
		"  -json",
		"  -sarif",
		"  -tags string",
		"  -test",
		"  -v\talso print, per tagged loop, what was checked and the verdict of each condition, then a total;",
		"  -version",
		"  -syncdirective",
		"  -syncmono",
		"  -syncsend",
		"  -syncrecv",
		"  -syncjump",
		"  -synclex",
	} {
		if !slices.Contains(lines, l) {
			t.Errorf("ccvet -h lacks the line %q:\n%s", l, stderr)
		}
	}
}

// TestExamples runs the README's first set-up command, ccvet on the bundled
// examples, and compares its output with testdata/examples.golden. Set
// CCVET_UPDATE=1 to rewrite the golden file.
func TestExamples(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, root, ccvet, "./examples/...")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (examples/mistakes has findings); stderr:\n%s", code, stderr)
	}
	golden := filepath.Join("testdata", "examples.golden")
	if os.Getenv("CCVET_UPDATE") != "" {
		if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(want) {
		t.Errorf("ccvet ./examples/... printed:\n%s\nwant (%s):\n%s", stdout, golden, want)
	}
	if strings.Contains(stdout, "examples/zab") || strings.Contains(stdout, "examples/paxos") {
		t.Errorf("findings on the correct protocols:\n%s", stdout)
	}
}

// TestExamplesOnePerCondition checks what the golden file of TestExamples
// says in words: examples/pitfalls gets exactly one violation from each
// condition analyzer, and nothing that cannot be proven.
func TestExamplesOnePerCondition(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, root, ccvet, "-json", "./examples/pitfalls")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	var findings []struct{ Analyzer, Message string }
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil {
		t.Fatalf("-json: %v\n%s", err, stdout)
	}
	got := make(map[string]int)
	for _, f := range findings {
		got[f.Analyzer]++
		if strings.HasPrefix(f.Message, "cannot prove") {
			t.Errorf("cannot prove finding on examples/pitfalls: %s", f.Message)
		}
	}
	want := map[string]int{"syncmono": 1, "syncsend": 1, "syncrecv": 1, "syncjump": 1}
	if len(findings) != 4 || len(got) != 4 {
		t.Fatalf("findings by analyzer %v, want %v", got, want)
	}
	for a, n := range want {
		if got[a] != n {
			t.Errorf("%s: %d findings, want %d", a, got[a], n)
		}
	}
}

// TestVerbose compares ccvet -v on examples/paxos (every condition proved)
// and examples/pitfalls (one violated per loop) with the golden files
// testdata/verbose-*.golden. Set CCVET_UPDATE=1 to rewrite them.
func TestVerbose(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pkg  string
		code int
	}{{"paxos", 0}, {"pitfalls", 1}} {
		t.Run(tc.pkg, func(t *testing.T) {
			stdout, stderr, code := run(t, root, ccvet, "-v", "./examples/"+tc.pkg)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			golden := filepath.Join("testdata", "verbose-"+tc.pkg+".golden")
			if os.Getenv("CCVET_UPDATE") != "" {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if stdout != string(want) {
				t.Errorf("ccvet -v ./examples/%s printed:\n%s\nwant (%s):\n%s", tc.pkg, stdout, golden, want)
			}
		})
	}
}

// TestVerboseJSON checks the -json form of -v on examples/pitfalls: an
// object whose findings field is the array -json prints alone, with the
// loops and the total beside it.
func TestVerboseJSON(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	plain, _, _ := run(t, root, ccvet, "-json", "./examples/pitfalls")
	stdout, stderr, code := run(t, root, ccvet, "-json", "-v", "./examples/pitfalls")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	var out struct {
		Findings json.RawMessage
		Loops    []struct {
			Posn, Func, Tag                 string
			Rounds, Mailboxes, MessageTypes []string
			Sends, Receptions               int
			Complete                        bool
			Conditions                      []struct {
				Condition, Analyzer, Verdict string
				Violations, Unproven         int
			}
		}
		Total struct {
			Loops, Rounds, Sends, Receptions, Violations, Unproven, DirectiveFindings int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("-json -v: %v\n%s", err, stdout)
	}
	var a, b any
	if err := json.Unmarshal(out.Findings, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(plain), &b); err != nil {
		t.Fatal(err)
	}
	if fa, fb := fmt.Sprint(a), fmt.Sprint(b); fa != fb {
		t.Errorf("findings under -v differ from -json alone:\n%s\n%s", fa, fb)
	}
	wantFuncs := []string{"(*Process).Retry", "(*Process).Join", "(*Process).Lead", "(*Process).Follow"}
	if len(out.Loops) != len(wantFuncs) {
		t.Fatalf("%d loops, want %d:\n%s", len(out.Loops), len(wantFuncs), stdout)
	}
	for i, l := range out.Loops {
		if l.Func != wantFuncs[i] || l.Tag != "p.ballot,p.step" || !l.Complete || fmt.Sprint(l.MessageTypes) != "[Message]" || len(l.Conditions) != 4 {
			t.Errorf("loop %d: %+v", i, l)
			continue
		}
		// Loop i violates condition i+1 and proves the others.
		for c, cv := range l.Conditions {
			want := "proved"
			if c == i {
				want = "violated"
			}
			if cv.Verdict != want || cv.Unproven != 0 {
				t.Errorf("%s: condition %s (%s): %s, %d cannot prove; want %s", l.Func, cv.Condition, cv.Analyzer, cv.Verdict, cv.Unproven, want)
			}
		}
	}
	tot := out.Total
	if tot.Loops != 4 || tot.Rounds != 9 || tot.Sends != 5 || tot.Receptions != 4 || tot.Violations != 4 || tot.Unproven != 0 || tot.DirectiveFindings != 0 {
		t.Errorf("total %+v", tot)
	}
}

// verdictsGo has a loop whose violation of condition II is suppressed, and
// a loop that exchanges no message.
const verdictsGo = `package p

type Step int

const (
	Prepare Step = iota
	Ack
)

//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
}

type Proc struct {
	ballot int
	step   Step
	out    chan Msg
	ticks  chan int
}

func (p *Proc) Suppressed() {
	//sync:tag p.ballot,p.step
	for {
		old := p.ballot
		p.ballot++
		p.step = Prepare
		//sync:ignore syncsend the old ballot is wanted here, for the example
		p.out <- Msg{Ballot: old, Step: p.step}
	}
}

func (p *Proc) Silent() {
	//sync:tag p.ballot,p.step
	for range p.ticks {
		p.ballot++
		p.step = Prepare
	}
}
`

// TestVerboseVerdicts checks the verdicts -v gives besides proved and
// violated: a condition whose only finding is suppressed, a loop with no
// message type (nothing checked, and reported by syncdirective), and a
// condition whose analyzer is not selected.
func TestVerboseVerdicts(t *testing.T) {
	dir := testenv.TempModule(t, "example.com/v", map[string]string{"p/p.go": verdictsGo})
	stdout, stderr, code := run(t, dir, ccvet, "-v", "-syncmono=false", "./...")
	want := `p/p.go:35:2: the loop tagged p.ballot,p.step sends and receives no //sync:msg type: nothing is checked; annotate the message types with //sync:msg (and the functions that send or receive them with //sync:send and //sync:recv) (syncdirective)
	p/p.go:36:2: the loop

p/p.go:25:2: loop tagged p.ballot,p.step in (*Proc).Suppressed
	rounds: 1 (Prepare)
	sends: 1, receptions: 0, mailboxes: 0
	message types: Msg
	condition I   (syncmono)  not run
	condition II  (syncsend)  suppressed
	condition III (syncrecv)  proved
	condition IV  (syncjump)  proved
p/p.go:36:2: loop tagged p.ballot,p.step in (*Proc).Silent
	rounds: 0
	sends: 0, receptions: 0, mailboxes: 0
	message types: none: nothing is checked (annotate the message types with //sync:msg)
	condition I   (syncmono)  not run
	condition II  (syncsend)  nothing checked
	condition III (syncrecv)  nothing checked
	condition IV  (syncjump)  nothing checked
2 tagged loops, 1 round, 1 send, 0 receptions checked: 0 violations, 0 cannot prove; 1 annotation finding
`
	if code != 1 || stdout != want {
		t.Errorf("ccvet -v: exit %d, stderr:\n%s\nstdout:\n%s\nwant exit 1 and\n%s", code, stderr, stdout, want)
	}
	_, stderr, code = run(t, dir, ccvet, "-v", "-sarif", "./...")
	if code != 2 || stderr != "ccvet: -v has no SARIF form: use it with the text or -json output\n" {
		t.Errorf("-v -sarif: exit %d, stderr %q", code, stderr)
	}
}

// handlersGo is a process of the process form with two handlers: one
// proved on every condition, one that leaves a mailbox unemptied.
const handlersGo = `package p

type Kind int

const (
	Prepare Kind = iota
	Promise
	Grant
)

//sync:msg Epoch,Kind
type Msg struct {
	Epoch uint64
	Kind  Kind
	From  int
}

//sync:tag epoch,step
type Node struct {
	epoch    uint64
	step     Kind
	promises map[int]bool
}

//sync:handler Kind==Promise
func (n *Node) OnPromise(m Msg) {
	if m.Epoch != n.epoch || n.step != Promise {
		return
	}
	n.promises[m.From] = true
	if len(n.promises) >= 2 {
		n.step = Grant
		n.promises = map[int]bool{}
	}
}

//sync:handler
func (n *Node) OnTimeout() {
	if n.step == Promise {
		n.step = Grant
	}
}
`

// TestVerboseHandlers checks what -v says of handlers with the second
// engine: a step of its process with its verdicts, and a total that
// counts handlers, not loops.
func TestVerboseHandlers(t *testing.T) {
	t.Setenv("CCVET_TAGFLOW", "v2")
	dir := testenv.TempModule(t, "example.com/h", map[string]string{"p/p.go": handlersGo})
	stdout, stderr, code := run(t, dir, ccvet, "-v", "./...")
	want := `p/p.go:42:1: cannot prove condition III: the tag changes while promises, filled from received messages, is not emptied: if it counts what the round received (a mailbox), empty it when the tag changes (syncrecv)

p/p.go:26:16: handler (*Node).OnPromise, a step of a process tagged epoch,step
	condition I   (syncmono)  proved
	condition II  (syncsend)  proved
	condition III (syncrecv)  proved
	condition IV  (syncjump)  proved
p/p.go:38:16: handler (*Node).OnTimeout, a step of a process tagged epoch,step
	condition I   (syncmono)  proved
	condition II  (syncsend)  proved
	condition III (syncrecv)  cannot prove
	condition IV  (syncjump)  proved
2 handlers checked: 0 violations, 1 cannot prove
`
	if code != 1 || stdout != want {
		t.Errorf("ccvet -v: exit %d, printed:\n%s\nwant exit 1 and:\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}
}
