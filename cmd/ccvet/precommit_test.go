package main_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/testenv"
	"go.yaml.in/yaml/v3"
)

// preCommitHook is a hook of .pre-commit-hooks.yaml: the keys of
// pre-commit's manifest schema (MANIFEST_HOOK_DICT in pre_commit/clientlib.py),
// so that decoding with known fields only rejects a misspelt key.
type preCommitHook struct {
	ID                      string   `yaml:"id"`
	Name                    string   `yaml:"name"`
	Entry                   string   `yaml:"entry"`
	Language                string   `yaml:"language"`
	Alias                   string   `yaml:"alias"`
	Files                   string   `yaml:"files"`
	Exclude                 string   `yaml:"exclude"`
	Types                   []string `yaml:"types"`
	TypesOr                 []string `yaml:"types_or"`
	ExcludeTypes            []string `yaml:"exclude_types"`
	AdditionalDependencies  []string `yaml:"additional_dependencies"`
	Args                    []string `yaml:"args"`
	AlwaysRun               *bool    `yaml:"always_run"`
	FailFast                *bool    `yaml:"fail_fast"`
	PassFilenames           *bool    `yaml:"pass_filenames"`
	Description             string   `yaml:"description"`
	LanguageVersion         string   `yaml:"language_version"`
	LogFile                 string   `yaml:"log_file"`
	MinimumPreCommitVersion string   `yaml:"minimum_pre_commit_version"`
	RequireSerial           *bool    `yaml:"require_serial"`
	Stages                  []string `yaml:"stages"`
	Verbose                 *bool    `yaml:"verbose"`
}

