package makeho_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/internal/testenv"
	"github.com/ccvet/ccvet/makeho"
)

// The corpus of protocols, in GOPATH layout.
var corpusDir, _ = filepath.Abs("../testdata/corpus")

// generated lists the corpus packages make-HO supports, with their files.
var generated = map[string][]string{
	"onethirdrule": {"onethirdrule.go"},
	"benor":        {"benor.go"},
	"zab":          {"zab.go"},
	"vrviewchange": {"replica.go"},
	// Channel-based protocols (//sync:peers and //sync:inbox).
	"uniformvoting": {"uniformvoting.go"},
	"paxoslike":     {"paxoslike.go"},
	"lastvoting":    {"lastvoting.go"},
	"twophase":      {"twophase.go"},
	// Nested loops: the outer machine calls the inner one (c.Call).
	"multipaxos": {"multipaxos.go", "replicate.go"},
}

// refused is what make-HO says of the other corpus packages, as
// "file:line:col: message".
var refused []string

// aborts are the abort cases of the paper and the refusals, on the
// packages of testdata/src.
var aborts = []string{
	"ambiguous.go:41:17: cannot tell which is the process's peers table: the loop sends on field peers (declared at ambiguous.go:22:2, used at ambiguous.go:39:16) and parameter replicas (declared at ambiguous.go:30:26, used at ambiguous.go:41:17), which both carry Msg; mark the peers table with //sync:peers on its struct field (a parameter cannot carry the directive: keep it in a field of the process)",
	"ambiguous.go:86:14: cannot tell which is the process's inbox: the loop receives from field in (declared at ambiguous.go:20:2, used at ambiguous.go:81:14) and field backup (declared at ambiguous.go:21:2, used at ambiguous.go:86:14), which both carry Msg; mark the inbox with //sync:inbox on its struct field",
	"ambiguous.go:123:14: cannot tell which is the process's inbox: the loop receives from parameter chans[me] (declared at ambiguous.go:103:27, used at ambiguous.go:118:14) and parameter chans[other] (declared at ambiguous.go:103:27, used at ambiguous.go:123:14), which both carry Msg; mark the inbox with //sync:inbox on its struct field (an entry of a table cannot carry the directive: keep the process's own channel in a field of the process)",
	"channel.go:36:3: not supported yet: a range over a channel in a tagged loop (make-HO translates receives from the //sync:inbox in a select with timeouts)",
	"chans.go:42:11: not supported yet: a send on a channel that is not taken from a peers table (make-HO must know which process receives it: table[q] <- m, or a range over the table, for a slice, array or map of channels that is a //sync:peers field, or a parameter or field of the process); the package marks its peers tables with //sync:peers, so make-HO infers none",
	"chans.go:78:4: not supported yet: a select that neither receives from the process's inbox nor sends to a peers table (make-HO reads messages from a channel field or parameter the loop receives from, or a //sync:inbox field; keep the channel in such a field rather than receiving from a call's result or another channel)",
	"chans.go:97:2: not supported yet: defer before the tagged loop (Init cannot run it when the loop ends: call it after the loop instead)",
	"chans.go:136:7: not supported yet: timer times out a reception but is used other than to create, reset or stop it (make-HO drops the timers of receptions)",
	"chans.go:176:4: not supported yet: a default case in a reception select (the reception would not wait for its messages)",
	"chans.go:206:4: not supported yet: a timeout case of a reception that does more than leave the reception loop (make-HO handles case <-timer: break label, the label of the loop, and in a helper that receives, for { select { ... case <-timer: return ... } })",
	"chans.go:226:3: not supported yet: a select around a send to a peer with another case or a case body (make-HO handles select { case ch <- m: default: }, a send that may be lost)",
	"chans.go:285:14: not supported yet: the envelope Env3 has a field Hops besides From and Msg, which the mailbox does not carry",
	"chans.go:309:3: not supported yet: a range over the peer table p.peers other than one send of the same message to every entry (for _, ch := range peers { ch <- m }; with its key, for q, ch := range peers, the sends on ch go to q)",
	"chans.go:356:4: not supported yet: a cancellation case of a reception that does more than return (make-HO handles case <-ctx.Done(): return, with the function's results or none)",
	"chans.go:391:7: not supported yet: a send on a channel of chan<- Other, which no inbox carries (make-HO delivers it to the receiver's inbox: a //sync:inbox field, or a channel of that type the loop receives from)",
	"forks.go:41:3: not supported yet: an if/else that enters round B on both paths after the send or reception of round A (make-HO needs the round's communication inside the if/else)",
	"forks.go:75:3: not supported yet: an if/else that enters round C on both paths right after the one that enters round B",
	"forks.go:105:4: not supported yet: a send after the reception of round B (make-HO needs send, then receive, then update)",
	"hiddencomm.go:35:3: not supported yet: a statement that may change the state in toAll (hiddencomm.go:32), which sends (make-HO calls it from a round's send function, which must not change the state)",
	"hiddencomm.go:85:10: not supported yet: a call of recvAll, which sends or receives (make-HO translates the sends and receives written in the loop itself, calls of //sync:send and //sync:recv functions, and calls on the process of its methods, in the loop's file, that either send or receive: write them in the loop, make the function such a method, or annotate it)",
	"hiddencomm.go:112:3: not supported yet: a timeout case that returns, in a reception loop whose condition calls a function (make-HO tests the condition again after the mailbox)",
	"hiddencomm.go:153:2: not supported yet: a send after the tagged loop (the machine has no round left for it)",
	"hints.go:50:4: not supported yet: p.step set to something other than one of its constants (the rounds of a phase are the machine's functions, in order: jump the phase variables to the message's, and set p.step to one of A or B)",
	"hints.go:71:4: not supported yet: a statement that may change the state among the sends of round A (they are the round's send function, which must not change the state: compute it before the round's first send, or after its reception)",
	"missing.go:33:2: round B has no code: no path of the loop body enters it (make-HO fills only the rounds skipped by continue with no-ops)",
	"nestedcall.go:53:3: not supported yet: a call of the nested tagged loop at nestedcall.go:62 that is not the last statement of the loop body (make-HO ends the iteration when the nested machine returns)",
	"nestedcall.go:82:2: not supported yet: a statement after the nested tagged loop at nestedcall.go:62 (make-HO needs the nested loop to end its function)",
	"nestedcall.go:94:3: not supported yet: a call of the nested tagged loop at nestedcall.go:62 on q (make-HO handles calls on the function's own pointer receiver)",
	"nestedtags.go:48:3: nested loop without the outer tags: the loop at nestedtags.go:54, called here, is tagged p.slot,p.sstep, which does not start with this loop's tag p.round,p.step",
	"nestedtags.go:54:2: loop of (*Proc).inner is not proven communication-closed: ccvet reports 1 finding(s) (first: testdata/src/nestedtags/nestedtags.go:67:24: InnerMsg stored without checking that its tag is >= (p.round,p.step): a message of an earlier round can get in (condition III: only messages of the current or a later round are stored, and a reception writes only the mailbox) (syncrecv)); make-HO needs a clean loop",
	"heights.go:25:2: phase (p.height,p.round) is not increased on every iteration: make-HO needs p.round++ (or an increase of a variable before it) on every path through the loop body (at its top level, or in both branches of an if/else), or in the loop's post statement",
	"nophase.go:32:2: phase p.round is not increased on every iteration: make-HO needs p.round++ on every path through the loop body (at its top level, or in both branches of an if/else), or in the loop's post statement",
	"notclean.go:32:2: loop of (*Proc).Run is not proven communication-closed: ccvet reports 1 finding(s) (first: testdata/src/notclean/notclean.go:35:18: Msg sent with Round different from the current p.round (condition II: a message carries the tag of the round it is sent in) (syncsend)); make-HO needs a clean loop",
	"rangemap.go:30:2: not supported yet: a tagged range loop over jobs (make-HO handles for loops, and ranges over integers, slices and arrays)",
	"rotation.go:53:3: not supported yet: the loop body enters round A only at its end: make-HO needs p.step = A before the loop too, at the top level of the function, so that the first iteration starts in it",
	"rotation.go:77:4: not supported yet: a continue in a loop that enters its first round A at the end of its body (rotation.go:82): the next iteration would start in another round (make-HO needs the switch to A on every path; write the end of the iteration in an if/else instead)",
	"rotation.go:110:4: not supported yet: a continue in a loop that increases its phase p.round at the end of its body: the next iteration would run in the same phase (make-HO needs p.round++ before the first send, or on every path; write the end of the iteration in an if/else instead)",
	"rotation.go:124:4: not supported yet: a continue before the first round's send (make-HO runs the rounds of every iteration it starts: leave the loop, or skip the rounds' code in an if)",
	"splitif.go:55:4: not supported yet: p.step enters round B inside a nested statement (make-HO handles that in the update of the round before B, followed by no communication up to the top-level p.step = B of the other paths)",
	"splitif.go:73:4: not supported yet: p.step enters round B inside an if, and the statement after the if is not the switch to B of the other paths",
	"splitif.go:92:4: not supported yet: a statement that may change the state after p.step enters round B inside an if (make-HO puts that code in the send function of B, which must not change the state: move it before the switch to B, or after the round's send)",
	"splitif.go:113:3: more than one send on a path of round B (make-HO needs at most one send, possibly to many, per round)",
	"twophases.go:63:3: more than one phase in one iteration: p.step goes back from B to A (make-HO needs each iteration of the loop to be one phase)",
	"tworecvs.go:50:18: more than one reception on a path of round A (make-HO needs at most one reception loop per round)",
	"twosends.go:36:3: more than one send on a path of round A (make-HO needs at most one send, possibly to many, per round)",
	"unbounded.go:19:21: round variable p.step has an unbounded domain: its type int has no constants (make-HO needs the rounds as a Go enum)",
	"viewjump.go:78:4: more than one send on a path of round StartViewChange (make-HO needs at most one send, possibly to many, per round)",
}

