// Command nopvet is the baseline of vetcost: a go vet -vettool that runs
// one analyzer doing nothing. What it costs is what any unitchecker-based
// vet tool costs before its analyzers run: the go command's action graph,
// one process per package, parsing and type-checking each package from
// source, and reading and writing the export data and facts (.vetx) of
// every dependency.
//
// Its analyzer declares a fact type, as ccvet's annotations analyzer does,
// so that the go command and unitchecker treat it the same way: every
// dependency of the vetted packages, standard library included, is
// type-checked in "facts only" mode.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

type nopFact struct{}

func (*nopFact) AFact()         {}
func (*nopFact) String() string { return "nop" }

var analyzer = &analysis.Analyzer{
	Name:      "nop",
	Doc:       "nop does nothing: the baseline cost of a unitchecker vet tool",
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
	FactTypes: []analysis.Fact{new(nopFact)},
}

func main() { unitchecker.Main(analyzer) }
