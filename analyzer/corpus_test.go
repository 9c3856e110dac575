package analyzer_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/checktest"
	"github.com/ccvet/ccvet/internal/testenv"
	"golang.org/x/tools/go/analysis"
)

// The corpus: protocols from the papers ported to Go under
// ../testdata/corpus/src, each a correct version (no diagnostic from any
// analyzer) and a mutants.txt of realistic mistakes, each caught by one
// analyzer.
//
// A mutant replaces one exact, unique piece of the correct source with
// another that carries the // want expectation:
//
//	=== stale-ack syncrecv
//	# accepts an Ack of an older ballot
//	--- old
//			if m.Ballot != p.ballot {
//	--- new
//			if m.Ballot > p.ballot { // want `...`
//	===
var corpusDir = func() string {
	d, err := filepath.Abs("../testdata/corpus")
	if err != nil {
		panic(err)
	}
	return d
}()

// knownMisses are the mutants the analyzers do not catch yet, exactly as
// their // want comment says (they miss it, say "cannot prove" instead, or
// report it elsewhere). Each is still run: the test fails when one starts
// passing, so that the list only shrinks.
var knownMisses = map[string]bool{}

// implemented lists the analyzers whose checks exist; mutants for the
// others are materialised and type-checked, then skipped.
var implemented = map[string]bool{
	"syncdirective": true,
	"syncmono":      true,
	"syncsend":      true,
	"syncrecv":      true,
	"syncjump":      true,
}

type mutant struct {
	name, analyzer, file string
	old, new             string
}

func corpusPackages(t testing.TB) []string {
	entries, err := os.ReadDir(filepath.Join(corpusDir, "src"))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "transport" {
			pkgs = append(pkgs, e.Name())
		}
	}
	return pkgs
}