// readPreCommitHooks decodes the repository's .pre-commit-hooks.yaml.
func readPreCommitHooks(t *testing.T) []preCommitHook {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var hooks []preCommitHook
	if err := dec.Decode(&hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	return hooks
}

// TestPreCommitHooks checks the hooks that .pre-commit-hooks.yaml defines.
// pre-commit splits an entry into words (shlex.split) and runs it without a
// shell, so an entry must not rely on shell syntax.
func TestPreCommitHooks(t *testing.T) {
	hooks := readPreCommitHooks(t)
	want := map[string]string{
		"ccvet":              "ccvet ./...",
		"ccvet-makeho-check": "ccvet makeho -check ./...",
	}
	var ids []string
	for _, h := range hooks {
		ids = append(ids, h.ID)
		if h.Entry != want[h.ID] {
			t.Errorf("hook %s: entry %q, want %q", h.ID, h.Entry, want[h.ID])
		}
		if h.Name == "" || h.Description == "" {
			t.Errorf("hook %s: name %q and description %q are required", h.ID, h.Name, h.Description)
		}
		// language: golang installs the repository with go install ./...,
		// which names the binary after the directory of its main package.
		if h.Language != "golang" {
			t.Errorf("hook %s: language %q, want golang", h.ID, h.Language)
		}
		if prog, _, _ := strings.Cut(h.Entry, " "); prog != "ccvet" {
			t.Errorf("hook %s: entry runs %q, want ccvet, the command that go install ./... installs", h.ID, prog)
		}
		if i := strings.IndexAny(h.Entry, "$`|&;<>(){}[]*?~'\"\\#"); i >= 0 {
			t.Errorf("hook %s: entry %q contains %q: pre-commit runs entries without a shell", h.ID, h.Entry, h.Entry[i])
		}
		// The analysis is of whole packages: run once, on the module.
		if h.PassFilenames == nil || *h.PassFilenames {
			t.Errorf("hook %s: pass_filenames must be false", h.ID)
		}
		if h.RequireSerial == nil || !*h.RequireSerial {
			t.Errorf("hook %s: require_serial must be true", h.ID)
		}
		if !slices.Equal(h.Types, []string{"go"}) {
			t.Errorf("hook %s: types %v, want [go]", h.ID, h.Types)
		}
		if h.Files != "" || h.Exclude != "" || len(h.Args) > 0 || h.AlwaysRun != nil || len(h.AdditionalDependencies) > 0 {
			t.Errorf("hook %s: sets files, exclude, args, always_run or additional_dependencies: %+v", h.ID, h)
		}
	}
	if !slices.Equal(ids, []string{"ccvet", "ccvet-makeho-check"}) {
		t.Errorf("hook ids %v, want [ccvet ccvet-makeho-check]", ids)
	}
}

// The hook tests check testenv.ResendModule: its finding, as ccvet prints
// it, and the comment after the send that suppresses it.
const (
	hookFinding = "proc/proc.go:13:17: msgs.Msg sent with Ballot from before ballot was set at line 11 (condition II: a message carries the tag of the round it is sent in) (syncsend)\n" +
		"\tproc/proc.go:11:3: ballot set here\n"
	hookIgnore = " //sync:ignore syncsend resends on purpose"
)

// runEntry runs a hook's entry as pre-commit does: split into words, with
// no shell, from the root of the repository, with the directory where
// go install put ccvet first in PATH.
func runEntry(t *testing.T, dir, entry string) (stdout, stderr string, code int) {
	t.Helper()
	t.Setenv("PATH", filepath.Dir(ccvet)+string(os.PathListSeparator)+os.Getenv("PATH"))
	words := strings.Fields(entry)
	cmd := exec.Command(words[0], words[1:]...)
	if cmd.Err != nil {
		t.Fatal(cmd.Err)
	}
	if cmd.Path != ccvet {
		t.Fatalf("entry %q runs %s, want %s", entry, cmd.Path, ccvet)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	return testenv.Run(t, cmd)
}

// TestPreCommitEntry runs the ccvet hook's entry as pre-commit would, on a
// module with one finding and then with the finding suppressed: a commit
// fails exactly when ccvet has findings.
func TestPreCommitEntry(t *testing.T) {
	var entry string
	for _, h := range readPreCommitHooks(t) {
		if h.ID == "ccvet" {
			entry = h.Entry
		}
	}
	if entry == "" {
		t.Fatal(".pre-commit-hooks.yaml has no hook ccvet")
	}
	dir := t.TempDir()

	testenv.WriteFiles(t, dir, testenv.ResendModule(""))
	stdout, stderr, code := runEntry(t, dir, entry)
	if code != 1 || stdout != hookFinding || stderr != "" {
		t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1 and\n%s", entry, code, stdout, stderr, hookFinding)
	}

	testenv.WriteFiles(t, dir, testenv.ResendModule(hookIgnore))
	stdout, stderr, code = runEntry(t, dir, entry)
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("%s with the finding ignored: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 0 and no output", entry, code, stdout, stderr)
	}
}

// TestPreCommitTryRepo runs the ccvet hook with pre-commit itself, which
// installs this repository with go install (fetching its dependencies
// through the Go module proxy into a GOPATH of its own), in a git
// repository holding a module with one finding. It needs the pre-commit
// and git commands, and network access for the module proxy
// (CCVET_NETWORK_TESTS=1).
func TestPreCommitTryRepo(t *testing.T) {
	if os.Getenv("CCVET_NETWORK_TESTS") != "1" {
		t.Skip("pre-commit downloads ccvet's dependencies: set CCVET_NETWORK_TESTS=1 to run")
	}
	for _, tool := range []string{"pre-commit", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s command: %v", tool, err)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		t.Skipf("%s is not a git repository: %v", root, err)
	}

	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=ccvet test", "-c", "user.email=test@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	tryRepo := func() (string, int) {
		t.Helper()
		// try-repo takes the repository's HEAD, with its uncommitted
		// changes to tracked files.
		cmd := exec.Command("pre-commit", "try-repo", root, "ccvet", "--all-files", "--color=never")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PRE_COMMIT_HOME="+filepath.Join(dir, ".pre-commit-home"), "GOWORK=off")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return string(out), 0
		case errors.As(err, &ee):
			return string(out), ee.ExitCode()
		}
		t.Fatalf("pre-commit: %v", err)
		return "", 0
	}

	testenv.WriteFiles(t, dir, testenv.ResendModule(""))
	// Keep pre-commit's cache, where it installs ccvet, out of the checked files.
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("/.pre-commit-home/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "module with a finding")

	out, code := tryRepo()
	if code != 1 || !strings.Contains(out, "- hook id: ccvet\n- exit code: 1\n\n"+hookFinding) {
		t.Fatalf("pre-commit try-repo: exit %d, output:\n%s\nwant exit 1 and the finding\n%s", code, out, hookFinding)
	}

	testenv.WriteFiles(t, dir, testenv.ResendModule(hookIgnore))
	git("commit", "-q", "-a", "-m", "ignore the finding")
	out, code = tryRepo()
	if code != 0 || !strings.Contains(out, "ccvet....") || !strings.Contains(out, "Passed") {
		t.Fatalf("pre-commit try-repo with the finding ignored: exit %d, output:\n%s\nwant exit 0 and the hook passed", code, out)
	}
}
