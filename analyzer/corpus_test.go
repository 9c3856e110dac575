package analyzer_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
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
// protocols.
func TestCorpusCorrect(t *testing.T) {
	for _, pkg := range corpusPackages(t) {
		for _, a := range analyzer.Suite {
			t.Run(pkg+"/"+a.Name, func(t *testing.T) {
				t.Parallel()
				analysistest.Run(t, corpusDir, a, pkg)
			})
		}
	}
}

// TestCorpusMutants checks that each mutant is caught by its analyzer, at
// the line and with the message its // want comment gives.
func TestCorpusMutants(t *testing.T) {
	for _, pkg := range corpusPackages(t) {
		mutants := readMutants(t, pkg)
		for _, m := range mutants {
			t.Run(pkg+"/"+m.name, func(t *testing.T) {
				t.Parallel()
				a := analyzerNamed(t, m.analyzer)
				dir := materialise(t, pkg, m)
				if !implemented[m.analyzer] {
					// Still type-check the mutant, so it does not rot.
					analysistestQuiet(t, dir, pkg)
					t.Skipf("%s is not implemented yet", m.analyzer)
				}
				if knownMisses[pkg+"/"+m.name] {
					rec := &recorder{}
					analysistest.Run(rec, dir, a, pkg)
					if len(rec.errs) == 0 {
						t.Fatalf("known miss %s/%s is caught now: remove it from knownMisses", pkg, m.name)
					}
					t.Skipf("known miss (%d mismatches), first: %s", len(rec.errs), rec.errs[0])
				}
				results := analysistest.Run(t, dir, a, pkg)
				if os.Getenv("CCVET_UPDATE") != "" {
					exactWants(t, pkg, m, results)
				}
			})
		}
	}
}

// exactWants rewrites, in pkg's mutants.txt, the // want patterns of
// mutant m that matched a diagnostic into the diagnostic's exact message,
// so that the corpus asserts exact diagnostics. Run with CCVET_UPDATE=1
// after changing a message; mutants are independent, so the rewrites of
// parallel subtests are serialised.
func exactWants(t *testing.T, pkg string, m mutant, results []*analysistest.Result) {
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
	for _, r := range results {
		for _, d := range r.Diagnostics {
			posn := r.Pass.Fset.Position(d.Pos)
			src, err := os.ReadFile(posn.Filename)
			if err != nil {
				t.Fatal(err)
			}
			line := strings.Split(string(src), "\n")[posn.Line-1]
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

// analysistestQuiet type-checks pkg by running syncdirective with the
// // want comments removed.
func analysistestQuiet(t *testing.T, dir, pkg string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "src", pkg, "*.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range strings.Split(string(b), "\n") {
			if i := strings.Index(l, "// want "); i >= 0 {
				l = l[:i]
			}
			out = append(out, l)
		}
		if err := os.WriteFile(f, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	analysistest.Run(t, dir, analyzerNamed(t, "syncdirective"), pkg)
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

// materialise copies the corpus to a temporary GOPATH with the mutation
// applied; the old text must occur exactly once in the package.
func materialise(t *testing.T, pkg string, m mutant) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(corpusDir, "src")
	applied := 0
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		dst := filepath.Join(dir, "src", rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if filepath.Dir(rel) == pkg && strings.HasSuffix(path, ".go") && (m.file == "" || m.file == d.Name()) {
			n := strings.Count(string(b), m.old)
			applied += n
			b = []byte(strings.Replace(string(b), m.old, m.new, 1))
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if applied != 1 {
		t.Fatal(fmt.Sprintf("mutant %s: the old text occurs %d times in package %s, want exactly once", m.name, applied, pkg))
	}
	return dir
}
