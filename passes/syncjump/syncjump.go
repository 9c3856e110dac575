package syncjump

import (
	"reflect"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

const doc = `check that a process that stored a message from a future round jumps to it first (condition IV)

Condition IV of a synchronization tag: a process that stores a future message jumps to its round.
See the README for the idioms it understands.`

// Analyzer checks condition IV: a process that stores a future message jumps to its round.
var Analyzer = &analysis.Analyzer{
	Name:       "syncjump",
	Doc:        doc,
	URL:        annotations.DocsURL + "#syncjump",
	Requires:   []*analysis.Analyzer{annotations.Analyzer, tagflow.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*report.Used](),
}

func run(pass *analysis.Pass) (any, error) {
	ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
	rep := report.New(pass, ann)
	rep.Condition(pass.ResultOf[tagflow.Analyzer].(*tagflow.Result), 4)
	return rep.Used(), nil
}