func analyzerNamed(t *testing.T, name string) *analysis.Analyzer {
	for _, a := range analyzer.Suite {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("unknown analyzer %q", name)
	return nil
}

// TestCorpusCorrect checks that every analyzer is silent on the correct
// protocols. They are loaded once and analysed in one run of the whole
// suite, as a driver does.
func TestCorpusCorrect(t *testing.T) {
	pkgs := corpusPackages(t)
	gopath := []string{corpusDir}
	res := checktest.Analyze(t, gopath, analyzer.Suite, checktest.Load(t, gopath, pkgs...))
	for _, pkg := range pkgs {
		t.Run(pkg, func(t *testing.T) {
			// No // want comment: any diagnostic is unexpected.
			res.Check(t, pkg, "")
		})
	}
}

// TestCorpusMutants checks that each mutant is caught by its analyzer, at
// the line and with the message its // want comment gives, and that no
// other analyzer reports anything on it. The mutants are written to one
// temporary GOPATH, each its own package (mutants/PKG/NAME, importing the
// corpus's transport), then loaded once and analysed in one run of the
// whole suite, so that the standard library is type-checked and analysed
// once for all of them.
func TestCorpusMutants(t *testing.T) {
	dir := t.TempDir()
	gopath := []string{dir, corpusDir}
	jobs, paths := writeMutants(t, dir)
	res := checktest.Analyze(t, gopath, analyzer.Suite, checktest.Load(t, gopath, paths...))
	for _, j := range jobs {
		t.Run(j.pkg+"/"+j.m.name, func(t *testing.T) {
			analyzerNamed(t, j.m.analyzer)
			if !implemented[j.m.analyzer] {
				// Loaded all the same, so the mutant does not rot.
				for _, p := range res.Packages(j.path) {
					for _, err := range p.Errors {
						t.Errorf("%s: %v", p.ID, err)
					}
				}
				t.Skipf("%s is not implemented yet", j.m.analyzer)
			}
			if knownMisses[j.pkg+"/"+j.m.name] {
				rec := &recorder{}
				res.Check(rec, j.path, j.m.analyzer)
				if len(rec.errs) == 0 {
					t.Fatalf("known miss %s/%s is caught now: remove it from knownMisses", j.pkg, j.m.name)
				}
				t.Skipf("known miss (%d mismatches), first: %s", len(rec.errs), rec.errs[0])
			}
			res.Check(t, j.path, j.m.analyzer)
			if os.Getenv("CCVET_UPDATE") != "" {
				exactWants(t, j.pkg, j.m, res.Diagnostics(j.path))
			}
		})
	}
}

// A mutantJob is a mutant of corpus package pkg, written as package path.
type mutantJob struct {
	pkg, path string
	m         mutant
}

// writeMutants writes every mutant of the corpus to the GOPATH dir, each
// its own package mutants/PKG/NAME, and returns them and their import
// paths. A mutant that cannot be applied fails t.
func writeMutants(t *testing.T, dir string) ([]mutantJob, []string) {
	t.Helper()
	var jobs []mutantJob
	var paths []string
	for _, pkg := range corpusPackages(t) {
		for _, m := range readMutants(t, pkg) {
			path := "mutants/" + pkg + "/" + m.name
			if err := materialise(dir, path, pkg, m); err != nil {
				t.Error(err)
				continue
			}
			jobs = append(jobs, mutantJob{pkg, path, m})
			paths = append(paths, path)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return jobs, paths
}

// TestCorpusAlone runs each analyzer of the suite alone, as "ccvet -NAME"
// does, over the correct protocols and the mutants, and checks that it
// reports exactly what it reports within the whole suite: an analyzer's
// findings depend only on its prerequisites, not on which other analyzers
// run. It reruns the dataflow once per analyzer, so it runs only with
// CCVET_SLOW_TESTS=1.
func TestCorpusAlone(t *testing.T) {
	testenv.SkipUnlessSlow(t, "analyses the corpus and its mutants once per analyzer")
	dir := t.TempDir()
	gopath := []string{dir, corpusDir}
	_, paths := writeMutants(t, dir)
	paths = append(corpusPackages(t), paths...)
	pkgs := checktest.Load(t, gopath, paths...)
	suite := checktest.Analyze(t, gopath, analyzer.Suite, pkgs)
	render := func(ds []checktest.Diagnostic, name string) []string {
		var out []string
		for _, d := range ds {
			if d.Analyzer == name {
				out = append(out, fmt.Sprintf("%s: %s", d.Posn, d.Message))
			}
		}
		return out
	}
	for _, a := range analyzer.Suite {
		t.Run(a.Name, func(t *testing.T) {
			alone := checktest.Analyze(t, gopath, []*analysis.Analyzer{a}, pkgs)
			found := 0
			for _, path := range paths {
				want := render(suite.Diagnostics(path), a.Name)
				got := render(alone.Diagnostics(path), a.Name)
				if !slices.Equal(got, want) {
					t.Errorf("%s: %s alone differs from %s in the suite:\n%s", path, a.Name, a.Name, diffLines(want, got))
				}
				found += len(got)
			}
			t.Logf("%d packages, %d diagnostics of %s", len(paths), found, a.Name)
		})
	}
}

// exactWants rewrites, in pkg's mutants.txt, the // want patterns of
// mutant m that matched a diagnostic of m's analyzer into the diagnostic's
// exact message, so that the corpus asserts exact diagnostics. Run with
// CCVET_UPDATE=1 after changing a message.
func exactWants(t *testing.T, pkg string, m mutant, diags []checktest.Diagnostic) {
	wantsMu.Lock()
	defer wantsMu.Unlock()
	path := filepath.Join(corpusDir, "src", pkg, "mutants.txt")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "=== "+m.name+" ")
	end := start + strings.Index(text[start:], "\n===\n")
	block := text[start:end]
	for _, d := range diags {
		if d.Analyzer != m.analyzer {
			continue
		}
		src, err := os.ReadFile(d.Posn.Filename)
		if err != nil {
			t.Fatal(err)
		}
		line := strings.Split(string(src), "\n")[d.Posn.Line-1]
		i := strings.Index(line, "// want `")
		if i < 0 {
			continue
		}
		pattern := strings.TrimSuffix(line[i+len("// want `"):], "`")
		exact := regexp.QuoteMeta(d.Message)
		if pattern == exact || strings.Contains(exact, "`") || strings.Contains(pattern, "`") {
			continue
		}
		block = strings.Replace(block, "// want `"+pattern+"`", "// want `"+exact+"`", 1)
	}
	if err := os.WriteFile(path, []byte(text[:start]+block+text[end:]), 0o644); err != nil {
		t.Fatal(err)
	}
}

var wantsMu sync.Mutex

// recorder collects what analysistest reports, for the known misses.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func readMutants(t *testing.T, pkg string) []mutant {
	path := filepath.Join(corpusDir, "src", pkg, "mutants.txt")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ms []mutant
	var cur *mutant
	var section *string
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "=== "):
			fields := strings.Fields(l[4:])
			if len(fields) < 2 {
				t.Fatalf("%s:%d: want '=== name analyzer [file.go]'", path, line)
			}
			ms = append(ms, mutant{name: fields[0], analyzer: fields[1]})
			cur = &ms[len(ms)-1]
			if len(fields) > 2 {
				cur.file = fields[2]
			}
			section = nil
		case l == "===":
			cur, section = nil, nil
		case cur == nil:
		case l == "--- old":
			section = &cur.old
		case l == "--- new":
			section = &cur.new
		case section != nil:
			*section += l + "\n"
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.old == "" || m.new == "" || !strings.Contains(m.new, "// want ") {
			t.Errorf("%s: mutant %s needs --- old, --- new and a // want comment", path, m.name)
		}
	}
	return ms
}

// materialise writes package pkg of the corpus, with mutation m applied,
// to dir/src/path; the old text must occur exactly once in the package.
func materialise(dir, path, pkg string, m mutant) error {
	src := filepath.Join(corpusDir, "src", pkg)
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	dst := filepath.Join(dir, "src", filepath.FromSlash(path))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	applied := 0
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if m.file == "" || m.file == e.Name() {
			applied += strings.Count(string(b), m.old)
			b = []byte(strings.Replace(string(b), m.old, m.new, 1))
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	if applied != 1 {
		return fmt.Errorf("mutant %s: the old text occurs %d times in package %s, want exactly once", m.name, applied, pkg)
	}
	return nil
}
