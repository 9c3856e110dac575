package main_test

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

// The tests of this file keep the user documentation (README.md,
// CHANGELOG.md, examples/README.md and docs/) true: its links resolve, the
// README stays short, no development history leaks into it, and the
// commands the README shows run with the exit status it implies.

// repoRoot is the repository's root, relative to this package.
const repoRoot = "../.."

// readmeLimit is the README's size limit in bytes: a page a newcomer reads
// whole. The reference belongs in docs/.
const readmeLimit = 12000

// pendingDocs are documents that the README or docs/ link to and that
// are written with the feature they describe, on its own branch. A link to
// one of them is not checked while the file is missing; once it exists it
// is checked like any other, and its entry here can go.
var pendingDocs = map[string]string{}

// docFiles returns the Markdown files whose links are checked, relative to
// the repository's root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CHANGELOG.md", "examples/README.md"}
	md, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range md {
		files = append(files, filepath.ToSlash(strings.TrimPrefix(f, repoRoot+string(filepath.Separator))))
	}
	return files
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	fenceRE      = regexp.MustCompile("(?s)(^|\n)```[^\n]*\n.*?\n```")
	inlineCodeRE = regexp.MustCompile("`[^`\n]*`")
	linkRE       = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRE    = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
)

// prose returns Markdown text without its code: fenced blocks and inline
// code spans, whose brackets are not links and whose lines starting with
// # are not headings.
func prose(md string) string {
	md = fenceRE.ReplaceAllString(md, "\n")
	return inlineCodeRE.ReplaceAllString(md, "")
}

