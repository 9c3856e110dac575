package syncmono

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
var doc = analysisdoc.MustExtract(docSource, "syncmono")

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