func gopathEnv(gopath string) []string {
	return append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=")
}

var corpus struct {
	once sync.Once
	res  *makeho.Result
	err  error
}

// corpusResult runs make-HO once on the whole corpus (the suite takes
// seconds per package).
func corpusResult(t *testing.T) *makeho.Result {
	t.Helper()
	corpus.once.Do(func() {
		pkgs := []string{"onethirdrule", "benor", "zab", "paxoslike", "uniformvoting", "lastvoting", "vrviewchange", "twophase", "multipaxos"}
		corpus.res, corpus.err = makeho.Generate(makeho.Options{Patterns: pkgs, Dir: corpusDir, Env: gopathEnv(corpusDir)})
	})
	if corpus.err != nil {
		t.Fatal(corpus.err)
	}
	if len(corpus.res.Errors) > 0 {
		t.Fatalf("load errors: %v", corpus.res.Errors)
	}
	return corpus.res
}

func short(ds []makeho.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d:%d: %s", filepath.Base(d.Posn.Filename), d.Posn.Line, d.Posn.Column, d.Message))
	}
	return out
}

func equalLists(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot\n\t%s\nwant\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestCorpusGolden compares the generated files with the golden ones
// (CCVET_UPDATE=1 rewrites them) and the refusals with the expected ones.
func TestCorpusGolden(t *testing.T) {
	res := corpusResult(t)
	equalLists(t, "refusals", short(res.Diagnostics), refused)
	var got []string
	for _, f := range res.Files {
		pkg := filepath.Base(filepath.Dir(f.Path))
		got = append(got, pkg+"/"+filepath.Base(f.Path))
		golden := filepath.Join("testdata", "golden", pkg, filepath.Base(f.Path)+".golden")
		if os.Getenv("CCVET_UPDATE") != "" {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.Content, want) {
			t.Errorf("%s differs from %s (CCVET_UPDATE=1 to update):\n%s", f.Path, golden, f.Content)
		}
		if !bytes.HasPrefix(f.Content, []byte(makeho.Header+"\n")) {
			t.Errorf("%s does not start with the header", f.Path)
		}
	}
	var want []string
	for pkg, files := range generated {
		for _, file := range files {
			want = append(want, pkg+"/"+strings.TrimSuffix(file, ".go")+makeho.Suffix)
		}
	}
	sortStrings(want)
	sortStrings(got)
	equalLists(t, "generated files", got, want)
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// gopathWith builds a GOPATH with the corpus packages pkgs and transport,
// the generated files, and compho from this repository.
func gopathWith(t *testing.T, res *makeho.Result, pkgs ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, pkg := range append(pkgs, "transport") {
		copyDir(t, filepath.Join(corpusDir, "src", pkg), filepath.Join(dir, "src", pkg))
	}
	copyDir(t, filepath.Join("..", "compho"), filepath.Join(dir, "src", "github.com", "ccvet", "ccvet", "compho"))
	copyDir(t, filepath.Join("..", "compho", "lockstep"), filepath.Join(dir, "src", "github.com", "ccvet", "ccvet", "compho", "lockstep"))
	for _, f := range res.Files {
		pkg := filepath.Base(filepath.Dir(f.Path))
		if _, err := os.Stat(filepath.Join(dir, "src", pkg)); err == nil {
			writeFile(t, filepath.Join(dir, "src", pkg, filepath.Base(f.Path)), f.Content)
		}
	}
	return dir
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(to, e.Name()), b)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func goCmd(t *testing.T, gopath string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = gopath
	cmd.Env = gopathEnv(gopath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestCorpusCompiles builds and vets the generated machines in their
// packages.
func TestCorpusCompiles(t *testing.T) {
	res := corpusResult(t)
	var pkgs []string
	for pkg := range generated {
		pkgs = append(pkgs, pkg)
	}
	dir := gopathWith(t, res, pkgs...)
	goCmd(t, dir, append([]string{"build"}, pkgs...)...)
	goCmd(t, dir, append([]string{"vet"}, pkgs...)...)
}

// testArgs is the go command that runs the differential tests of the
// generated machines: with the race detector when the slow suites are on.
func testArgs(t *testing.T, args ...string) []string {
	cmd := []string{"test", "-count=1"}
	if testenv.Slow() {
		cmd = append(cmd, "-race")
	} else {
		t.Logf("without the race detector: set %s=1 to add -race", testenv.SlowTests)
	}
	return append(cmd, args...)
}

// TestRun runs the generated machines on compho with the tests of
// testdata/run: for OneThirdRule, agreement and validity under loss; for
// each, the differential test of the rewriting (the asynchronous code
// over a lock-step network with compho/lockstep and the machine on
// compho.Run, under the same heard-of sets, go through the same
// algorithm-variable values), with the race detector on when
// CCVET_SLOW_TESTS=1 (it makes them up to twenty times slower). The
// channel-based protocols (UniformVoting, Paxos-like, LastVoting) run in a
// testing/synctest bubble, their messages delivered by
// lockstep.RunChans, and the machine replays the heard-of sets the
// asynchronous run had. Multi-Paxos (nested machines) runs its
// asynchronous code over lockstep.RunNested and its machines with the
// heard-of sets by position; its machines also run on compho alone under
// loss, with agreement checked after every step.
func TestRun(t *testing.T) {
	res := corpusResult(t)
	for _, pkg := range []string{"onethirdrule", "benor", "zab", "vrviewchange", "uniformvoting", "paxoslike", "lastvoting", "twophase", "multipaxos"} {
		t.Run(pkg, func(t *testing.T) {
			dir := gopathWith(t, res, pkg)
			b, err := os.ReadFile(filepath.Join("testdata", "run", pkg+"_run_test.go.txt"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "src", pkg, "run_test.go"), b)
			goCmd(t, dir, testArgs(t, "-v", "-run", "TestGenerated", pkg)...)
		})
	}
}

// TestAborts checks the message and position of every abort case.
func TestAborts(t *testing.T) {
	td, _ := filepath.Abs("testdata")
	pkgs := []string{"unbounded", "nophase", "twophases", "missing", "splitif", "twosends", "tworecvs", "nestedtags", "nestedcall", "channel", "notclean", "chans", "forks", "viewjump", "hiddencomm", "ambiguous", "rotation", "rangemap", "hints"}
	res, err := makeho.Generate(makeho.Options{Patterns: pkgs, Dir: td, Env: gopathEnv(td + string(os.PathListSeparator) + corpusDir)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	equalLists(t, "aborts", short(res.Diagnostics), aborts)
	if len(res.Files) != 0 {
		t.Errorf("files generated for abort cases: %v", res.Files[0].Path)
	}
}

// TestMainCheck runs the command on a copy of OneThirdRule: -check
// reports the missing file, generation writes it, -check is then clean,
// and reports it stale once edited.
func TestMainCheck(t *testing.T) {
	dir := t.TempDir()
	for _, pkg := range []string{"onethirdrule", "transport"} {
		copyDir(t, filepath.Join(corpusDir, "src", pkg), filepath.Join(dir, "src", pkg))
	}
	t.Setenv("GOPATH", dir)
	t.Setenv("GO111MODULE", "off")
	t.Setenv("GOFLAGS", "")
	t.Chdir(filepath.Join(dir, "src", "onethirdrule"))
	gen := filepath.Join(dir, "src", "onethirdrule", "onethirdrule_compho.go")
	run := func(wantExit int, wantOut string, args ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if got := makeho.Main(args, &stdout, &stderr); got != wantExit {
			t.Errorf("makeho %v: exit %d, want %d; stderr:\n%s", args, got, wantExit, stderr.String())
		}
		if stdout.String() != wantOut {
			t.Errorf("makeho %v: stdout %q, want %q", args, stdout.String(), wantOut)
		}
	}
	run(1, "onethirdrule_compho.go: missing (run ccvet makeho)\n", "-check", ".")
	if _, err := os.Stat(gen); err == nil {
		t.Fatal("-check wrote the file")
	}
	run(0, "", ".")
	run(0, "", "-check", ".")
	b, _ := os.ReadFile(gen)
	os.WriteFile(gen, append(b, "// edited\n"...), 0o644)
	run(1, "onethirdrule_compho.go: stale (run ccvet makeho)\n", "-check", ".")
	// A generated file that no longer compiles does not stop its
	// regeneration.
	os.WriteFile(gen, []byte(makeho.Header+"\n\npackage onethirdrule\n\nvar broken int = \"x\"\n"), 0o644)
	run(0, "", ".")
	run(0, "", "-check", ".")
	if entries, _ := filepath.Glob(filepath.Join(dir, "src", "onethirdrule", ".*tmp*")); len(entries) > 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// TestMainErrors checks bad flags, patterns without packages and packages
// that do not type-check: exit 2, a message, and no file written.
func TestMainErrors(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, filepath.Join(corpusDir, "src", "transport"), filepath.Join(dir, "src", "transport"))
	bad := filepath.Join(dir, "src", "bad")
	writeFile(t, filepath.Join(bad, "bad.go"), []byte("package bad\n\ntype Step int\n\nconst A Step = 0\n\nfunc Run(n int) {\n\tvar step Step\n\t//sync:tag n,step\n\tfor {\n\t\tn++\n\t\tstep = A\n\t\tundefined()\n\t}\n}\n"))
	t.Setenv("GOPATH", dir)
	t.Setenv("GO111MODULE", "off")
	t.Setenv("GOFLAGS", "")
	t.Chdir(bad)
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"."}, "undefined: undefined"},
		{[]string{"nosuchpackage"}, "nosuchpackage"},
	} {
		var stdout, stderr bytes.Buffer
		if got := makeho.Main(tc.args, &stdout, &stderr); got != makeho.ExitError {
			t.Errorf("makeho %v: exit %d, want 2", tc.args, got)
		}
		if !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("makeho %v: stderr %q does not mention %q", tc.args, stderr.String(), tc.stderr)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(bad, "*_compho.go")); len(matches) > 0 {
		t.Errorf("files written: %v", matches)
	}
}

// TestGeneratedSmall generates the small packages of testdata/gen, which
// each exercise one rewriting the corpus does not, compares them with
// their golden files (CCVET_UPDATE=1 rewrites them), builds and vets them,
// and runs their differential tests (testdata/gen/run), with the race
// detector when CCVET_SLOW_TESTS=1.
func TestGeneratedSmall(t *testing.T) {
	gen, _ := filepath.Abs(filepath.Join("testdata", "gen"))
	pkgs := []string{"leaderonly", "paramtable", "fieldtable", "recvmethod", "plainrecv", "funcform", "selfindex", "heights", "helpersend", "rotated", "onevar", "earlyentry", "rangeslice", "recvhelper", "tmjump", "raftdown"}
	// funcform keeps its tag and its state in local variables, which the
	// differential test cannot read while the asynchronous code runs;
	// plainrecv has the same plain reception loops on a process struct.
	noDifferential := map[string]bool{"funcform": true}
	res, err := makeho.Generate(makeho.Options{Patterns: pkgs, Dir: gen, Env: gopathEnv(gen + string(os.PathListSeparator) + corpusDir)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 || len(res.Diagnostics) > 0 {
		t.Fatalf("errors %v, refusals %v", res.Errors, short(res.Diagnostics))
	}
	if len(res.Files) != len(pkgs) {
		t.Fatalf("%d files generated, want %d", len(res.Files), len(pkgs))
	}
	dir := t.TempDir()
	copyDir(t, filepath.Join(corpusDir, "src", "transport"), filepath.Join(dir, "src", "transport"))
	copyDir(t, filepath.Join("..", "compho"), filepath.Join(dir, "src", "github.com", "ccvet", "ccvet", "compho"))
	for _, f := range res.Files {
		pkg := filepath.Base(filepath.Dir(f.Path))
		golden := filepath.Join("testdata", "gen", "golden", pkg, filepath.Base(f.Path)+".golden")
		if os.Getenv("CCVET_UPDATE") != "" {
			writeFile(t, golden, f.Content)
		} else if want, err := os.ReadFile(golden); err != nil {
			t.Fatal(err)
		} else if !bytes.Equal(f.Content, want) {
			t.Errorf("%s differs from %s (CCVET_UPDATE=1 to update):\n%s", f.Path, golden, f.Content)
		}
		copyDir(t, filepath.Join(gen, "src", pkg), filepath.Join(dir, "src", pkg))
		writeFile(t, filepath.Join(dir, "src", pkg, filepath.Base(f.Path)), f.Content)
	}
	copyDir(t, filepath.Join("..", "compho", "lockstep"), filepath.Join(dir, "src", "github.com", "ccvet", "ccvet", "compho", "lockstep"))
	goCmd(t, dir, append([]string{"build"}, pkgs...)...)
	goCmd(t, dir, append([]string{"vet"}, pkgs...)...)
	for _, pkg := range pkgs {
		if noDifferential[pkg] {
			continue
		}
		b, err := os.ReadFile(filepath.Join("testdata", "gen", "run", pkg+"_run_test.go.txt"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "src", pkg, "run_test.go"), b)
		goCmd(t, dir, testArgs(t, "-run", "TestGenerated", pkg)...)
	}
}

// TestInferredSameAsAnnotated checks that the machine of a loop whose
// peers table and inbox make-HO infers (testdata/gen/src/fieldtable) is
// the one it generates for the same code with //sync:peers and
// //sync:inbox on the fields.
func TestInferredSameAsAnnotated(t *testing.T) {
	gen, _ := filepath.Abs(filepath.Join("testdata", "gen"))
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(gen, "src", "fieldtable", "fieldtable.go"))
	if err != nil {
		t.Fatal(err)
	}
	annotated := string(src)
	for _, r := range [][2]string{
		{"\tinbox   <-chan Envelope\n", "\tinbox   <-chan Envelope //sync:inbox\n"},
		{"\tpeers   []chan<- Envelope\n", "\tpeers   []chan<- Envelope //sync:peers\n"},
	} {
		if strings.Count(annotated, r[0]) != 1 {
			t.Fatalf("fieldtable.go does not contain %q once", r[0])
		}
		annotated = strings.Replace(annotated, r[0], r[1], 1)
	}
	writeFile(t, filepath.Join(dir, "src", "fieldtable", "fieldtable.go"), []byte(annotated))
	gens := make([][]byte, 2)
	for i, root := range []string{gen, dir} {
		res, err := makeho.Generate(makeho.Options{Patterns: []string{"fieldtable"}, Dir: root, Env: gopathEnv(root)})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Errors) > 0 || len(res.Diagnostics) > 0 || len(res.Files) != 1 {
			t.Fatalf("%s: errors %v, refusals %v, %d files", root, res.Errors, short(res.Diagnostics), len(res.Files))
		}
		gens[i] = res.Files[0].Content
	}
	if !bytes.Equal(gens[0], gens[1]) {
		t.Errorf("inferred and annotated machines differ:\ninferred:\n%s\nannotated:\n%s", gens[0], gens[1])
	}
}

// TestCorpusInferred strips //sync:peers and //sync:inbox from the
// channel-based corpus protocols and checks that make-HO, inferring the
// peers tables and the inboxes, generates exactly their golden machines.
func TestCorpusInferred(t *testing.T) {
	pkgs := []string{"uniformvoting", "paxoslike", "lastvoting", "twophase", "multipaxos"}
	directive := regexp.MustCompile(`[ \t]*//sync:(peers|inbox)( \w+,\w+)?`)
	dir := t.TempDir()
	stripped := 0
	for _, pkg := range append(pkgs, "transport") {
		entries, err := os.ReadDir(filepath.Join(corpusDir, "src", pkg))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(corpusDir, "src", pkg, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			stripped += len(directive.FindAll(b, -1))
			writeFile(t, filepath.Join(dir, "src", pkg, e.Name()), directive.ReplaceAll(b, nil))
		}
	}
	if stripped != 10 {
		t.Errorf("%d directives stripped, want 10", stripped)
	}
	res, err := makeho.Generate(makeho.Options{Patterns: pkgs, Dir: dir, Env: gopathEnv(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 || len(res.Diagnostics) > 0 {
		t.Fatalf("errors %v, refusals %v", res.Errors, short(res.Diagnostics))
	}
	var got []string
	for _, f := range res.Files {
		pkg := filepath.Base(filepath.Dir(f.Path))
		got = append(got, pkg+"/"+filepath.Base(f.Path))
		want, err := os.ReadFile(filepath.Join("testdata", "golden", pkg, filepath.Base(f.Path)+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.Content, want) {
			t.Errorf("%s without directives differs from its golden file:\n%s", f.Path, f.Content)
		}
	}
	equalLists(t, "generated files", got, []string{"lastvoting/lastvoting_compho.go", "multipaxos/multipaxos_compho.go", "multipaxos/replicate_compho.go",
		"paxoslike/paxoslike_compho.go", "twophase/twophase_compho.go", "uniformvoting/uniformvoting_compho.go"})
}

// TestMainOutCollision checks that -o refuses two packages whose files
// have the same name, writing nothing, instead of keeping one of them.
func TestMainOutCollision(t *testing.T) {
	dir := t.TempDir()
	for _, pkg := range []string{"transport", "onethirdrule"} {
		copyDir(t, filepath.Join(corpusDir, "src", pkg), filepath.Join(dir, "src", pkg))
	}
	copyDir(t, filepath.Join(corpusDir, "src", "onethirdrule"), filepath.Join(dir, "src", "copy", "onethirdrule"))
	t.Setenv("GOPATH", dir)
	t.Setenv("GO111MODULE", "off")
	t.Setenv("GOFLAGS", "")
	t.Chdir(filepath.Join(dir, "src"))
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if got := makeho.Main([]string{"-o", out, "./onethirdrule", "./copy/onethirdrule"}, &stdout, &stderr); got != makeho.ExitError {
		t.Errorf("exit %d, want 2; stderr:\n%s", got, stderr.String())
	}
	want := "ccvet makeho: two packages generate " + filepath.Join(out, "onethirdrule_compho.go") + "; use a separate -o directory per package\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was created", out)
	}
}

// TestExplore explores the generated machines with compho/explore (the
// tests of testdata/explore): the state key of OneThirdRule and its state
// count; the Paxos-like protocol's last = ballot bug, found with its
// shortest trace (8 steps, 1 isolation), replayed, and sampled; the same
// protocol fixed, clean up to the same bound; and the bug with ties
// between Acks broken by the longest log (16 steps, 4 isolations). The
// traces are compared with testdata/explore/*.trace.golden
// (CCVET_UPDATE=1 rewrites them).
func TestExplore(t *testing.T) {
	res := corpusResult(t)
	dir := gopathWith(t, res, "onethirdrule", "paxoslike", "uniformvoting")
	copyDir(t, filepath.Join("..", "compho", "explore"), filepath.Join(dir, "src", "github.com", "ccvet", "ccvet", "compho", "explore"))

	// The variants of the Paxos-like protocol, generated here: fixed
	// (last = ballot moved from Prepare to Propose), and with the bug but
	// ties between Acks broken by the longest log.
	variants := []struct {
		pkg    string
		edits  [][2]string
		consts string
	}{
		{"paxoslike", nil, "fixed = false\nisolations = 1\nballots = 3\nwantSteps = 8\nwantStates = 0\nwantLossySync = 157\nwantRandomLoss = 154"},
		{"paxosfixed", [][2]string{
			{"\t\tp.last = p.ballot      // line 15: THE BUG (@bugfix remove)\n", ""},
			{"\t\t// Line 34, @bugfix add: the fix sets p.last = p.ballot here.\n", "\t\tp.last = p.ballot // line 34: the fix\n"},
		}, "fixed = true\nisolations = 1\nballots = 3\nwantSteps = 0\nwantStates = 163\nwantLossySync = 0\nwantRandomLoss = 0"},
		{"paxoslonglog", [][2]string{
			{"m.Last == acks[best].Last && q < best", "m.Last == acks[best].Last && (len(m.Log) > len(acks[best].Log) || len(m.Log) == len(acks[best].Log) && q < best)"},
		}, "fixed = false\nisolations = 4\nballots = 4\nwantSteps = 16\nwantStates = 0\nwantLossySync = 0\nwantRandomLoss = 0"},
	}
	entries, err := os.ReadDir(filepath.Join(corpusDir, "src", "paxoslike"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range variants {
		if v.pkg != "paxoslike" {
			for _, e := range entries {
				name := e.Name()
				if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
					continue
				}
				b, err := os.ReadFile(filepath.Join(corpusDir, "src", "paxoslike", name))
				if err != nil {
					t.Fatal(err)
				}
				src := strings.Replace(string(b), "package paxoslike", "package "+v.pkg, 1)
				if name == "paxoslike.go" {
					for _, r := range v.edits {
						if !strings.Contains(src, r[0]) {
							t.Fatalf("paxoslike.go does not contain %q", r[0])
						}
						src = strings.Replace(src, r[0], r[1], 1)
					}
					name = v.pkg + ".go"
				}
				writeFile(t, filepath.Join(dir, "src", v.pkg, name), []byte(src))
			}
			gen, err := makeho.Generate(makeho.Options{Patterns: []string{v.pkg}, Dir: dir, Env: gopathEnv(dir)})
			if err != nil || len(gen.Errors) > 0 || len(gen.Diagnostics) > 0 || len(gen.Files) != 1 {
				t.Fatalf("generating %s: %v %v %v", v.pkg, err, gen.Errors, short(gen.Diagnostics))
			}
			writeFile(t, filepath.Join(dir, "src", v.pkg, v.pkg+"_compho.go"), gen.Files[0].Content)
		}
		b, err := os.ReadFile(filepath.Join("testdata", "explore", "paxoslike_explore_test.go.txt"))
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.Replace(b, []byte("package paxoslike"), []byte("package "+v.pkg), 1)
		writeFile(t, filepath.Join(dir, "src", v.pkg, "explore_test.go"), b)
		consts := fmt.Sprintf("package %s\n\nconst (\n\tpkg = %q\n%s\n)\n", v.pkg, v.pkg, v.consts)
		writeFile(t, filepath.Join(dir, "src", v.pkg, "consts_test.go"), []byte(consts))
	}
	for _, pkg := range []string{"onethirdrule", "uniformvoting"} {
		b, err := os.ReadFile(filepath.Join("testdata", "explore", pkg+"_explore_test.go.txt"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "src", pkg, "explore_test.go"), b)
	}
	writeFile(t, filepath.Join(dir, "src", "uniformvoting", "consts_test.go"), []byte("package uniformvoting\n\nconst (\n\twantKernelStates = 363\n\twantLossSteps = 2\n)\n"))

	traces := t.TempDir()
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "TestExplore", "onethirdrule", "uniformvoting", "paxoslike", "paxosfixed", "paxoslonglog")
	cmd.Dir = dir
	cmd.Env = append(gopathEnv(dir), "CCVET_TRACE_OUT="+traces)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	t.Logf("%s", out)
	for _, pkg := range []string{"paxoslike", "paxoslonglog"} {
		got, err := os.ReadFile(filepath.Join(traces, pkg+".trace"))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "explore", pkg+".trace.golden")
		if os.Getenv("CCVET_UPDATE") != "" {
			writeFile(t, golden, got)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("trace differs from %s (CCVET_UPDATE=1 to update):\n%s", golden, got)
		}
	}
}

// TestMainRuntime runs the command on a module that does not require
// ccvet: the generated code would import the runtime, which the module
// cannot resolve, so make-HO writes nothing, exits 2 and says what to
// run. Once the module requires ccvet (go get, here of this source tree
// through a replace directive, offline), it writes the file, which
// builds and vets in the module.
func TestMainRuntime(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "gen", "src", "fieldtable", "fieldtable.go"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "fieldtable", "fieldtable.go"), src)
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n\nreplace github.com/ccvet/ccvet => "+repo+"\n"))
	for k, v := range map[string]string{"GOFLAGS": "", "GOPROXY": "off", "GOWORK": "off", "GO111MODULE": "on"} {
		t.Setenv(k, v)
	}
	t.Chdir(dir)
	gen := filepath.Join(dir, "fieldtable", "fieldtable_compho.go")
	var stdout, stderr bytes.Buffer
	if got := makeho.Main([]string{"./..."}, &stdout, &stderr); got != makeho.ExitError {
		t.Errorf("exit %d, want 2", got)
	}
	want := "ccvet makeho: example.com/m/fieldtable: the generated code imports github.com/ccvet/ccvet/compho, which module example.com/m does not resolve: nothing written for this package; run\n" +
		"\tgo get github.com/ccvet/ccvet@latest\n" +
		"in " + dir + " (the directory of its go.mod)\n"
	if stderr.String() != want || stdout.String() != "" {
		t.Errorf("stdout %q, stderr\n%s\nwant stderr\n%s", stdout.String(), stderr.String(), want)
	}
	if _, err := os.Stat(gen); !os.IsNotExist(err) {
		t.Fatalf("%s written (%v)", gen, err)
	}

	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("get", "github.com/ccvet/ccvet@v0.0.0")
	stdout.Reset()
	stderr.Reset()
	if got := makeho.Main([]string{"./..."}, &stdout, &stderr); got != makeho.ExitOK {
		t.Errorf("after go get: exit %d, want 0; stdout %q, stderr %q", got, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(gen); err != nil {
		t.Fatal(err)
	}
	run("vet", "./...")
}
