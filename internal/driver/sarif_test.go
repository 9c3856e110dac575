package driver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/driver"
	"github.com/ccvet/ccvet/internal/testenv"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// protoGo has, for the SARIF tests, a violation with a related position
// (in Resets, on a line with a non-ASCII character before the finding, so
// that byte and UTF-16 columns differ), the same violation suppressed by
// //sync:ignore (in Ignored), two "cannot prove" findings (in Hook), and a
// //sync:ignore that matches nothing, whose finding has an end position
// (in Quiet).
const protoGo = `package p

// Step is the round inside a ballot.
type Step int

// The rounds.
const (
	Prepare Step = iota
	Ack
)

// Msg is a message.
//
//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
}

// P is a process.
type P struct {
	ballot int
	step   Step
	out    chan Msg
}

// Bump writes the tag: a function value of its type may change it.
func (p *P) Bump() { p.ballot-- }

// Resets sets the round back within a ballot.
func (p *P) Resets() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
		/* Ack → Prepare */ p.step = Prepare
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}

// Ignored does the same, with the finding suppressed.
func (p *P) Ignored() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
		//sync:ignore syncmono checked by hand: Prepare restarts the ballot
		p.step = Prepare
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}

// Bumper is implemented by *P.
type Bumper interface{ Bump() }

// Hook calls a method through an interface that may change the tag.
func (p *P) Hook(b Bumper) {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		b.Bump()
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}

// Quiet carries an ignore that suppresses nothing.
func (p *P) Quiet() {
	//sync:ignore syncsend nothing is sent here
	p.ballot = 0
}
`

// writeModule writes a module example.com/sarif holding p/p.go = protoGo
// and returns its directory, with symbolic links resolved.
func writeModule(t *testing.T) string {
	t.Helper()
	return testenv.TempModule(t, "example.com/sarif", map[string]string{"p/p.go": protoGo})
}

// runMain runs the standalone command in dir.
func runMain(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("GOWORK", "off")
	var o, e bytes.Buffer
	code = driver.Main(analyzer.Suite, args, &o, &e)
	return o.String(), e.String(), code
}

// The parts of a SARIF log that the tests check.
type (
	sarifLog struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []sarifRun
	}
	sarifRun struct {
		Tool struct {
			Driver struct {
				Name, Version, InformationURI string
				Rules                         []struct {
					ID                                string
					ShortDescription, FullDescription struct{ Text string }
					HelpURI                           string
				}
			}
		}
		Invocations []struct {
			ExecutionSuccessful        bool
			ToolExecutionNotifications []struct {
				Level   string
				Message struct{ Text string }
			}
		}
		OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
		ColumnKind         string
		Results            []sarifResult
	}
	sarifResult struct {
		RuleID           string
		RuleIndex        *int
		Level            string
		Message          struct{ Text string }
		Locations        []sarifLocation
		RelatedLocations []sarifLocation
		Fixes            []struct {
			Description     struct{ Text string }
			ArtifactChanges []struct {
				ArtifactLocation sarifArtifact
				Replacements     []struct {
					DeletedRegion   sarifRegion
					InsertedContent struct{ Text string }
				}
			}
		}
		Suppressions []struct {
			Kind, Justification string
			Location            *sarifLocation
		}
	}
	sarifLocation struct {
		ID               int
		PhysicalLocation struct {
			ArtifactLocation sarifArtifact
			Region           sarifRegion
		}
		Message *struct{ Text string }
	}
	sarifArtifact struct {
		URI       string
		URIBaseID string `json:"uriBaseId"`
	}
	sarifRegion struct{ StartLine, StartColumn, EndLine, EndColumn int }
)

func (l sarifLocation) String() string {
	a, r := l.PhysicalLocation.ArtifactLocation, l.PhysicalLocation.Region
	s := fmt.Sprintf("%s%s:%d:%d-%d:%d", a.URIBaseID, a.URI, r.StartLine, r.StartColumn, r.EndLine, r.EndColumn)
	if l.ID != 0 {
		s = fmt.Sprintf("#%d %s", l.ID, s)
	}
	if l.Message != nil {
		s += ": " + l.Message.Text
	}
	return s
}

