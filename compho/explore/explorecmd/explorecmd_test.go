package explorecmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// copyDir copies the non-test Go files of from into to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		copyFile(t, filepath.Join(from, e.Name()), filepath.Join(to, e.Name()))
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// explorations declares two explorations of the Paxos-like protocol: one
// under at most one isolation, which finds the last = ballot bug, and
// one without loss.
const explorations = `package paxoslike

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"transport"

	"github.com/ccvet/ccvet/compho/explore"
)

func machines() [][]*RunMachine {
	ms := make([]*RunMachine, 3)
	for i := range ms {
		cmd := fmt.Sprintf("c%d", i)
		ms[i] = NewRunMachine(New(Config{ID: i, Peers: make([]chan<- transport.Envelope, 3), NewCommand: func() string { return cmd }, Timeout: time.Second}), 3)
	}
	return [][]*RunMachine{ms}
}

var prefix = []explore.Invariant[*RunMachine]{{Name: "log prefix", Check: func(v explore.View[*RunMachine]) error {
	var outs [][]string
	for _, m := range v.Procs {
		outs = append(outs, m.p.outputs...)
	}
	for i, a := range outs {
		for _, b := range outs[:i] {
			k := min(len(a), len(b))
			if !slices.Equal(a[:k], b[:k]) {
				return errors.New(fmt.Sprintf("outputs %q and %q", b, a))
			}
		}
	}
	return nil
}}}

//ccvet:explore
func exploreIsolation() explore.Model[*RunMachine] {
	return explore.Model[*RunMachine]{Initial: machines(), Network: explore.Isolations(1, 4), MaxSteps: 12, Invariants: prefix}
}

//ccvet:explore
func exploreNoLoss() explore.Model[*RunMachine] {
	return explore.Model[*RunMachine]{Initial: machines(), Network: explore.NoLoss(), MaxSteps: 12, Invariants: prefix}
}
`

// TestMain runs ccvet explore on the corpus's Paxos-like protocol with its
// generated machine (the golden file of makeho): exit 1 and the trace
// under an isolation, exit 0 without loss, exit 2 for a package without
// explorations; no file is left behind.
func TestMainPaxos(t *testing.T) {
	gopath := t.TempDir()
	corpus := filepath.Join("..", "..", "..", "testdata", "corpus", "src")
	pkg := filepath.Join(gopath, "src", "paxoslike")
	copyDir(t, filepath.Join(corpus, "paxoslike"), pkg)
	copyDir(t, filepath.Join(corpus, "transport"), filepath.Join(gopath, "src", "transport"))
	copyFile(t, filepath.Join("..", "..", "..", "makeho", "testdata", "golden", "paxoslike", "paxoslike_compho.go.golden"), filepath.Join(pkg, "paxoslike_compho.go"))
	mod := filepath.Join(gopath, "src", "github.com", "ccvet", "ccvet")
	copyDir(t, filepath.Join("..", ".."), filepath.Join(mod, "compho"))
	copyDir(t, "..", filepath.Join(mod, "compho", "explore"))
	if err := os.WriteFile(filepath.Join(pkg, "explore_test.go"), []byte(explorations), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPATH", gopath)
	t.Setenv("GO111MODULE", "off")
	t.Setenv("GOFLAGS", "")
	t.Chdir(pkg)
	times := regexp.MustCompile(`\([0-9.]+m?s\)`)
	for _, tc := range []struct {
		args []string
		code int
		out  []string // lines or prefixes of lines of the output, in order
	}{
		{[]string{"-run", "Isolation", "."}, ExitViolation, []string{
			"exploreIsolation: log prefix violated after 8 steps (network: at most 1 isolation(s), period 4): outputs [\"c2\"] and [\"c1\"]",
			"initial state 0:",
		}},
		{[]string{"-run", "NoLoss"}, ExitOK, []string{
			"exploreNoLoss: no violation: 13 states, depth 12, no bound reached, network: no loss (T)",
		}},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(tc.args, &stdout, &stderr); code != tc.code {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s\nstdout:\n%s", tc.args, code, tc.code, stderr.String(), stdout.String())
		}
		lines := strings.Split(times.ReplaceAllString(stdout.String(), "(T)"), "\n")
		for i, want := range tc.out {
			if i >= len(lines) || !strings.HasPrefix(lines[i], want) {
				t.Errorf("%v: output:\n%s\nwant line %d: %s", tc.args, stdout.String(), i, want)
				break
			}
		}
		if tc.code == ExitViolation && !strings.Contains(stdout.String(), "step 7: Promise phase 1 (paxoslike.go:168)") {
			t.Errorf("%v: the trace has no file:line positions:\n%s", tc.args, stdout.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-run", "nothing"}, &stdout, &stderr); code != ExitError || !strings.Contains(stderr.String(), "no function marked //ccvet:explore") {
		t.Errorf("no exploration: exit %d, stderr %q", code, stderr.String())
	}
	if left, _ := filepath.Glob(filepath.Join(pkg, "ccvet_explore_*")); len(left) > 0 {
		t.Errorf("files left behind: %v", left)
	}
}
