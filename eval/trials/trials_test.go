package trials_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/eval/trials"
)

// TestVerdicts builds a small trial module from a corpus protocol with one
// mutant of each outcome and checks each verdict.
func TestVerdicts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module tm\n\ngo 1.26.0\n")
	for _, pkg := range []string{"onethirdrule", "transport"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "src", pkg, "*.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			write(filepath.Join(pkg, filepath.Base(f)), strings.ReplaceAll(string(b), `"transport"`, `"tm/transport"`))
		}
	}
	write("onethirdrule/mutants.txt", `Commentary before the blocks is allowed.

=== stale syncrecv
# accepts announcements of earlier rounds
--- old
			if !isMsg || m.Step != Announce || m.Round != p.round {
--- new
			if !isMsg || m.Step != Announce || m.Round > p.round {
===

=== comment-only syncmono
# changes nothing the analysis sees
--- old
			announces[from] = m
--- new
			announces[from] = m // a comment
===

=== absent syncsend
--- old
this text is not in the package
--- new
x
===

=== illtyped syncsend
--- old
			announces[from] = m
--- new
			announces[from] = 1
===
`)
	rs, err := trials.Run(dir, analyzer.Suite)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := trials.WriteVerdicts(&got, rs); err != nil {
		t.Fatal(err)
	}
	want := `onethirdrule clean
onethirdrule/stale caught
onethirdrule/comment-only missed
onethirdrule/absent broken
onethirdrule/illtyped broken
transport clean
`
	if got.String() != want {
		t.Errorf("verdicts:\n%s\nwant:\n%s", got.String(), want)
	}
	f := trials.Summarize(rs)
	if f.Packages != 2 || f.Mutants != 4 || f.Caught != 1 || f.Missed != 1 || f.Broken != 2 {
		t.Errorf("figures: %+v", f)
	}
}

// TestTrialCorpora runs every blind trial corpus under testdata/trials and
// compares each verdict with the corpus's verdicts.txt, so that a change of
// the analysis that loses (or gains) a verdict on code the team has not
// seen is noticed; regenerate with go run ./eval/cmd/trials -w DIR after
// checking the difference.
func TestTrialCorpora(t *testing.T) {
	if os.Getenv("CCVET_SLOW_TESTS") == "" {
		t.Skip("set CCVET_SLOW_TESTS=1 to run the blind trial corpora")
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "trials", "*", "go.mod"))
	if len(dirs) == 0 {
		t.Fatal("no trial corpus found")
	}
	for _, m := range dirs {
		dir := filepath.Dir(m)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "verdicts.txt"))
			if err != nil {
				t.Fatal(err)
			}
			rs, err := trials.Run(dir, analyzer.Suite)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := trials.WriteVerdicts(&got, rs); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s", trials.Summarize(rs))
			if got.String() != string(want) {
				var details bytes.Buffer
				trials.WriteDetails(&details, rs)
				t.Errorf("verdicts differ from verdicts.txt\ngot:\n%s\nwant:\n%s\ndetails:\n%s", got.String(), want, details.String())
			}
		})
	}
}
