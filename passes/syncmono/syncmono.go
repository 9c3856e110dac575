package syncmono

import (
	"reflect"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/engine"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

const doc = `check that the synchronization tag never decreases (condition I)

Condition I of a synchronization tag: the synchronization tag never decreases.
See the README for the idioms it understands.`

// Analyzer checks condition I: the synchronization tag never decreases.
var Analyzer = New(engine.Analyzer)

// New returns the analyzer reading the tag dataflow computed by e, an
// analyzer whose result is a *tagflow.Result (see internal/engine).
func New(e *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "syncmono",
		Doc:      doc,
		URL:      annotations.DocsURL + "#syncmono",
		Requires: []*analysis.Analyzer{annotations.Analyzer, e},
		Run: func(pass *analysis.Pass) (any, error) {
			ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
			rep := report.New(pass, ann)
			rep.Condition(pass.ResultOf[e].(*tagflow.Result), 1)
			return rep.Used(), nil
		},
		ResultType: reflect.TypeFor[*report.Used](),
	}
}
