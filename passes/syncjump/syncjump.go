package syncjump

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
var doc = analysisdoc.MustExtract(docSource, "syncjump")

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
