package makeho_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/makeho"
)

// TestDiffTest generates the differential tests of testdata/gen (-difftest):
// tmjump's, compared with its golden file, runs with the inputs of
// testdata/gen/run/tmjump_setup_test.go.txt and passes; the loops whose
// test cannot be written say why.
func TestDiffTest(t *testing.T) {
	gen, _ := filepath.Abs(filepath.Join("testdata", "gen"))
	pkgs := []string{"tmjump", "plainrecv", "funcform"}
	res, err := makeho.Generate(makeho.Options{Patterns: pkgs, Dir: gen, Env: gopathEnv(gen + string(os.PathListSeparator) + corpusDir), DiffTest: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 || len(res.Diagnostics) > 0 {
		t.Fatalf("errors %v, refusals %v", res.Errors, short(res.Diagnostics))
	}
	var notes []string
	for _, n := range res.Notes {
		notes = append(notes, n.String())
	}
	wantNotes := []string{
		"testdata/gen/src/funcform/funcform.go:29:2: makeho: no differential test for Run: the loop is not in a method of the process with a pointer receiver",
		"testdata/gen/src/plainrecv/plainrecv.go:34:2: makeho: no differential test for (*Proc).Run: its inbox and peers table are not both fields of the process",
	}
	slices.Sort(notes)
	if !slices.Equal(notes, wantNotes) {
		t.Errorf("notes\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(wantNotes, "\n"))
	}
	dir := t.TempDir()
	copyDir(t, filepath.Join("..", "compho"), filepath.Join(dir, "src", "github.com", "ccvet", "ccvet", "compho"))
	copyDir(t, filepath.Join("..", "compho", "lockstep"), filepath.Join(dir, "src", "github.com", "ccvet", "ccvet", "compho", "lockstep"))
	copyDir(t, filepath.Join(gen, "src", "tmjump"), filepath.Join(dir, "src", "tmjump"))
	var diffs int
	for _, f := range res.Files {
		if filepath.Base(filepath.Dir(f.Path)) != "tmjump" {
			continue
		}
		writeFile(t, filepath.Join(dir, "src", "tmjump", filepath.Base(f.Path)), f.Content)
		if !strings.HasSuffix(f.Path, makeho.DiffSuffix) {
			continue
		}
		diffs++
		golden := filepath.Join("testdata", "gen", "golden", "tmjump", filepath.Base(f.Path)+".golden")
		if os.Getenv("CCVET_UPDATE") != "" {
			writeFile(t, golden, f.Content)
		} else if want, err := os.ReadFile(golden); err != nil {
			t.Fatal(err)
		} else if !bytes.Equal(f.Content, want) {
			t.Errorf("%s differs from %s (CCVET_UPDATE=1 to update):\n%s", f.Path, golden, f.Content)
		}
	}
	if diffs != 1 {
		t.Fatalf("%d differential test files for tmjump, want 1", diffs)
	}
	setup, err := os.ReadFile(filepath.Join("testdata", "gen", "run", "tmjump_setup_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "src", "tmjump", "setup_test.go"), setup)
	goCmd(t, dir, "vet", "tmjump")
	goCmd(t, dir, testArgs(t, "-run", "TestDiffProcRun", "tmjump")...)
}

// TestHandlerNote checks that a package in handler style, which gets no
// machine, is noted with its first handler.
func TestHandlerNote(t *testing.T) {
	td, _ := filepath.Abs("testdata")
	res, err := makeho.Generate(makeho.Options{Patterns: []string{"handlers"}, Dir: td, Env: gopathEnv(td)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 || len(res.Diagnostics) > 0 || len(res.Files) > 0 {
		t.Fatalf("errors %v, refusals %v, %d files", res.Errors, short(res.Diagnostics), len(res.Files))
	}
	want := "testdata/src/handlers/handlers.go:29:16: makeho: no machine for package handlers: it has no //sync:tag loop, and make-HO does not translate its 1 //sync:handler method(s) (handler style, the first Step); write the protocol as a loop tagged //sync:tag to get a machine"
	if len(res.Notes) != 1 || res.Notes[0].String() != want {
		t.Errorf("notes %v, want %s", res.Notes, want)
	}
}
