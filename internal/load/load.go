// Package load loads packages with go/packages for ccvet's commands that
// run outside go vet: the standalone driver (and the language server
// through it) and make-HO. They load alike, so that a package that one of
// them refuses is refused by the other with the same message.
package load

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Options say what to load.
type Options struct {
	Patterns []string          // package patterns, as for go list
	Dir      string            // directory to load from; "" means the current one
	Env      []string          // environment of the go command; nil means os.Environ()
	Tests    bool              // also load test packages
	Tags     string            // comma-separated build tags
	Overlay  map[string][]byte // file contents that replace those on disk, by absolute path
}

// Packages loads the packages of opts with the given mode. It returns an
// error when the go command fails, or when the patterns match no package.
func Packages(mode packages.LoadMode, opts Options) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: mode, Dir: opts.Dir, Env: opts.Env, Tests: opts.Tests, Overlay: opts.Overlay}
	if opts.Tags != "" {
		cfg.BuildFlags = []string{"-tags=" + opts.Tags}
	}
	pkgs, err := packages.Load(cfg, opts.Patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages matched %s", strings.Join(opts.Patterns, " "))
	}
	return pkgs, nil
}

// Checked loads the packages of opts with their syntax and types, and
// those of their dependencies, as the analyzers need them. It sets aside
// the packages that fail to load or type-check: good are the others, and
// errs has one line per error of those set aside, so that a command
// reports them and still analyses the rest. It returns an error only
// when nothing could be loaded at all.
func Checked(opts Options) (good []*packages.Package, errs []string, err error) {
	pkgs, err := Packages(packages.LoadAllSyntax, opts)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			for _, e := range p.Errors {
				errs = append(errs, e.Error())
			}
			continue
		}
		good = append(good, p)
	}
	return good, errs, nil
}
