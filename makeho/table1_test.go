package makeho_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/makeho"
)

// A table1Variant is a variant of a corpus protocol for the bugs of
// Table 1 of the sequentialization paper: the corpus source with edits
// (each an exact text and its replacement), the machine make-HO writes
// for it, and the explorations its test runs (Go source of a []tcase,
// see testdata/table1/common_test.go.txt).
type table1Variant struct {
	pkg, from string
	edits     map[string][][2]string // by file
	cases     string
	extra     string // more declarations of the test
}

// benorCoins replaces Ben-Or's random generator, which make-HO keeps as
// environment (shared by the copies of a state, out of its key), by
// coins drawn in advance in the process's state, one per round: the
// exploration's initial states are every draw.
var benorCoins = [][2]string{
	{"\t\"math/rand/v2\"\n", ""},
	{"\trng     *rand.Rand\n", "\tcoins   []int // the coins, one per round, drawn in advance (explored: every draw)\n"},
	{"\t\trng:     rand.New(rand.NewPCG(seed, uint64(id))),\n", ""},
	{"func (p *Proc) flip() int { return p.rng.IntN(2) }", "func (p *Proc) flip() int { return p.coins[p.round-1] }"},
}

// vrQuorum is VR's view change with a sub-majority quorum: the new
// primary goes on with f DoViewChange messages (its own), fewer than
// n/2, instead of f+1.
var vrQuorum = [][2]string{
	{"for !hasQuorum(dvcs, r.f+1) {", "for !hasQuorum(dvcs, r.f) {"},
	{"if len(current) < r.f+1 {", "if len(current) < r.f {"},
}

// vrLeader is VR's view change with a nondeterministic leader: each
// replica believes in a primary of each view of its own, drawn in advance
// (explored: every draw), instead of the round-robin view % n all agree
// on.
var vrLeader = [][2]string{
	{"\tmaxAttempts int\n", "\tmaxAttempts int\n\tleaders     []int // the primary of each view this replica believes in, drawn in advance\n"},
	{"func (r *Replica) primaryOf(view int) int { return view % r.n }", "func (r *Replica) primaryOf(view int) int { return r.leaders[view%len(r.leaders)] }"},
}

// vrDraws configures the replicas of the nondeterministic-leader
// variants: draw d gives replica p the primaries d/9^p%3 and d/9^p/3%3
// of views 1 and 2 (729 draws).
const vrDraws = `const draws = 729

func configure(r *Replica, p, draw int) {
	for range p {
		draw /= 9
	}
	r.leaders = []int{0, draw % 9 % 3, draw % 9 / 3}
}
`

const vrRoundRobin = `const draws = 1

func configure(*Replica, int, int) {}
`

// The variants, with the results their explorations must give (3
// processes; Ben-Or for 3 phases, the others until no new state). The
// correct versions are clean under their networks; each bug is found
// under the network the paper gives it.
var table1Variants = []table1Variant{
	// Ben-Or under DELIVER n−f, every coin drawn, and under any loss
	// with all coins 0 (as benorweak): a process that hears fewer than
	// n−f messages stops.
	{pkg: "benor", from: "benor", edits: map[string][][2]string{"benor.go": benorCoins},
		cases: "{explore.Deliver(2), 0, 275576}", extra: "const drawCoins = true\n"},
	{pkg: "benorfixed", from: "benor", edits: map[string][][2]string{"benor.go": benorCoins},
		cases: "{explore.AnyLoss(), 0, 277982}", extra: "const drawCoins = false\n"},
	// Ben-Or*: a process that decides does not overwrite its estimate.
	{pkg: "benorstar", from: "benor", edits: map[string][][2]string{"benor.go": append(benorCoins[:4:4],
		[2]string{"\t\tcase support >= p.f+1:\n\t\t\tp.x = v\n", "\t\tcase support >= p.f+1:\n"})},
		cases: "{explore.Deliver(2), 6, 1149752}", extra: "const drawCoins = true\n"},
	// Ben-Or under a weakened network: a process that hears fewer than
	// n−f messages moves on (the paper's T) instead of stopping.
	{pkg: "benorweak", from: "benor", edits: map[string][][2]string{"benor.go": append(benorCoins[:4:4],
		[2]string{"\t\t\treturn fmt.Errorf(\"round %d, report step", "\t\t\t_ = fmt.Errorf(\"round %d, report step"},
		[2]string{"\t\t\treturn fmt.Errorf(\"round %d, proposal step", "\t\t\t_ = fmt.Errorf(\"round %d, proposal step"})},
		cases: "{explore.AnyLoss(), 4, 70002}", extra: "const drawCoins = false\n"},
	{pkg: "uniformvoting", from: "uniformvoting",
		cases: "{explore.RoundKernel(), 0, 363}, {explore.AnyLoss(), 2, 2995}"},
	// UniformVoting*: a process that decides does not overwrite its
	// estimate with the vote.
	{pkg: "uvstar", from: "uniformvoting", edits: map[string][][2]string{"uniformvoting.go": {
		{"\t\tif v, ok := someVote(votes); ok {\n", "\t\tif v, ok := someVote(votes); ok && !unanimous(votes) {\n"},
		{"\treturn v, true\n}\n", "\treturn v, true\n}\n\nfunc unanimous(votes map[int]Msg) bool {\n\t_, ok := unanimousVote(votes)\n\treturn ok\n}\n"},
	}}, cases: "{explore.RoundKernel(), 4, 1245}"},
	{pkg: "vrviewchange", from: "vrviewchange", cases: "{explore.AnyLoss(), 0, 855}", extra: vrRoundRobin},
	{pkg: "vrquorum", from: "vrviewchange", edits: map[string][][2]string{"replica.go": vrQuorum},
		cases: "{explore.AnyLoss(), 2, 91}", extra: vrRoundRobin},
	{pkg: "vrleader", from: "vrviewchange", edits: map[string][][2]string{"replica.go": vrLeader},
		cases: "{explore.AnyLoss(), 0, 326151}", extra: vrDraws},
	{pkg: "vrboth", from: "vrviewchange", edits: map[string][][2]string{"replica.go": append(vrLeader[:2:2], vrQuorum...)},
		cases: "{explore.AnyLoss(), 2, 65475}", extra: vrDraws},
}

