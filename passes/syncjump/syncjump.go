package syncjump

import (
	"reflect"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/engine"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

const doc = `check that a process that stored a message from a future round jumps to it first (condition IV)

Condition IV of a synchronization tag: a process that stores a future message jumps to its round.
See the README for the idioms it understands.`

// Analyzer checks condition IV: a process that stores a future message jumps to its round.
var Analyzer = New(engine.Analyzer)

// New returns the analyzer reading the tag dataflow computed by e, an
// analyzer whose result is a *tagflow.Result (see internal/engine).
func New(e *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "syncjump",
		Doc:      doc,
		URL:      annotations.DocsURL + "#syncjump",
		Requires: []*analysis.Analyzer{annotations.Analyzer, e},
		Run: func(pass *analysis.Pass) (any, error) {
			ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
			rep := report.New(pass, ann)
			rep.Condition(pass.ResultOf[e].(*tagflow.Result), 4)
			return rep.Used(), nil
		},
		ResultType: reflect.TypeFor[*report.Used](),
	}
}
