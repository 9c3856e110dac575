package syncrecv

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
var doc = analysisdoc.MustExtract(docSource, "syncrecv")

// Analyzer checks condition III: only messages of the current or a later round are stored.
var Analyzer = &analysis.Analyzer{
	Name:       "syncrecv",
	Doc:        doc,
	URL:        annotations.DocsURL + "#syncrecv",
	Requires:   []*analysis.Analyzer{annotations.Analyzer, tagflow.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*report.Used](),
}

func run(pass *analysis.Pass) (any, error) {
	ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
	rep := report.New(pass, ann)
	rep.Condition(pass.ResultOf[tagflow.Analyzer].(*tagflow.Result), 3)
	return rep.Used(), nil
}
