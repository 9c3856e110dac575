package load

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/testenv"
	"golang.org/x/tools/go/packages"
)

// The module of the tests: proc imports fmt and plain (no directive),
// msgs (directives, testenv.MsgsGo) and mid, which imports msgs.
const (
	plainGo = `package plain

import "strings"

// Upper returns s in upper case.
func Upper(s string) string { return strings.ToUpper(s) }
`
	midGo = `package mid

import "example.com/m/msgs"

// Zero is the first message.
var Zero = msgs.Msg{}
`
	procGo = `package proc

import (
	"fmt"

	"example.com/m/mid"
	"example.com/m/msgs"
	"example.com/m/plain"
)

// Run prints.
func Run() {
	fmt.Println(plain.Upper("x"), msgs.Msg{}, mid.Zero)
}
`
	badGo = "package bad\n\nfunc f() int { return \"x\" }\n"
)

func module(t *testing.T) string {
	return testenv.TempModule(t, "example.com/m", map[string]string{
		"msgs/msgs.go":   testenv.MsgsGo,
		"plain/plain.go": plainGo,
		"mid/mid.go":     midGo,
		"proc/proc.go":   procGo,
		"bad/bad.go":     badGo,
	})
}

func options(dir string, patterns ...string) Options {
	return Options{Patterns: patterns, Dir: dir, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")}
}

// origins describes where each import of p came from: "path:source" when
// it was parsed and type-checked, "path:export" when it came from export
// data, sorted.
func origins(p *packages.Package) string {
	var out []string
	for path, ip := range p.Imports {
		switch {
		case len(ip.Syntax) > 0 && ip.TypesInfo != nil:
			out = append(out, path+":source")
		case len(ip.Syntax) == 0 && ip.Types != nil && ip.Types.Complete():
			out = append(out, path+":export")
		default:
			out = append(out, path+":incomplete")
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// checked loads opts, expects exactly one good package, wantErrs and no
// error, and returns the package.
func checked(t *testing.T, opts Options, wantErrs ...string) *packages.Package {
	t.Helper()
	good, errs, err := Checked(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(errs, wantErrs) {
		t.Fatalf("errors:\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(wantErrs, "\n"))
	}
	if len(good) != 1 || good[0].IllTyped {
		t.Fatalf("%d good packages, want 1 that is not ill-typed", len(good))
	}
	return good[0]
}

// TestDependencies checks which dependencies are loaded from source: the
// one with directives and the one between it and the root; the others,
// the standard library included, come from export data.
func TestDependencies(t *testing.T) {
	dir := module(t)
	p := checked(t, options(dir, "./proc"))
	if p.ID != "example.com/m/proc" || len(p.Syntax) != 1 || p.TypesInfo == nil {
		t.Fatalf("root %s: %d files, types info %v", p.ID, len(p.Syntax), p.TypesInfo != nil)
	}
	const want = "example.com/m/mid:source example.com/m/msgs:source example.com/m/plain:export fmt:export"
	if got := origins(p); got != want {
		t.Errorf("imports: %s\nwant      %s", got, want)
	}
}

// TestTests checks that the extra packages loaded for their directives are
// not returned, and that test packages are.
func TestTests(t *testing.T) {
	dir := module(t)
	testenv.WriteFiles(t, dir, map[string]string{
		"msgs/msgs_test.go": "package msgs\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"proc/proc_test.go": "package proc_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/proc\"\n)\n\nfunc TestRun(t *testing.T) { proc.Run() }\n",
	})
	opts := options(dir, "./proc")
	opts.Tests = true
	good, errs, err := Checked(opts)
	if err != nil || len(errs) > 0 {
		t.Fatalf("errors %v, %v", errs, err)
	}
	var ids []string
	for _, p := range good {
		ids = append(ids, p.ID)
	}
	want := []string{"example.com/m/proc", "example.com/m/proc_test [example.com/m/proc.test]", "example.com/m/proc.test"}
	slices.Sort(ids)
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("packages %q, want %q", ids, want)
	}
}

// TestOverlayAtParse checks overlays that keep the imports: applied when
// parsing, export data still used, and a dependency with a changed file
// loaded from source.
func TestOverlayAtParse(t *testing.T) {
	dir := module(t)
	procPath := filepath.Join(dir, "proc", "proc.go")
	plainPath := filepath.Join(dir, "plain", "plain.go")
	opts := options(dir, "./proc")

	// A changed root: the overlay's Edited is type-checked.
	opts.Overlay = map[string][]byte{procPath: []byte(strings.Replace(procGo, "func Run()", "func Edited()", 1))}
	p := checked(t, opts)
	if p.Types.Scope().Lookup("Edited") == nil {
		t.Errorf("the overlay of proc.go was not parsed: scope %v", p.Types.Scope().Names())
	}
	const want = "example.com/m/mid:source example.com/m/msgs:source example.com/m/plain:export fmt:export"
	if got := origins(p); got != want {
		t.Errorf("imports: %s\nwant      %s", got, want)
	}

	// A changed dependency too: its New is type-checked, so plain comes
	// from source.
	opts.Overlay = map[string][]byte{
		procPath:  []byte(strings.Replace(procGo, `plain.Upper("x")`, "plain.New()", 1)),
		plainPath: []byte(plainGo + "\n// New is new.\nfunc New() string { return strings.Repeat(\"x\", 2) }\n"),
	}
	p = checked(t, opts)
	const wantPlain = "example.com/m/mid:source example.com/m/msgs:source example.com/m/plain:source fmt:export"
	if got := origins(p); got != wantPlain {
		t.Errorf("imports: %s\nwant      %s", got, wantPlain)
	}

	// An overlay equal to the disk changes nothing.
	opts.Overlay = map[string][]byte{plainPath: []byte(plainGo)}
	if got := origins(checked(t, opts)); got != want {
		t.Errorf("imports: %s\nwant      %s", got, want)
	}
}

// TestOverlayDropsImport checks an overlay that drops an import: applied
// at parse time when the dropped package loads, handed to the go command
// when it does not (its errors would otherwise reach the importer).
func TestOverlayDropsImport(t *testing.T) {
	dir := module(t)
	plainPath := filepath.Join(dir, "plain", "plain.go")
	dropped := []byte("package plain\n\n// Upper returns s.\nfunc Upper(s string) string { return s }\n")
	opts := options(dir, "./plain")
	opts.Overlay = map[string][]byte{plainPath: dropped}
	if got, want := origins(checked(t, opts)), "strings:export"; got != want {
		t.Errorf("dropping strings: imports %s, want %s", got, want)
	}

	testenv.WriteFiles(t, dir, map[string]string{"plain/plain.go": strings.Replace(plainGo, `import "strings"`, "import (\n\t\"strings\"\n\n\t\"example.com/m/missing\"\n)\n\nvar _ = missing.X", 1)})
	if got, want := origins(checked(t, opts)), ""; got != want {
		t.Errorf("dropping a missing package: imports %q, want %q", got, want)
	}
}

// TestOverlayGoCommand checks overlays that the go command must see: a new
// import, a new file. Everything then comes from source.
func TestOverlayGoCommand(t *testing.T) {
	dir := module(t)
	opts := options(dir, "./plain")
	opts.Overlay = map[string][]byte{
		filepath.Join(dir, "plain", "plain.go"): []byte(strings.Replace(plainGo, `import "strings"`, "import (\n\t\"strconv\"\n\t\"strings\"\n)\n\nvar _ = strconv.Itoa", 1)),
		filepath.Join(dir, "plain", "new.go"):   []byte("package plain\n\n// Lower returns s in lower case.\nfunc Lower(s string) string { return s }\n"),
	}
	p := checked(t, opts)
	if p.Types.Scope().Lookup("Lower") == nil {
		t.Errorf("new.go was not loaded: scope %v", p.Types.Scope().Names())
	}
	if got, want := origins(p), "strconv:source strings:source"; got != want {
		t.Errorf("imports: %s, want %s", got, want)
	}
}

// TestErrors checks that a package that does not type-check is reported
// once, by the type checker, not a second time by the compiler that go
// list -export runs, and that an overlay that fixes it is not reported.
func TestErrors(t *testing.T) {
	dir := module(t)
	badPath := filepath.Join(dir, "bad", "bad.go")
	opts := options(dir, "./bad", "./plain")
	good, errs, err := Checked(opts)
	want := []string{badPath + `:3:23: cannot use "x" (untyped string constant) as int value in return statement`}
	if err != nil || !slices.Equal(errs, want) || len(good) != 1 || good[0].ID != "example.com/m/plain" {
		t.Fatalf("errs %q, err %v, %d good packages; want %q and plain", errs, err, len(good), want)
	}

	opts.Overlay = map[string][]byte{badPath: []byte(strings.Replace(badGo, `"x"`, "1", 1))}
	good, errs, err = Checked(opts)
	if err != nil || len(errs) != 0 || len(good) != 2 || good[0].IllTyped || good[1].IllTyped {
		t.Fatalf("fixed by an overlay: errs %q, err %v, %d good packages; want none and 2, not ill-typed", errs, err, len(good))
	}

	good, errs, err = Checked(options(dir, "./nonexistent/..."))
	want = []string{"-: pattern ./nonexistent/...: lstat ./nonexistent/: no such file or directory"}
	if err != nil || !slices.Equal(errs, want) || len(good) != 0 {
		t.Errorf("no package: errs %q, err %v, %d good packages; want %q", errs, err, len(good), want)
	}
}

// TestCgoErrors checks that a cgo failure, which the type checker does
// not repeat, is still reported.
func TestCgoErrors(t *testing.T) {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is disabled")
	}
	dir := module(t)
	testenv.WriteFiles(t, dir, map[string]string{"cg/cg.go": "package cg\n\n// #include <ccvet_nonexistent.h>\nimport \"C\"\n\n// F does nothing.\nfunc F() {}\n"})
	_, errs, err := Checked(options(dir, "./cg"))
	if err != nil || !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, "ccvet_nonexistent.h") }) {
		t.Fatalf("errs %q, err %v; want the cgo failure", errs, err)
	}
}

func TestRepeats(t *testing.T) {
	checked := []packages.Error{
		{Pos: "/m/bad/bad.go:3:23", Msg: "cannot use \"x\" as int value\n\thave string", Kind: packages.TypeError},
		{Pos: "/m/bad/other.go:1:1", Msg: "undefined: y", Kind: packages.TypeError},
	}
	for _, tc := range []struct {
		out  string
		want bool
	}{
		{"# example.com/m/bad\nbad/bad.go:3:23: cannot use \"x\" as int value\n\thave string\n", true},
		{"# example.com/m/bad\n./bad/bad.go:3:23: cannot use \"x\" as int value\nbad/other.go:1:1: undefined: y\ntoo many errors\n", true},
		{"# example.com/m/bad\nbad/bad.go:3:24: cannot use \"x\" as int value\n", false},
		{"# example.com/m/bad\nxbad/bad.go:3:23: cannot use \"x\" as int value\n", false},
		{"# example.com/m/bad\nbad/bad.go:3:23: cannot use \"x\" as int value\ncg.go:3:11: fatal error: x.h: No such file or directory\n", false},
		{"# example.com/m/bad\n", false},
	} {
		if got := repeats(tc.out, checked); got != tc.want {
			t.Errorf("repeats(%q) = %v, want %v", tc.out, got, tc.want)
		}
	}
}
