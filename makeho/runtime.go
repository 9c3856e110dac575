package makeho

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The generated code imports the runtime, github.com/ccvet/ccvet/compho.
// A module that does not require ccvet cannot build it: make-HO asks the
// go command whether the import resolves from the package's module (go
// list -find, which looks at no dependency and changes no file), once per
// module, and if it does not, writes nothing for the package and says
// what to run. Packages outside modules (GOPATH mode) are not checked.

// ccvetModule is the module that holds the runtime.
const ccvetModule = "github.com/ccvet/ccvet"

// runtimeMissing returns what to do so that the module mod resolves the
// runtime's import, or "" if it does (or mod is nil: GOPATH mode). done
// caches the answer per module directory.
func runtimeMissing(mod *packages.Module, env []string, done map[string]string) string {
	if mod == nil || mod.Dir == "" {
		return ""
	}
	if msg, ok := done[mod.Dir]; ok {
		return msg
	}
	msg := ""
	if !resolves(mod.Dir, env) {
		msg = missingMessage(mod, ccvetVersion())
	}
	done[mod.Dir] = msg
	return msg
}

// resolves reports whether the import of the runtime resolves from the
// module in dir, as a build there would resolve it. -mod=readonly keeps
// the go command from adding the requirement itself (GOFLAGS=-mod=mod
// would); a vendored module is asked with its vendor directory.
func resolves(dir string, env []string) bool {
	args := []string{"list", "-find", "-e", "-f", "{{with .Error}}{{.Err}}{{end}}"}
	if fi, err := os.Stat(filepath.Join(dir, "vendor")); err != nil || !fi.IsDir() {
		args = append(args, "-mod=readonly")
	}
	cmd := exec.Command("go", append(args, comphoPath)...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	return cmd.Run() == nil && strings.TrimSpace(stdout.String()) == ""
}

// missingMessage says what to run in the module mod so that it resolves
// the runtime of ccvet version v ("" if this ccvet has no version: a
// development build).
func missingMessage(mod *packages.Module, v string) string {
	head := fmt.Sprintf("the generated code imports %s, which module %s does not resolve: nothing written for this package", comphoPath, mod.Path)
	if v == "" {
		return fmt.Sprintf("%s; run\n\tgo get %s@latest\nin %s (the directory of its go.mod)", head, ccvetModule, mod.Dir)
	}
	return fmt.Sprintf("%s; run\n\tgo get %s@%s\nin %s (the directory of its go.mod), or add\n\trequire %s %s\nto its go.mod", head, ccvetModule, v, mod.Dir, ccvetModule, v)
}

// ccvetVersion returns the version of ccvet this binary is built from,
// or "" for a development build (or one from a modified checkout, whose
// version names no fetchable source).
func ccvetVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v := bi.Main.Version
	if bi.Main.Path != ccvetModule {
		v = ""
		for _, d := range bi.Deps {
			if d.Path == ccvetModule {
				v = d.Version
				if d.Replace != nil {
					v = "" // a replaced ccvet: its version says nothing of the source
				}
			}
		}
	}
	if v == "(devel)" || strings.HasSuffix(v, "+dirty") {
		return ""
	}
	return v
}
