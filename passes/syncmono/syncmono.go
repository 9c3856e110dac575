package syncmono

import (
	_ "embed"
	"reflect"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/analysisdoc"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docSource string

// doc is the analyzer's section of the package comment of doc.go.
var doc = analysisdoc.MustExtract(docSource, "syncmono")

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
