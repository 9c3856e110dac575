package tagflow2

import (
	"reflect"
	"slices"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer computes the four conditions of every //sync:tag loop of a
// package with the second engine. Its result has the type of the first
// engine's, so that the condition analyzers read either.
var Analyzer = &analysis.Analyzer{
	Name:       "synctagflow2",
	Doc:        "computes the tag dataflow of //sync:tag loops as a monotone framework over SSA (internal; reports nothing)",
	URL:        annotations.DocsURL,
	Requires:   []*analysis.Analyzer{annotations.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*tagflow.Result](),
}

func run(pass *analysis.Pass) (any, error) {
	ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
	res := &tagflow.Result{}
	handlers := ann.HandlerLoops(pass.Files, pass.TypesInfo)
	if len(ann.Loops) == 0 && len(handlers) == 0 {
		return res, nil
	}
	// Naive form keeps every local in memory, as fields are: the analysis
	// treats a tag held in locals and one held in a struct alike.
	prog := ssa.NewProgram(pass.Fset, ssa.NaiveForm|ssa.InstantiateGenerics)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	ssapkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	ssapkg.Build()
	funcs := tagflow.SourceFuncs(pass, prog, ssapkg)
	sum := newSummaries(ann, ssapkg)
	for _, f := range funcs {
		sum.funcs = append(sum.funcs, f)
	}
	for _, l := range handlers {
		if fn := funcs[l.Func]; fn != nil {
			sum.handlers = append(sum.handlers, handlerFunc{loop: l, fn: fn})
		}
	}
	for _, l := range append(slices.Clone(ann.Loops), handlers...) {
		out := &tagflow.Loop{Ann: l}
		res.Loops = append(res.Loops, out)
		fn := funcs[l.Func]
		if fn == nil {
			out.Findings = append(out.Findings, tagflow.UnprovenAll(l.Pos(), "the function containing the loop has no SSA form")...)
			continue
		}
		out.Findings = analyseLoop(pass, ann, l, fn, sum)
	}
	all := make([]*ssa.Function, 0, len(funcs))
	for _, f := range funcs {
		all = append(all, f)
	}
	sum.witness.resolve(ann, all, res.Loops)
	return res, nil
}

// analyseLoop runs the analysis of one loop, turning a panic (a bug of
// ccvet on code it was not ready for) into "cannot prove" at the loop.
func analyseLoop(pass *analysis.Pass, ann *annotations.Annotations, l *annotations.Loop, fn *ssa.Function, sum *summaries) (out []tagflow.Finding) {
	defer func() {
		if p := recover(); p != nil {
			out = nil
			for cond := 1; cond <= 4; cond++ {
				out = append(out, unproven(l.Pos(), cond, "internal error in ccvet while analysing this loop: %v (please report it)", p))
			}
		}
	}()
	return newLoopAnalysis(pass, ann, l, fn, sum).run()
}
