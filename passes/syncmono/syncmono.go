package syncmono

import (
	"reflect"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

const doc = `check that the synchronization tag never decreases (condition I)

Condition I of a synchronization tag: the synchronization tag never decreases.
See the README for the idioms it understands.`

// Analyzer checks condition I: the synchronization tag never decreases.
var Analyzer = &analysis.Analyzer{
	Name:       "syncmono",
	Doc:        doc,
	URL:        annotations.DocsURL + "#syncmono",
	Requires:   []*analysis.Analyzer{annotations.Analyzer, tagflow.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*report.Used](),
}

func run(pass *analysis.Pass) (any, error) {
	ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
	rep := report.New(pass, ann)
	rep.Condition(pass.ResultOf[tagflow.Analyzer].(*tagflow.Result), 1)
	return rep.Used(), nil
}