// summary renders a result in one line per part, for exact comparison.
func summary(r sarifResult) []string {
	idx := "-"
	if r.RuleIndex != nil {
		idx = strconv.Itoa(*r.RuleIndex)
	}
	out := []string{fmt.Sprintf("%s[%s] %s: %s", r.RuleID, idx, r.Level, r.Message.Text)}
	for _, l := range r.Locations {
		out = append(out, "at "+l.String())
	}
	for _, l := range r.RelatedLocations {
		out = append(out, "related "+l.String())
	}
	for _, f := range r.Fixes {
		out = append(out, "fix "+f.Description.Text)
		for _, c := range f.ArtifactChanges {
			for _, rep := range c.Replacements {
				d := rep.DeletedRegion
				out = append(out, fmt.Sprintf("  %s%s:%d:%d-%d:%d := %q", c.ArtifactLocation.URIBaseID, c.ArtifactLocation.URI,
					d.StartLine, d.StartColumn, d.EndLine, d.EndColumn, rep.InsertedContent.Text))
			}
		}
	}
	for _, s := range r.Suppressions {
		loc := ""
		if s.Location != nil {
			loc = " at " + s.Location.String()
		}
		out = append(out, fmt.Sprintf("suppressed %s: %s%s", s.Kind, s.Justification, loc))
	}
	return out
}

func decodeSARIF(t *testing.T, data string) sarifLog {
	t.Helper()
	var log sarifLog
	dec := json.NewDecoder(strings.NewReader(data))
	if err := dec.Decode(&log); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, data)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	return log
}

func TestSARIF(t *testing.T) {
	dir := writeModule(t)
	stdout, stderr, code := runMain(t, dir, "-sarif", "./...")
	if code != driver.ExitFindings || stderr != "" {
		t.Fatalf("ccvet -sarif: exit %d, stderr:\n%s", code, stderr)
	}
	log := decodeSARIF(t, stdout)
	if log.Version != "2.1.0" || log.Schema != "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json" {
		t.Errorf("version %q, $schema %q", log.Version, log.Schema)
	}
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name != "ccvet" || d.Version != driver.Version() || d.InformationURI != "https://github.com/ccvet/ccvet" {
		t.Errorf("tool.driver: name %q version %q informationUri %q", d.Name, d.Version, d.InformationURI)
	}
	if len(d.Rules) != len(analyzer.Suite) {
		t.Fatalf("%d rules, want one per analyzer (%d)", len(d.Rules), len(analyzer.Suite))
	}
	for i, a := range analyzer.Suite {
		r := d.Rules[i]
		title, _, _ := strings.Cut(a.Doc, "\n")
		if r.ID != a.Name || r.HelpURI != a.URL || r.ShortDescription.Text != title || r.FullDescription.Text != strings.TrimSpace(a.Doc) {
			t.Errorf("rule %d: %+v, want id %s, helpUri %s, shortDescription %q and the whole Doc", i, r, a.Name, a.URL, title)
		}
	}
	wantBase := "file://" + filepath.ToSlash(dir) + "/"
	if !strings.HasPrefix(filepath.ToSlash(dir), "/") {
		wantBase = "file:///" + filepath.ToSlash(dir) + "/"
	}
	if got := run.OriginalURIBaseIDs["%SRCROOT%"].URI; got != wantBase {
		t.Errorf("originalUriBaseIds[%%SRCROOT%%] = %q, want %q", got, wantBase)
	}
	if run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q", run.ColumnKind)
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful || len(run.Invocations[0].ToolExecutionNotifications) != 0 {
		t.Errorf("invocations %+v, want one successful", run.Invocations)
	}

	var got [][]string
	for _, r := range run.Results {
		got = append(got, summary(r))
	}
	const file = "%SRCROOT%p/p.go"
	want := [][]string{
		{
			"syncmono[1] error: p.step is set lower than it was at send (line 36), while p.ballot did not increase (condition I: the tag never decreases)",
			// Byte column 27: "→" is 3 bytes and one UTF-16 unit.
			"at " + file + ":37:25-0:0",
			"related #1 " + file + ":38:9-0:0: the lower tag is reached at send",
		},
		{
			"syncmono[1] warning: cannot prove condition I: the call to the method Bump of an interface may change p.ballot,p.step and ccvet cannot follow it",
			"at " + file + ":64:9-0:0",
		},
		{
			"syncdirective[0] error: //sync:ignore syncsend matches no diagnostic on this line or the next: remove it",
			"at " + file + ":71:2-71:45",
			"fix remove the unused //sync:ignore",
			"  " + file + ":71:1-72:1 := \"\"",
		},
		{
			"syncmono[1] error: p.step is set lower than it was at send (line 48), while p.ballot did not increase (condition I: the tag never decreases)",
			"at " + file + ":50:5-0:0",
			"related #1 " + file + ":51:9-0:0: the lower tag is reached at send",
			"suppressed inSource: checked by hand: Prepare restarts the ballot at " + file + ":49:3-0:0",
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results:\n%s\nwant:\n%s", render(got), render(want))
	}

	// The suppressed finding stays out of the other outputs.
	stdout, _, code = runMain(t, dir, "-json", "./...")
	var findings []driver.Finding
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil || code != driver.ExitFindings {
		t.Fatalf("-json: exit %d, %v\n%s", code, err, stdout)
	}
	if len(findings) != 3 || strings.Contains(stdout, "restarts the ballot") {
		t.Errorf("-json printed %d findings, want 3 and not the suppressed one:\n%s", len(findings), stdout)
	}
}

func render(rs [][]string) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(strings.Join(r, "\n\t") + "\n")
	}
	return b.String()
}

