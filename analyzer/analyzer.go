// Package analyzer is the ccvet suite: the analyzers that together check
// that a //sync:tag loop is communication-closed.
//
// The analyzers are plain *analysis.Analyzer values with no global mutable
// state, so any driver can run them: go vet -vettool, the ccvet command,
// golangci-lint, gopls-style servers, or Bazel's nogo.
package analyzer

import (
	"github.com/ccvet/ccvet/passes/syncdirective"
	"github.com/ccvet/ccvet/passes/syncjump"
	"github.com/ccvet/ccvet/passes/synclex"
	"github.com/ccvet/ccvet/passes/syncmono"
	"github.com/ccvet/ccvet/passes/syncrecv"
	"github.com/ccvet/ccvet/passes/syncsend"
	"golang.org/x/tools/go/analysis"
)

// Suite lists ccvet's analyzers in the order they are documented. Their
// names are stable: users and scripts refer to them in flags and in
// //sync:ignore directives.
var Suite = []*analysis.Analyzer{
	syncdirective.Analyzer,
	syncmono.Analyzer,
	syncsend.Analyzer,
	syncrecv.Analyzer,
	syncjump.Analyzer,
}

// Advisory lists the advisory analyzers: checks outside the four
// conditions, which point at likely liveness or robustness problems of an
// annotated protocol. Drivers run them only on request (ccvet -synclex,
// golangci-lint's advisory setting). They are not in [Suite], whose names
// are those //sync:ignore accepts.
var Advisory = []*analysis.Analyzer{
	synclex.Analyzer,
}

// SuiteWith returns the suite with its four condition analyzers reading
// the tag dataflow computed by engine (see internal/engine), for comparing
// the engines side by side.
func SuiteWith(engine *analysis.Analyzer) []*analysis.Analyzer {
	conds := []*analysis.Analyzer{
		syncmono.New(engine),
		syncsend.New(engine),
		syncrecv.New(engine),
		syncjump.New(engine),
	}
	return append([]*analysis.Analyzer{syncdirective.New(engine, conds...)}, conds...)
}
