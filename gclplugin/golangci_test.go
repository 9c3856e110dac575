package gclplugin_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/testenv"
	"go.yaml.in/yaml/v3"
)

// customConfig is .custom-gcl.yml, the configuration of "golangci-lint
// custom" (pkg/commands/internal.Configuration in golangci-lint).
type customConfig struct {
	Version     string `yaml:"version"`
	Name        string `yaml:"name"`
	Destination string `yaml:"destination"`
	Plugins     []struct {
		Module  string `yaml:"module"`
		Import  string `yaml:"import"`
		Version string `yaml:"version"`
		Path    string `yaml:"path"`
	} `yaml:"plugins"`
}

// The test module is testenv.ResendModule: its finding and the finding's
// related position, as golangci-lint reports them.
const (
	finding = "proc/proc.go:13:17: syncsend: msgs.Msg sent with Ballot from before ballot was set at line 11 (condition II: a message carries the tag of the round it is sent in) (ccvet)"
	related = "proc/proc.go:11:3: syncsend(related information): ballot set here (ccvet)"
)

// TestGolangciLint builds golangci-lint with ccvet as a module plugin, the
// way "golangci-lint custom" does for example/.custom-gcl.yml, and runs it
// with example/.golangci.yml on a module with one syncsend finding.
//
// It downloads golangci-lint's source and its dependencies through the Go
// module proxy, so it runs only when CCVET_NETWORK_TESTS=1. Building
// golangci-lint takes a few minutes with a cold build cache.
func TestGolangciLint(t *testing.T) {
	if os.Getenv("CCVET_NETWORK_TESTS") != "1" {
		t.Skip("downloads golangci-lint: set CCVET_NETWORK_TESTS=1 to run")
	}
	if testing.Short() {
		t.Skip("builds golangci-lint")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the test module's paths are written with slashes")
	}

	// The example configuration names this repository as the plugin's
	// path, relative to the example directory.
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var cfg customConfig
	data, err := os.ReadFile(filepath.Join("example", ".custom-gcl.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // golangci-lint ignores unknown keys: catch typos here
	if err := dec.Decode(&cfg); err != nil {
		t.Fatalf("example/.custom-gcl.yml: %v", err)
	}
	if len(cfg.Plugins) != 1 {
		t.Fatalf("example/.custom-gcl.yml: %d plugins, want 1", len(cfg.Plugins))
	}
	plugin := cfg.Plugins[0]
	if cfg.Version != "v2.15.0" || plugin.Module != "github.com/ccvet/ccvet" ||
		plugin.Import != "github.com/ccvet/ccvet/gclplugin" || plugin.Version != "" ||
		filepath.Join("example", plugin.Path) != ".." {
		t.Fatalf("example/.custom-gcl.yml: %+v, want golangci-lint v2.15.0 and the plugin github.com/ccvet/ccvet/gclplugin from path ../..", cfg)
	}

	bin := buildGolangciLint(t, cfg.Version, plugin.Module, plugin.Import, root)

	dir := t.TempDir()
	golangciYml, err := os.ReadFile(filepath.Join("example", ".golangci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	files := testenv.ResendModule("")
	files[".golangci.yml"] = string(golangciYml)
	testenv.WriteFiles(t, dir, files)
	cache := t.TempDir()
	lint := func(t *testing.T, wantCode int, want ...string) {
		t.Helper()
		issues, stderr, code := runGolangciLint(t, bin, dir, cache)
		if code != wantCode || !slices.Equal(issues, want) {
			t.Errorf("golangci-lint run: exit %d, issues:\n%s\nstderr:\n%s\nwant exit %d and:\n%s",
				code, strings.Join(issues, "\n"), stderr, wantCode, strings.Join(want, "\n"))
		}
	}

	// golangci-lint reports each related position of a finding as an
	// issue of its own, after the finding (sorted by position).
	t.Run("finding", func(t *testing.T) {
		lint(t, 1, related, finding)
	})

	// //nolint:ccvet silences the finding on its line. The issue that
	// golangci-lint made of its related position is on another line, so it
	// stays.
	t.Run("nolint", func(t *testing.T) {
		testenv.WriteFiles(t, dir, map[string]string{"proc/proc.go": testenv.ResendModule(" //nolint:ccvet // resends on purpose")["proc/proc.go"]})
		lint(t, 1, related)
	})

	// ccvet's own //sync:ignore suppresses the finding with its related
	// positions.
	t.Run("sync:ignore", func(t *testing.T) {
		testenv.WriteFiles(t, dir, map[string]string{"proc/proc.go": testenv.ResendModule(" //sync:ignore syncsend resends on purpose")["proc/proc.go"]})
		lint(t, 0)
	})

	// The plugin's settings reach it: disabling syncsend leaves nothing.
	t.Run("settings", func(t *testing.T) {
		testenv.WriteFiles(t, dir, map[string]string{
			"proc/proc.go":  files["proc/proc.go"],
			".golangci.yml": strings.Replace(string(golangciYml), "disable: []", "disable: [syncsend]", 1),
		})
		lint(t, 0)
	})

	// An unknown analyzer name stops golangci-lint with the plugin's error
	// (exit code 3, golangci-lint's exitcodes.Failure).
	t.Run("bad settings", func(t *testing.T) {
		testenv.WriteFiles(t, dir, map[string]string{
			".golangci.yml": strings.Replace(string(golangciYml), "enable: []", "enable: [syncsnd]", 1),
		})
		_, stderr, code := runGolangciLint(t, bin, dir, cache)
		want := `plugin(ccvet): newPlugin unknown analyzer "syncsnd" in enable: the analyzers are syncdirective, syncmono, syncsend, syncrecv, syncjump`
		if code != 3 || !strings.Contains(stderr, want) {
			t.Errorf("golangci-lint run: exit %d, stderr:\n%s\nwant exit 3 (failure) and %q", code, stderr, want)
		}
	})
}

// buildGolangciLint builds golangci-lint version with the plugin package
// imp of module (whose source is in dir) as "golangci-lint custom" does: it
// adds a file that imports imp to cmd/golangci-lint, replaces module by
// dir, runs go mod tidy and go build. It checks that adding the module
// moves none of golangci-lint's dependencies to another version.
func buildGolangciLint(t *testing.T, version, module, imp, dir string) string {
	t.Helper()
	work := t.TempDir()

	var dl struct{ Dir, Error string }
	out := goCmd(t, work, "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+version)
	if err := json.Unmarshal(out, &dl); err != nil || dl.Dir == "" {
		t.Fatalf("go mod download: %v %s\n%s", err, dl.Error, out)
	}
	// The module cache is read-only; os.CopyFS creates writable files.
	src := filepath.Join(work, "golangci-lint")
	if err := os.CopyFS(src, os.DirFS(dl.Dir)); err != nil {
		t.Fatal(err)
	}

	plugins := fmt.Sprintf("package main\n\nimport (\n\t_ %q\n)\n", imp)
	testenv.WriteFiles(t, src, map[string]string{"cmd/golangci-lint/plugins.go": plugins})
	before := requirements(t, src)
	goCmd(t, src, "mod", "edit", "-replace", module+"="+dir)
	goCmd(t, src, "mod", "tidy")
	after := requirements(t, src)
	if _, ok := after[module]; !ok {
		t.Errorf("go mod tidy did not add %s to golangci-lint's go.mod", module)
	}
	for path, v := range before {
		if w, ok := after[path]; ok && w != v {
			t.Errorf("adding %s moves golangci-lint's requirement %s from %s to %s: %s/go.mod requires a later version than golangci-lint %s",
				module, path, v, w, module, version)
		}
	}

	bin := filepath.Join(work, "custom-gcl")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	goCmd(t, src, "build", "-ldflags", "-s -w -X main.version="+version+"-custom-gcl-ccvet-test",
		"-o", bin, "./cmd/golangci-lint")
	return bin
}

// requirements returns the module versions that the go.mod file in dir
// requires.
func requirements(t *testing.T, dir string) map[string]string {
	t.Helper()
	var mod struct {
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal(goCmd(t, dir, "mod", "edit", "-json"), &mod); err != nil {
		t.Fatal(err)
	}
	req := make(map[string]string, len(mod.Require))
	for _, r := range mod.Require {
		req[r.Path] = r.Version
	}
	return req
}

// goCmd runs the go command in dir, logs how long it took, and returns its
// standard output.
func goCmd(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	start := time.Now()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	t.Logf("go %s: %.1fs", strings.Join(args, " "), time.Since(start).Seconds())
	return out
}

// runGolangciLint runs "golangci-lint run" with only ccvet enabled in dir
// and returns its issues as "file:line:col: text (linter)", its standard
// error and its exit code.
func runGolangciLint(t *testing.T, bin, dir, cache string) (issues []string, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, "run", "--enable-only", "ccvet", "--output.json.path", "stdout", "--show-stats=false", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOLANGCI_LINT_CACHE="+cache)
	stdout, stderr, code := testenv.Run(t, cmd)
	if stdout == "" {
		return nil, stderr, code
	}
	var result struct {
		Issues []struct {
			FromLinter, Text string
			Pos              struct {
				Filename     string
				Line, Column int
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &result); err != nil {
		t.Fatalf("golangci-lint output: %v\n%s", err, stdout)
	}
	for _, is := range result.Issues {
		issues = append(issues, fmt.Sprintf("%s:%d:%d: %s (%s)", is.Pos.Filename, is.Pos.Line, is.Pos.Column, is.Text, is.FromLinter))
	}
	return issues, stderr, code
}
