package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

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
	for _, name := range []string{"syncdirective", "syncmono", "syncsend", "syncrecv", "syncjump"} {
		if !strings.Contains(stdout, name) {
			t.Errorf("help does not list %s:\n%s", name, stdout)
		}
	}
	if code != 0 {
		t.Errorf("help: exit %d", code)
	}
	stdout, _, code = run(t, ".", ccvet, "help", "syncrecv")
	if code != 0 || !strings.Contains(stdout, "condition III") || !strings.Contains(stdout, "#syncrecv") {
		t.Errorf("help syncrecv: exit %d\n%s", code, stdout)
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