// anchors returns the anchors GitHub gives the headings of md: lower case,
// punctuation other than - and _ removed, spaces made hyphens, and a
// repeated anchor numbered -1, -2, ...
func anchors(md string) map[string]bool {
	md = fenceRE.ReplaceAllString(md, "\n")
	seen := map[string]int{}
	out := map[string]bool{}
	for _, m := range headingRE.FindAllStringSubmatch(md, -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// checkTarget reports whether the repository path target (slash-separated,
// relative to the root, with an optional #anchor) exists, and the anchor
// in it if it is a Markdown file.
func checkTarget(t *testing.T, from, target string) {
	t.Helper()
	file, anchor, _ := strings.Cut(target, "#")
	file = path.Clean(file)
	full := filepath.Join(repoRoot, filepath.FromSlash(file))
	if _, err := os.Stat(full); err != nil {
		if reason, ok := pendingDocs[file]; ok {
			t.Logf("%s: link to %s not checked: %s", from, file, reason)
			return
		}
		t.Errorf("%s: link %s: no such file", from, target)
		return
	}
	if anchor == "" || !strings.HasSuffix(file, ".md") {
		return
	}
	if !anchors(readRepoFile(t, file))[anchor] {
		t.Errorf("%s: link %s: %s has no heading with anchor #%s", from, target, file, anchor)
	}
}

// TestDocLinks checks that every relative link of the user documentation
// leads to a file of the repository, and to a heading of it when it names
// an anchor.
func TestDocLinks(t *testing.T) {
	for _, name := range docFiles(t) {
		dir := filepath.ToSlash(filepath.Dir(name))
		for _, m := range linkRE.FindAllStringSubmatch(prose(readRepoFile(t, name)), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			if strings.HasPrefix(link, "#") {
				link = filepath.Base(name) + link
			}
			checkTarget(t, name, path.Join(dir, link))
		}
	}
}

// TestAnalyzerURLs checks that the documentation URL of every analyzer,
// which help, -json, SARIF and the language server show, leads to a
// heading of the documentation in this repository.
func TestAnalyzerURLs(t *testing.T) {
	const base = "https://github.com/ccvet/ccvet/blob/main/"
	all := []*analysis.Analyzer{annotations.Analyzer, tagflow.Analyzer}
	all = append(all, analyzer.Suite...)
	all = append(all, analyzer.Advisory...)
	for _, a := range all {
		rest, ok := strings.CutPrefix(a.URL, base)
		if !ok {
			t.Errorf("%s: URL %q does not start with %s", a.Name, a.URL, base)
			continue
		}
		checkTarget(t, a.Name+"'s URL", rest)
	}
}

var (
	sessionRE = regexp.MustCompile(`(?i)\bsessions?\b`)
	// hexRE matches what may be a commit hash: 7 to 40 hexadecimal digits
	// as a word, with at least one digit and one letter.
	hexRE = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	// pseudoRE matches the commit of a Go pseudo-version
	// (v0.0.0-20220810095021-e43142f8d267), which names a module version.
	pseudoRE = regexp.MustCompile(`\d{14}-[0-9a-f]{12}\b`)
)

// TestDocsNoHistory checks that the README, the changelog and docs/ say
// what ccvet does, not how it came to do it: no session, no commit hash.
func TestDocsNoHistory(t *testing.T) {
	files := []string{"README.md", "CHANGELOG.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, filepath.ToSlash(strings.TrimPrefix(p, repoRoot+string(filepath.Separator))))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		for i, line := range strings.Split(readRepoFile(t, name), "\n") {
			if m := sessionRE.FindString(line); m != "" {
				t.Errorf("%s:%d: %q: development history belongs nowhere in the user documentation", name, i+1, m)
			}
			line = pseudoRE.ReplaceAllString(line, "")
			for _, h := range hexRE.FindAllString(line, -1) {
				if strings.ContainsAny(h, "0123456789") && strings.ContainsAny(h, "abcdef") {
					t.Errorf("%s:%d: %q looks like a commit hash", name, i+1, h)
				}
			}
		}
	}
}

// TestReadmeSize checks that the README stays a page, not a reference.
func TestReadmeSize(t *testing.T) {
	if n := len(readRepoFile(t, "README.md")); n >= readmeLimit {
		t.Errorf("README.md has %d bytes, want fewer than %d: move the reference to docs/", n, readmeLimit)
	}
}

// A readmeCommand says how TestReadmeCommands treats a command of the
// README's sh blocks.
type readmeCommand struct {
	// inExample runs the command in a copy of testdata/readme, the module
	// of the README's example, rather than at the repository's root.
	inExample bool
	exit      int
	// skip says why the command is not run.
	skip string
	// pendingFlag is a flag that is built on another branch: while the
	// binary rejects it, the command is not run.
	pendingFlag string
}

// readmeCommands lists every command of the README's sh blocks, as
// written there without its comment. "go run ./cmd/ccvet" and "ccvet" run
// the binary built by TestMain, and $(which ccvet) is its path.
var readmeCommands = map[string]readmeCommand{
	"go run ./cmd/ccvet ./examples/...":    {exit: 1},
	"go test ./...":                        {skip: "the whole test suite, this test included"},
	"go install ./cmd/ccvet":               {skip: "installs into the reader's GOPATH/bin"},
	"ccvet ./...":                          {inExample: true, exit: 1},
	"go vet -vettool=$(which ccvet) ./...": {inExample: true, exit: 1},
	"ccvet -v ./...":                       {inExample: true, exit: 1},
	"ccvet -json ./...":                    {inExample: true, exit: 1},
	"ccvet help syncmono":                  {exit: 0},
	"ccvet makeho ./...":                   {inExample: true, exit: 1},
	"ccvet makeho -check ./...":            {inExample: true, exit: 1},
	"ccvet explore ./examples/paxos":       {exit: 1},
}

var (
	blockRE   = regexp.MustCompile("(?s)(?:^|\n)```([^\n]*)\n(.*?)\n```")
	commentRE = regexp.MustCompile(`\s+#.*$`)
)

// codeBlocks returns the contents of md's fenced blocks whose info string
// is lang.
func codeBlocks(md, lang string) []string {
	var out []string
	for _, m := range blockRE.FindAllStringSubmatch(md, -1) {
		if strings.TrimSpace(m[1]) == lang {
			out = append(out, m[2])
		}
	}
	return out
}

// exampleModule copies testdata/readme, the module of the README's
// example, into a temporary directory and returns it.
func exampleModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "readme"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReadmeCommands runs every command of the README's sh blocks that
// can run offline and cheaply, and checks its exit status. A command the
// test does not know fails it, so that a new command is either run or
// skipped for a stated reason.
func TestReadmeCommands(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	example := exampleModule(t)
	shown := map[string]bool{}
	for _, block := range codeBlocks(readRepoFile(t, "README.md"), "sh") {
		for _, line := range strings.Split(block, "\n") {
			line = strings.TrimSpace(commentRE.ReplaceAllString(line, ""))
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			shown[line] = true
			rc, ok := readmeCommands[line]
			switch {
			case !ok:
				t.Errorf("README command %q: not in readmeCommands: say how to run it, or why not", line)
			case rc.skip != "":
				t.Logf("README command %q: not run: %s", line, rc.skip)
			default:
				dir := root
				if rc.inExample {
					dir = example
				}
				runReadmeCommand(t, dir, line, rc)
			}
		}
	}
	for cmd := range readmeCommands {
		if !shown[cmd] {
			t.Errorf("readmeCommands lists %q, which the README does not show", cmd)
		}
	}
}

// runReadmeCommand runs the README command line in dir and checks its exit
// status.
func runReadmeCommand(t *testing.T, dir, line string, rc readmeCommand) {
	t.Helper()
	cmdline := strings.ReplaceAll(line, "$(which ccvet)", ccvet)
	if rest, ok := strings.CutPrefix(cmdline, "go run ./cmd/ccvet"); ok {
		cmdline = "ccvet" + rest
	}
	args := strings.Fields(cmdline)
	if args[0] == "ccvet" {
		args[0] = ccvet
	}
	stdout, stderr, code := run(t, dir, args[0], args[1:]...)
	if rc.pendingFlag != "" && code == 2 && strings.Contains(stderr, "flag provided but not defined: "+rc.pendingFlag) {
		t.Logf("README command %q: not run: this binary has no %s flag yet", line, rc.pendingFlag)
		return
	}
	if code != rc.exit {
		t.Errorf("README command %q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", line, code, rc.exit, stdout, stderr)
	}
}

// TestReadmeExample checks the README's first example: its loop is that of
// testdata/readme, the finding shown is what ccvet prints on it, and the
// fix the README gives leaves nothing to report.
func TestReadmeExample(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	loops, findings := codeBlocks(readme, "go"), codeBlocks(readme, "")
	if len(loops) == 0 || len(findings) == 0 {
		t.Fatal("README.md has no go block or no plain block for the example and its finding")
	}
	dir := exampleModule(t)
	src := filepath.Join(dir, "leader", "leader.go")
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(code), indent(loops[0])) {
		t.Errorf("the README's first go block is not the loop of testdata/readme/leader/leader.go:\n%s", loops[0])
	}
	stdout, stderr, exit := run(t, dir, ccvet, "./...")
	if exit != 1 || stdout != findings[0]+"\n" {
		t.Errorf("ccvet ./... on the README's example: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1 and the README's finding:\n%s", exit, stdout, stderr, findings[0])
	}

	const bug, fix = "m.Ballot > p.ballot ||", "m.Ballot != p.ballot ||"
	if !strings.Contains(readme, "The fix is\n`m.Ballot != p.ballot`") {
		t.Errorf("README.md no longer gives the fix %q that this test applies", fix)
	}
	if err := os.WriteFile(src, []byte(strings.Replace(string(code), bug, fix, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, exit = run(t, dir, ccvet, "./...")
	if exit != 0 || stdout != "" {
		t.Errorf("ccvet ./... on the fixed example: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 0 and no output", exit, stdout, stderr)
	}
}

// indent indents the non-empty lines of code by one tab, as in a function
// body.
func indent(code string) string {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "\t" + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