// TestSARIFSuppressed checks Analyze's Result.Suppressed directly.
func TestSARIFSuppressed(t *testing.T) {
	dir := writeModule(t)
	res, err := driver.Analyze(driver.Options{Analyzers: analyzer.Suite, Patterns: []string{"./..."}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Suppressed) != 1 {
		t.Fatalf("Suppressed = %+v, want one", res.Suppressed)
	}
	s := res.Suppressed[0]
	got := fmt.Sprintf("%s:%d:%d %s | %s | %s:%d:%d %s", filepath.Base(s.Path), s.Line, s.Column, s.Analyzer, s.Reason,
		filepath.Base(s.Ignore.Path), s.Ignore.Line, s.Ignore.Column, s.Ignore.Message)
	want := "p.go:50:5 syncmono | checked by hand: Prepare restarts the ballot | p.go:49:3 //sync:ignore syncmono checked by hand: Prepare restarts the ballot"
	if got != want {
		t.Errorf("suppressed:\n got %s\nwant %s", got, want)
	}
}

func TestSARIFWithJSON(t *testing.T) {
	dir := writeModule(t)
	stdout, stderr, code := runMain(t, dir, "-json", "-sarif", "./...")
	if code != driver.ExitError || stdout != "" || !strings.Contains(stderr, "-json and -sarif are mutually exclusive") {
		t.Errorf("ccvet -json -sarif: exit %d, stdout %q, stderr %q; want exit 2 and an error", code, stdout, stderr)
	}
}

// fixResult is a Result with suggested fixes, which no analyzer emits yet,
// and a related position outside the root, for the SARIF tests.
func fixResult(t *testing.T) (res *driver.Result, root string) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "dir with space", "f.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	// Line 2: a tab, "é" (2 bytes, 1 UTF-16 unit), "𝔸" (4 bytes, 2 UTF-16 units).
	if err := os.WriteFile(file, []byte("package f\n\té𝔸 := 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(root), "elsewhere.go") // not read: columns stay
	f := driver.Finding{
		Analyzer: "syncsend", Path: file, Line: 2, Column: 8, End: &driver.Position{Line: 2, Column: 9},
		Message: "a violation",
		Related: []driver.Related{{Path: outside, Line: 3, Column: 4, Message: "declared here"}},
		Fixes: []driver.Fix{{
			Message: "rename and insert",
			Edits: []driver.Edit{
				{Path: file, Start: driver.Position{Line: 2, Column: 2}, End: driver.Position{Line: 2, Column: 8}, New: "x"},
				{Path: file, Start: driver.Position{Line: 1, Column: 10}, End: driver.Position{Line: 1, Column: 10}, New: " // f"},
			},
		}},
	}
	return &driver.Result{Findings: []driver.Finding{f}, Errors: []string{"bad/bad.go:1:1: expected package"}}, root
}

// TestSARIFFixes checks fixes, absolute URIs, column conversion and error
// notifications on a synthetic Result: no analyzer emits suggested fixes
// yet.
func TestSARIFFixes(t *testing.T) {
	res, root := fixResult(t)
	var buf bytes.Buffer
	if err := driver.WriteSARIF(&buf, res, analyzer.Suite, root); err != nil {
		t.Fatal(err)
	}
	log := decodeSARIF(t, buf.String())
	run := log.Runs[0]
	if len(run.Results) != 1 {
		t.Fatalf("%d results", len(run.Results))
	}
	outside := "file://" + filepath.ToSlash(filepath.Join(filepath.Dir(root), "elsewhere.go"))
	got := summary(run.Results[0])
	want := []string{
		"syncsend[2] error: a violation",
		"at %SRCROOT%dir%20with%20space/f.go:2:5-2:6",
		"related #1 " + outside + ":3:4-0:0: declared here",
		"fix rename and insert",
		`  %SRCROOT%dir%20with%20space/f.go:2:2-2:5 := "x"`,
		`  %SRCROOT%dir%20with%20space/f.go:1:10-1:10 := " // f"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("result:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	inv := run.Invocations
	if len(inv) != 1 || inv[0].ExecutionSuccessful || len(inv[0].ToolExecutionNotifications) != 1 ||
		inv[0].ToolExecutionNotifications[0].Level != "error" || inv[0].ToolExecutionNotifications[0].Message.Text != res.Errors[0] {
		t.Errorf("invocations %+v, want one unsuccessful with the error", inv)
	}
}

// schemaModule is a module on the Go module proxy that carries the SARIF
// 2.1.0 JSON schema (OASIS errata 01, draft-04), as a Go string constant
// named schema in schemaFile. The test reads it from the module cache,
// so that no copy of the schema is committed here.
const (
	schemaModule = "github.com/owenrumney/go-sarif/v3@v3.3.1"
	schemaFile   = "pkg/report/v210/sarif/schema.go"
	schemaID     = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

// sarifSchema downloads schemaModule (verified against the checksum
// database by the go command) and compiles its schema. It needs the
// network, so it runs only when CCVET_NETWORK_TESTS=1.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	if os.Getenv("CCVET_NETWORK_TESTS") != "1" {
		t.Skip("set CCVET_NETWORK_TESTS=1 to fetch the SARIF schema from the module proxy")
	}
	cmd := exec.Command("go", "mod", "download", "-json", schemaModule)
	cmd.Dir = t.TempDir() // outside any module: go.mod stays as it is
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.Output()
	var mod struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &mod); jerr != nil || mod.Error != "" || err != nil {
		t.Fatalf("go mod download %s: %v %s %v", schemaModule, err, mod.Error, jerr)
	}
	src := filepath.Join(mod.Dir, filepath.FromSlash(schemaFile))
	f, err := parser.ParseFile(token.NewFileSet(), src, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) == 1 && vs.Names[0].Name == "schema" && len(vs.Values) == 1 {
			if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				text, err = strconv.Unquote(lit.Value)
			}
		}
		return text == ""
	})
	if text == "" || err != nil {
		t.Fatalf("%s: no string constant schema (%v)", src, err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if m, ok := doc.(map[string]any); !ok || m["id"] != schemaID {
		t.Fatalf("%s: not the SARIF 2.1.0 schema %s", src, schemaID)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaID)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestSARIFSchema validates the -sarif output of a real analysis, and the
// SARIF of a Result with fixes and errors, against the SARIF 2.1.0 schema.
func TestSARIFSchema(t *testing.T) {
	sch := sarifSchema(t)
	validate := func(name, data string) {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s does not validate: %v\n%s", name, err, data)
		}
	}
	res, root := fixResult(t)
	var buf bytes.Buffer
	if err := driver.WriteSARIF(&buf, res, analyzer.Suite, root); err != nil {
		t.Fatal(err)
	}
	validate("synthetic result with fixes", buf.String())

	stdout, stderr, code := runMain(t, writeModule(t), "-sarif", "./...")
	if code != driver.ExitFindings {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	validate("ccvet -sarif", stdout)

	// A clean run: no result at all.
	stdout, _, code = runMain(t, writeModule(t), "-sarif", "-syncjump", "./...")
	if code != driver.ExitClean || !strings.Contains(stdout, `"results": []`) {
		t.Errorf("ccvet -sarif -syncjump: exit %d\n%s", code, stdout)
	}
	validate("clean run", stdout)
}
