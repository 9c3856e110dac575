// Package selection holds the analyzer-selection flags that ccvet's
// drivers (the standalone command and the go vet tool) share, so that a
// flag means the same under both: -NAME runs only the named analyzers of
// the suite, -NAME=false all but that one, and an advisory analyzer runs
// only when its flag is set to true, besides the suite.
package selection

import (
	"flag"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Flags are the selection flags of a suite and its advisory analyzers.
type Flags struct {
	suite, advisory []*analysis.Analyzer
	enabled         map[*analysis.Analyzer]*triState
}

// Register defines on fs a boolean flag named after each analyzer of
// suite and advisory, and -NAME.FLAG for each of an analyzer's own flags.
func Register(fs *flag.FlagSet, suite, advisory []*analysis.Analyzer) *Flags {
	f := &Flags{suite: suite, advisory: advisory, enabled: make(map[*analysis.Analyzer]*triState)}
	for i, list := range [][]*analysis.Analyzer{suite, advisory} {
		for _, a := range list {
			ts := new(triState)
			f.enabled[a] = ts
			title, _, _ := strings.Cut(a.Doc, "\n")
			usage := "enable " + a.Name + ": " + title
			if i == 1 {
				usage += " (off unless set)"
			}
			fs.Var(ts, a.Name, usage)
			a.Flags.VisitAll(func(af *flag.Flag) {
				fs.Var(af.Value, a.Name+"."+af.Name, af.Usage)
			})
		}
	}
	return f
}

// Selected returns the analyzers the flags select, suite first, each list
// in its order.
func (f *Flags) Selected() []*analysis.Analyzer {
	anyTrue := false
	for _, a := range f.suite {
		anyTrue = anyTrue || *f.enabled[a] == setTrue
	}
	var out []*analysis.Analyzer
	for _, a := range f.suite {
		if ts := *f.enabled[a]; (anyTrue && ts == setTrue) || (!anyTrue && ts != setFalse) {
			out = append(out, a)
		}
	}
	for _, a := range f.advisory {
		if *f.enabled[a] == setTrue {
			out = append(out, a)
		}
	}
	return out
}

// triState is a boolean flag that remembers whether it was set.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (*triState) IsBoolFlag() bool { return true }

func (t *triState) String() string {
	switch *t {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}

func (t *triState) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	if b {
		*t = setTrue
	} else {
		*t = setFalse
	}
	return nil
}
