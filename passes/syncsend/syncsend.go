package syncsend

import (
	"reflect"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/engine"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

const doc = `check that every message sent carries the tag of the round it is sent in (condition II)

Condition II of a synchronization tag: every message sent carries the current tag.
See the README for the idioms it understands.`

// Analyzer checks condition II: every message sent carries the current tag.
var Analyzer = New(engine.Analyzer)

// New returns the analyzer reading the tag dataflow computed by e, an
// analyzer whose result is a *tagflow.Result (see internal/engine).
func New(e *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "syncsend",
		Doc:      doc,
		URL:      annotations.DocsURL + "#syncsend",
		Requires: []*analysis.Analyzer{annotations.Analyzer, e},
		Run: func(pass *analysis.Pass) (any, error) {
			ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
			rep := report.New(pass, ann)
			rep.Condition(pass.ResultOf[e].(*tagflow.Result), 2)
			return rep.Used(), nil
		},
		ResultType: reflect.TypeFor[*report.Used](),
	}
}
