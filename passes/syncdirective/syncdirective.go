package syncdirective

import (
	"bytes"
	_ "embed"
	"go/ast"
	"reflect"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/analysisdoc"
	"github.com/ccvet/ccvet/internal/engine"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/syncjump"
	"github.com/ccvet/ccvet/passes/syncmono"
	"github.com/ccvet/ccvet/passes/syncrecv"
	"github.com/ccvet/ccvet/passes/syncsend"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

//go:embed doc.go
var docSource string

// doc is the analyzer's section of the package comment of doc.go.
var doc = analysisdoc.MustExtract(docSource, "syncdirective")

// Analyzer reports malformed and unresolvable //sync: directives, and
// //sync:ignore directives that match no diagnostic.
//
// It requires the four condition analyzers so that it can tell which
// //sync:ignore directives they used.
var Analyzer = New(engine.Analyzer, syncmono.Analyzer, syncsend.Analyzer, syncrecv.Analyzer, syncjump.Analyzer)

// New returns the analyzer for the tag dataflow engine e and the four
// condition analyzers conds that read it (analyzer.SuiteWith builds a
// suite on another engine, which then runs alone).
func New(e *analysis.Analyzer, conds ...*analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "syncdirective",
		Doc:      doc,
		URL:      annotations.DocsURL + "#syncdirective",
		Requires: append([]*analysis.Analyzer{annotations.Analyzer, e}, conds...),
		Run: func(pass *analysis.Pass) (any, error) {
			return run(pass, e, conds)
		},
		ResultType: reflect.TypeFor[*report.Used](),
	}
}

func run(pass *analysis.Pass, e *analysis.Analyzer, conds []*analysis.Analyzer) (any, error) {
	ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
	rep := report.New(pass, ann)
	for _, p := range ann.Problems {
		d := analysis.Diagnostic{Pos: p.Pos, End: p.End, Message: p.Message, SuggestedFixes: p.Fixes}
		for _, rel := range p.Related {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: rel.Pos, Message: rel.Message})
		}
		rep.Report(d)
	}
	uncheckedLoops(rep, pass.ResultOf[e].(*tagflow.Result))
	used := []*report.Used{rep.Used()}
	for _, a := range conds {
		used = append(used, pass.ResultOf[a].(*report.Used))
	}
	for _, ig := range ann.Ignores {
		matched := false
		for _, u := range used {
			matched = matched || u.Ignores[ig]
		}
		if !matched {
			pass.Report(analysis.Diagnostic{
				Pos:            ig.Pos(),
				End:            ig.Directive.Comment.End(),
				Message:        "//sync:ignore " + strings.Join(ig.Analyzers, ",") + " matches no diagnostic on this line or the next: remove it",
				URL:            pass.Analyzer.URL,
				SuggestedFixes: removeComment(pass, ig.Directive.Comment),
			})
		}
	}
	return rep.Used(), nil
}

// uncheckedLoops reports each tagged loop in which the dataflow found no
// message type sent or received: the four conditions are about messages,
// so such a loop is checked for nothing, and its silence would read as a
// proof. Only silent loops are reported: one with findings of its own
// (a "cannot prove" where the analysis stopped early, a call it cannot
// follow) is left to them, and one that reaches the messages of another
// tagged loop (nested in it, or in a helper it calls) to that loop's
// checks.
func uncheckedLoops(rep *report.Reporter, res *tagflow.Result) {
	for _, l := range res.Loops {
		if !l.Stats.Complete || len(l.Findings) > 0 || len(l.Stats.MsgTypes) > 0 || len(l.Stats.Others) > 0 {
			continue
		}
		d := l.Ann.Directive
		rep.Report(analysis.Diagnostic{
			Pos: d.Pos(),
			End: d.Comment.End(),
			Message: "the loop tagged " + l.Ann.TagString() + " sends and receives no //sync:msg type: nothing is checked; " +
				"annotate the message types with //sync:msg (and the functions that send or receive them with //sync:send and //sync:recv)",
			Related: []analysis.RelatedInformation{{Pos: l.Ann.Pos(), Message: "the loop"}},
		})
	}
}

// removeComment returns the fix that deletes the //sync:ignore comment c:
// its whole line, newline included, when c is alone on it, and otherwise c
// and the blanks that separate it from the code before it. It returns nil
// when the file cannot be read or does not hold c where the syntax tree
// says.
func removeComment(pass *analysis.Pass, c *ast.Comment) []analysis.SuggestedFix {
	tf := pass.Fset.File(c.Slash)
	if tf == nil {
		return nil
	}
	src, err := pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return nil
	}
	start, end := tf.Offset(c.Slash), tf.Offset(c.End())
	if string(src[start:end]) != c.Text {
		return nil
	}
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start == 0 || src[start-1] == '\n' {
		// Alone on its line: take the line ending too.
		if bytes.HasPrefix(src[end:], []byte("\r\n")) {
			end += 2
		} else if end < len(src) && src[end] == '\n' {
			end++
		}
	}
	return []analysis.SuggestedFix{{
		Message:   "remove the unused //sync:ignore",
		TextEdits: []analysis.TextEdit{{Pos: tf.Pos(start), End: tf.Pos(end)}},
	}}
}
