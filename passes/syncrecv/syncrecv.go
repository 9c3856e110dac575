package syncrecv

import (
	_ "embed"
	"reflect"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/analysisdoc"
	"github.com/ccvet/ccvet/internal/engine"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docSource string

// doc is the analyzer's section of the package comment of doc.go.
var doc = analysisdoc.MustExtract(docSource, "syncrecv")

// Analyzer checks condition III: only messages of the current or a later round are stored.
var Analyzer = New(engine.Analyzer)

// New returns the analyzer reading the tag dataflow computed by e, an
// analyzer whose result is a *tagflow.Result (see internal/engine).
func New(e *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "syncrecv",
		Doc:      doc,
		URL:      annotations.DocsURL + "#syncrecv",
		Requires: []*analysis.Analyzer{annotations.Analyzer, e},
		Run: func(pass *analysis.Pass) (any, error) {
			ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
			rep := report.New(pass, ann)
			rep.Condition(pass.ResultOf[e].(*tagflow.Result), 3)
			return rep.Used(), nil
		},
		ResultType: reflect.TypeFor[*report.Used](),
	}
}
