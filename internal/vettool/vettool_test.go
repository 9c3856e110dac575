package vettool_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/testenv"
	"github.com/ccvet/ccvet/internal/vettool"
)

// TestMain lets the test binary serve as the vet tool of the go vet runs
// below, so they test this package's driver as built by go test.
func TestMain(m *testing.M) {
	if os.Getenv("CCVET_VETTOOL_TEST") == "1" {
		os.Exit(vettool.Main(analyzer.Suite, analyzer.Advisory, os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// three is module example.com/three, whose package c sees package a's
// message type only through package b, which has no directive: a's facts
// must reach c through b's fact file, which the driver writes without
// analysing b.
var three = map[string]string{
	"a/a.go": `package a

type Step int

// Msg is a message.
//
//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
}
`,
	"b/b.go": `// Package b re-exports a's message under its own name.
package b

import "example.com/three/a"

// Msg is a.Msg.
type Msg = a.Msg
`,
	"c/c.go": `package c

import "example.com/three/b"

func Run(out chan<- b.Msg) {
	var ballot int
	//sync:tag ballot
	for ballot < 3 {
		ballot++
		out <- b.Msg{Ballot: ballot}
	}
}
`,
	// clean has no directive and a loop of the shape ccvet checks: it
	// must cost nothing and say nothing.
	"clean/clean.go": `package clean

func Run(out chan<- int) {
	for i := 0; i < 3; i++ {
		out <- i
	}
}
`,
}

const threeWant = `c/c.go:10:10: message a.Msg maps 2 tag component(s) but is used in a loop tagged ballot (1 variables): give one component per variable, _ for one it does not carry
a/a.go:8:1: 	a.Msg is declared here
c/c.go:7:2: 	//sync:tag of the loop
`

// goVet runs go vet with this test binary as the vet tool, in dir.
func goVet(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"vet", "-vettool=" + exe}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CCVET_VETTOOL_TEST=1", "GOWORK=off", "GOFLAGS=")
	return testenv.Run(t, cmd)
}

// TestGoVetTransitiveFacts runs the real go vet: the finding in c needs
// the facts of a, which c does not import.
func TestGoVetTransitiveFacts(t *testing.T) {
	dir := testenv.TempModule(t, "example.com/three", three)
	_, stderr, code := goVet(t, dir, "./...")
	// go vet prefixes each package's output with a "# pkg" line.
	got := strings.Join(withoutComments(stderr), "")
	if code == 0 || got != threeWant {
		t.Fatalf("go vet: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", code, stderr, threeWant)
	}
	// Disabling the analyzer that reports it silences it.
	_, stderr, code = goVet(t, dir, "-syncdirective=false", "./...")
	if code != 0 || stderr != "" {
		t.Fatalf("go vet -syncdirective=false: exit %d, stderr:\n%s", code, stderr)
	}
}

func withoutComments(out string) []string {
	var lines []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestGoVetJSON checks the -json form: one object per package with
// findings, keyed by analyzer, as unitchecker writes it.
func TestGoVetJSON(t *testing.T) {
	dir := testenv.TempModule(t, "example.com/three", three)
	stdout, stderr, code := goVet(t, dir, "-json", "./...")
	if code != 0 {
		t.Fatalf("go vet -json: exit %d, stderr:\n%s", code, stderr)
	}
	// The go command writes each package's JSON after a "# pkg" line.
	var objs []map[string]map[string][]struct {
		Posn, End, Message string
		Related            []struct{ Posn, Message string }
	}
	dec := json.NewDecoder(strings.NewReader(strings.Join(withoutComments(stdout+stderr), "")))
	for dec.More() {
		var o map[string]map[string][]struct {
			Posn, End, Message string
			Related            []struct{ Posn, Message string }
		}
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("decoding %q: %v", stdout+stderr, err)
		}
		if len(o) > 0 {
			objs = append(objs, o)
		}
	}
	if len(objs) != 1 {
		t.Fatalf("got %d non-empty JSON objects, want 1 (for c): %s", len(objs), stdout+stderr)
	}
	diags := objs[0]["example.com/three/c"]["syncdirective"]
	if len(diags) != 1 {
		t.Fatalf("got %v, want one syncdirective diagnostic for example.com/three/c", objs[0])
	}
	d := diags[0]
	if !strings.HasSuffix(d.Posn, "c/c.go:10:10") || !strings.HasPrefix(d.Message, "message a.Msg maps 2 tag component(s)") ||
		len(d.Related) != 2 || !strings.HasSuffix(d.Related[0].Posn, "a/a.go:8:1") {
		t.Errorf("unexpected diagnostic %+v", d)
	}
}

// unitConfig writes a vet.cfg for the package of the Go files files (no
// imports) and returns its path and the fact file it asks for.
func unitConfig(t *testing.T, dir string, files map[string]string, vetx map[string]string) (cfgFile, vetxOut string) {
	t.Helper()
	var goFiles []string
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		goFiles = append(goFiles, p)
	}
	vetxOut = filepath.Join(dir, "vet.out")
	cfg := map[string]any{
		"ID":          "example.com/p",
		"ImportPath":  "example.com/p",
		"GoVersion":   "go1.22",
		"GoFiles":     goFiles,
		"ImportMap":   map[string]string{},
		"PackageFile": map[string]string{},
		"PackageVetx": vetx,
		"VetxOutput":  vetxOut,
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgFile = filepath.Join(dir, "vet.cfg")
	if err := os.WriteFile(cfgFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return cfgFile, vetxOut
}

func runMain(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = vettool.Main(analyzer.Suite, analyzer.Advisory, args, &o, &e)
	return o.String(), e.String(), code
}

// TestUnannotatedIsNotTypeChecked shows the fast path: a package without
// directive text is decided from its bytes, so even a type error in it
// goes unnoticed (the compiler reports those), while the same package
// with a directive is type-checked and its error reported.
func TestUnannotatedIsNotTypeChecked(t *testing.T) {
	const broken = "package p\n\nvar x int = \"not an int\"\n"
	dir := t.TempDir()
	cfg, out := unitConfig(t, dir, map[string]string{"p.go": broken}, nil)
	stdout, stderr, code := runMain(cfg)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("un-annotated: exit %d, stdout %q, stderr %q; want 0 and no output", code, stdout, stderr)
	}
	if data, err := os.ReadFile(out); err != nil || len(data) != 0 {
		t.Fatalf("fact file: %q, %v; want an empty file", data, err)
	}

	dir = t.TempDir()
	cfg, _ = unitConfig(t, dir, map[string]string{"p.go": broken + "\n//sync:ignore syncmono reason\n"}, nil)
	_, stderr, code = runMain(cfg)
	if code != 1 || !strings.Contains(stderr, "p.go:3:13: cannot use \"not an int\"") {
		t.Fatalf("annotated: exit %d, stderr %q; want 1 and the type error", code, stderr)
	}
}

// TestFactsPassThrough: an un-annotated package's fact file carries its
// dependencies' facts unchanged, so its dependents see them.
func TestFactsPassThrough(t *testing.T) {
	// Produce a real fact file with the go command: vet package a of
	// the module above with -vettool, keeping the work directory.
	dir := t.TempDir()
	depVetx := filepath.Join(dir, "a.vetx")
	// A fact file as the driver writes it for an annotated package, made
	// by running it on a one-file package.
	adir := t.TempDir()
	cfg, out := unitConfig(t, adir, map[string]string{"a.go": three["a/a.go"]}, nil)
	if _, stderr, code := runMain(cfg); code != 0 {
		t.Fatalf("annotated dependency: exit %d, stderr %q", code, stderr)
	}
	facts, err := os.ReadFile(out)
	if err != nil || len(facts) == 0 {
		t.Fatalf("annotated dependency's fact file: %d bytes, %v; want facts", len(facts), err)
	}
	if err := os.WriteFile(depVetx, facts, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, out = unitConfig(t, dir, map[string]string{"p.go": "package p\n"}, map[string]string{"example.com/a": depVetx})
	if _, stderr, code := runMain(cfg); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(got, facts) {
		t.Fatalf("fact file of the un-annotated package differs from its only dependency's (%d vs %d bytes, %v)", len(got), len(facts), err)
	}
}

// TestBadInput: bad configurations and foreign fact files get a clear
// message and a non-zero exit.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.vetx")
	if err := os.WriteFile(bad, []byte("not ours"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _ := unitConfig(t, dir, map[string]string{"p.go": "package p\n"}, map[string]string{"example.com/q": bad})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{cfg}, 1, "facts of example.com/q (" + bad + ") were not written by this version of ccvet"},
		{[]string{filepath.Join(dir, "missing.cfg")}, 1, "missing.cfg: no such file or directory"},
		{[]string{"-V=short"}, 2, "unsupported flag value: -V=short (use -V=full)"},
		{[]string{"a.go"}, 2, "expected one vet.cfg file"},
		{[]string{"-nosuchflag", cfg}, 2, "flag provided but not defined: -nosuchflag"},
	} {
		_, stderr, code := runMain(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if err := os.WriteFile(cfg, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runMain(cfg); code != 1 || !strings.Contains(stderr, "cannot decode JSON config file") {
		t.Errorf("truncated cfg: exit %d, stderr %q", code, stderr)
	}
}

// TestProtocolQueries checks the answers to the go command's -flags and
// -V=full.
func TestProtocolQueries(t *testing.T) {
	stdout, stderr, code := runMain("-flags")
	if code != 0 {
		t.Fatalf("-flags: exit %d, stderr %q", code, stderr)
	}
	var flags []struct {
		Name string
		Bool bool
	}
	if err := json.Unmarshal([]byte(stdout), &flags); err != nil {
		t.Fatalf("-flags: %v in %q", err, stdout)
	}
	have := make(map[string]bool)
	for _, f := range flags {
		have[f.Name] = f.Bool
	}
	for _, a := range append(analyzer.Suite, analyzer.Advisory...) {
		if b, ok := have[a.Name]; !ok || !b {
			t.Errorf("-flags lacks the boolean flag -%s", a.Name)
		}
	}
	for _, name := range []string{"json", "V"} {
		if !have[name] {
			t.Errorf("-flags lacks -%s", name)
		}
	}
	if _, ok := have["fix"]; ok {
		t.Errorf("-flags offers -fix to go vet")
	}
	if _, ok := have["c"]; !ok {
		t.Errorf("-flags lacks -c")
	}

	stdout, _, code = runMain("-V=full")
	if code != 0 || !strings.Contains(stdout, " version devel ") || !strings.Contains(stdout, " buildID=") {
		t.Errorf("-V=full: exit %d, %q", code, stdout)
	}
}

func TestIsInvocation(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-flags"}, true},
		{[]string{"-V=full"}, true},
		{[]string{"-json", "/tmp/b001/vet.cfg"}, true},
		{[]string{"./..."}, false},
		{[]string{"makeho", "./..."}, false},
		{nil, false},
	} {
		if got := vettool.IsInvocation(tc.args); got != tc.want {
			t.Errorf("IsInvocation(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestMentionsDirective(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"//sync:tag x", true},
		{"x := 1 // sync:tag x", true},
		{"//\t sync:msg A", true},
		{"var mu sync.Mutex // sync: protects x", true}, // analysed for nothing: the test is a superset
		{"/* sync:tag */", false},
		{"//go:linkname runtime_notifyListAdd sync.runtime_notifyListAdd", false},
		{"s := \"sync:\"", false},
		{"sync:", false},
		{"", false},
		{"x sync: //sync:tag", true},
	} {
		if got := vettool.MentionsDirective([]byte(tc.src)); got != tc.want {
			t.Errorf("mentionsDirective(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