// TestExploreTable1 generates with make-HO the machines of the Table-1
// variants of Ben-Or, UniformVoting and VR's view change, and explores
// each under the network assumptions of the paper (DELIVER n−f, KERNEL,
// any loss): the exact state counts, and for a violation its number of
// steps and the replay of its script.
func TestExploreTable1(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and explores nine packages")
	}
	res := corpusResult(t)
	dir := gopathWith(t, res)
	copyDir(t, filepath.Join("..", "compho", "explore"), filepath.Join(dir, "src", "github.com", "ccvet", "ccvet", "compho", "explore"))
	common, err := os.ReadFile(filepath.Join("testdata", "table1", "common_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, v := range table1Variants {
		entries, err := os.ReadDir(filepath.Join(corpusDir, "src", v.from))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(corpusDir, "src", v.from, name))
			if err != nil {
				t.Fatal(err)
			}
			src := strings.Replace(string(b), "package "+v.from, "package "+v.pkg, 1)
			for _, r := range v.edits[name] {
				if !strings.Contains(src, r[0]) {
					t.Fatalf("%s/%s does not contain %q", v.from, name, r[0])
				}
				src = strings.Replace(src, r[0], r[1], 1)
			}
			writeFile(t, filepath.Join(dir, "src", v.pkg, name), []byte(src))
		}
		gen, err := makeho.Generate(makeho.Options{Patterns: []string{v.pkg}, Dir: dir, Env: gopathEnv(dir)})
		if err != nil || len(gen.Errors) > 0 || len(gen.Diagnostics) > 0 || len(gen.Files) != 1 {
			t.Fatalf("generating %s: %v %v %v", v.pkg, err, gen.Errors, short(gen.Diagnostics))
		}
		writeFile(t, filepath.Join(dir, "src", v.pkg, filepath.Base(gen.Files[0].Path)), gen.Files[0].Content)
		tmpl, err := os.ReadFile(filepath.Join("testdata", "table1", v.from+"_test.go.txt"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "src", v.pkg, "table1_test.go"), []byte(strings.Replace(string(tmpl), "package PKG", "package "+v.pkg, 1)))
		writeFile(t, filepath.Join(dir, "src", v.pkg, "common_test.go"), []byte(strings.Replace(string(common), "package PKG", "package "+v.pkg, 1)))
		consts := fmt.Sprintf("package %s\n\nimport \"github.com/ccvet/ccvet/compho/explore\"\n\nconst pkg = %q\n\nvar cases = []tcase{%s}\n\n%s", v.pkg, v.pkg, v.cases, v.extra)
		writeFile(t, filepath.Join(dir, "src", v.pkg, "consts_test.go"), []byte(consts))
		pkgs = append(pkgs, v.pkg)
	}
	cmd := exec.Command("go", append([]string{"test", "-count=1", "-v", "-run", "TestTable1"}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = gopathEnv(dir)
	out, err := cmd.CombinedOutput()
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "TABLE1 ") {
			lines = append(lines, l)
		}
	}
	t.Logf("%s", strings.Join(lines, "\n"))
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}
