package scaling

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/engine"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// engines are the two tag dataflows, by the names CCVET_TAGFLOW gives
// them.
var engines = []string{"v1", "v2"}

// A target is one protocol to analyse: a generated one (rounds and types
// set) or the hand-written pbft150 of testdata.
type target struct {
	name          string // the package's import path in the GOPATH
	rounds, types int
}

func generated(rounds, types int) target {
	return target{name: fmt.Sprintf("r%dt%d", rounds, types), rounds: rounds, types: types}
}

var pbft150 = target{name: "pbft150"}

// load writes the targets into a GOPATH under dir and loads them, parsed
// and type-checked; it returns them by name.
func load(dir string, targets []target) (map[string]*packages.Package, error) {
	var names []string
	for _, tg := range targets {
		pkgDir := filepath.Join(dir, "src", tg.name)
		if err := os.MkdirAll(pkgDir, 0o755); err != nil {
			return nil, err
		}
		var src []byte
		var err error
		if tg.rounds > 0 {
			src, err = Protocol(tg.name, tg.rounds, tg.types)
		} else {
			src, err = os.ReadFile(filepath.Join("testdata", "src", tg.name, tg.name+".go"))
		}
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(pkgDir, tg.name+".go"), src, 0o644); err != nil {
			return nil, err
		}
		names = append(names, tg.name)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(dir, "src"),
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, names...)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]*packages.Package)
	for _, p := range pkgs {
		for _, e := range p.Errors {
			return nil, fmt.Errorf("%s does not load: %v", p.PkgPath, e)
		}
		byName[p.PkgPath] = p
	}
	return byName, nil
}

// analyse runs the suite on pkg and returns its findings as "analyzer
// line: message", sorted. The engine is the one CCVET_TAGFLOW selects (so
// analyse runs in a child process, see spawn); eng must be it.
func analyse(eng string, pkg *packages.Package) ([]string, error) {
	if engine.Analyzer != engine.Select(eng) {
		return nil, fmt.Errorf("engine %s asked for, CCVET_TAGFLOW=%q selects %s", eng, os.Getenv("CCVET_TAGFLOW"), engine.Analyzer.Name)
	}
	graph, err := checker.Analyze(analyzer.Suite, []*packages.Package{pkg}, nil)
	if err != nil {
		return nil, err
	}
	var out []string
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			out = append(out, fmt.Sprintf("%s %d: %s", act.Analyzer.Name, pkg.Fset.Position(d.Pos).Line, d.Message))
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(a, b) })
	return out, nil
}

// TestProtocol checks the generator's arguments and that what it writes
// for one size is the protocol the package doc describes.
func TestProtocol(t *testing.T) {
	if _, err := Protocol("p", 0, 1); err == nil || err.Error() != "scaling: want at least one round and one message type, got R=0 T=1" {
		t.Errorf("Protocol(p, 0, 1): got error %v", err)
	}
	src, err := Protocol("p", 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\tStep2\n)",
		"type Msg1 struct",
		"\t\tp.broadcast(Msg0{Phase: p.phase, Step: p.step, From: p.id, Val: p.val})\n\t\tp.val = pick(p.collect(), p.val)\n\t\tp.step = Step1\n" +
			"\t\tp.broadcast(Msg1{Phase: p.phase, Step: p.step, From: p.id, Val: p.val})\n\t\tp.val = pick(p.collect(), p.val)\n\t\tp.step = Step2\n" +
			"\t\tp.broadcast(Msg0{Phase: p.phase, Step: p.step, From: p.id, Val: p.val})\n\t\tp.val = pick(p.collect(), p.val)\n\t\tp.phase++\n\t\tp.step = Step0\n\t}\n}\n",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("Protocol(p, 3, 2) lacks %q:\n%s", want, src)
		}
	}
	if n := strings.Count(string(src), "\t\tcase Msg"); n != 2 {
		t.Errorf("Protocol(p, 3, 2) has %d cases in its type switch, want 2", n)
	}
}
