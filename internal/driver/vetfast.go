package driver

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
)

// vetConfig is the part of the go vet configuration file (the *.cfg
// argument of a -vettool) that the fast path reads; see
// golang.org/x/tools/go/analysis/unitchecker.Config.
type vetConfig struct {
	GoFiles     []string
	PackageVetx map[string]string
	VetxOutput  string
}

// VetFastPath handles a go vet invocation on a package that ccvet has
// nothing to check, without type-checking it: a package none of whose
// files contains "sync:" (every directive, and every near miss
// syncdirective reports, contains it) and none of whose dependencies
// exported a fact (their fact files are empty: the facts package writes
// nothing for an empty set). Such a package has no finding and no fact of
// its own, and no dependency fact to pass on, so ccvet writes its empty
// fact file and reports nothing, as the full analysis would. Type errors
// in it are left to the compiler.
//
// It returns true when it handled the invocation, and false (having done
// nothing) for anything else: flags besides the configuration file, a
// configuration it cannot read, or a package that needs the analysis.
//
// On un-annotated modules this removes the cost of type-checking every
// package from export data, which otherwise dominates ccvet's cost under
// go vet (see EVALUATION.md, "Cost on large code").
func VetFastPath(args []string) bool {
	if len(args) != 1 || !strings.HasSuffix(args[0], ".cfg") {
		return false
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return false
	}
	var cfg vetConfig
	if err := json.Unmarshal(data, &cfg); err != nil {
		return false
	}
	for _, vetx := range cfg.PackageVetx {
		fi, err := os.Stat(vetx)
		if err != nil || fi.Size() != 0 {
			return false
		}
	}
	for _, f := range cfg.GoFiles {
		src, err := os.ReadFile(f)
		if err != nil || bytes.Contains(src, []byte("sync:")) {
			return false
		}
	}
	if cfg.VetxOutput != "" {
		if err := os.WriteFile(cfg.VetxOutput, nil, 0o666); err != nil {
			return false
		}
	}
	return true
}
