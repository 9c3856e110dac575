// Package testenv holds what the tests of several ccvet packages share:
// writing a module into a temporary directory, running a command for its
// output and exit status, and a small annotated module that they check.
//
// Only tests import it. It is an ordinary package rather than a _test.go
// file because a _test.go file cannot be imported by the tests of another
// package.
package testenv

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// WriteFiles writes files (slash-separated path relative to dir ->
// content) below dir, creating the directories they need and replacing
// the files that exist.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TempModule writes a module with the given module path and files (as
// WriteFiles) into a new temporary directory, removed when the test ends,
// and returns the directory. Symbolic links in its name are resolved, so
// that it compares equal to the file names that the go command and
// os.Getwd report from within it.
func TempModule(t testing.TB, path string, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	WriteFiles(t, dir, map[string]string{"go.mod": goMod(path)})
	WriteFiles(t, dir, files)
	return dir
}

// goMod is the go.mod file of a test module.
func goMod(path string) string {
	return "module " + path + "\n\ngo 1.22\n"
}

// Run runs cmd, whose Stdout and Stderr must be unset, and returns what it
// wrote to each and its exit code (-1 if a signal killed it). A command
// that cannot be started fails the test.
func Run(t testing.TB, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("%s: %v", cmd, err)
	}
	return o.String(), e.String(), code
}

// MsgsGo is package msgs of the test modules: the message type Msg, which
// //sync:msg maps to a tag of two components, Ballot and Step, and the
// //sync:send function Broadcast.
const MsgsGo = `package msgs

type Step int

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

// Broadcast sends m to every peer.
//
//sync:send
func Broadcast(m any) {}
`

// resendProcGo is package proc of ResendModule; %s follows the send.
const resendProcGo = `package proc

import "example.com/resend/msgs"

// Run sends a Prepare message that carries the previous ballot.
func Run() {
	var ballot int
	var step msgs.Step
	//sync:tag ballot,step
	for ballot < 3 {
		ballot++
		step = msgs.Prepare
		msgs.Broadcast(msgs.Msg{Ballot: ballot - 1, Step: step})%s
	}
}
`

// ResendModule returns the files of a module, go.mod included, with one
// syncsend finding: package proc sends a msgs.Msg (of MsgsGo) that
// carries the previous ballot, at proc/proc.go:13:17, and the related
// position of the finding is proc/proc.go:11:3, where the ballot is set.
// sendSuffix follows the send on its line: a comment that suppresses the
// finding, or "".
func ResendModule(sendSuffix string) map[string]string {
	return map[string]string{
		"go.mod":       goMod("example.com/resend"),
		"msgs/msgs.go": MsgsGo,
		"proc/proc.go": fmt.Sprintf(resendProcGo, sendSuffix),
	}
}

// SlowTests is the environment variable that turns on the slow suites
// (the standard library sweeps, the concurrent reruns of the suite, the
// race detector over the generated machines): `go test ./...` skips them
// unless it is 1, and CI sets it.
const SlowTests = "CCVET_SLOW_TESTS"

// Slow reports whether the slow suites are on (CCVET_SLOW_TESTS=1).
func Slow() bool {
	return os.Getenv(SlowTests) == "1"
}

// SkipUnlessSlow skips t, saying what it does and which variable runs it,
// unless the slow suites are on.
func SkipUnlessSlow(t testing.TB, what string) {
	t.Helper()
	if !Slow() {
		t.Skipf("slow: %s; set %s=1 to run it", what, SlowTests)
	}
}
