// Package report reports the diagnostics of ccvet's analyzers, honouring
// //sync:ignore directives and recording which of them matched, so that the
// syncdirective analyzer can report the ones that match nothing.
package report

import (
	"fmt"
	"go/token"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/analysis"
)

// A Reporter reports one analyzer's diagnostics for one package.
type Reporter struct {
	pass *analysis.Pass
	ann  *annotations.Annotations
	used *Used
}

// Used is the set of //sync:ignore directives that suppressed a diagnostic
// of one analyzer. Every analyzer that reports through a Reporter returns
// it as (part of) its result.
type Used struct {
	Ignores map[*annotations.Ignore]bool
}

// New returns a Reporter for pass, whose //sync:ignore directives are those
// of ann.
func New(pass *analysis.Pass, ann *annotations.Annotations) *Reporter {
	return &Reporter{pass: pass, ann: ann, used: &Used{Ignores: make(map[*annotations.Ignore]bool)}}
}

// Report reports d unless a //sync:ignore for this analyzer covers its
// line.
func (r *Reporter) Report(d analysis.Diagnostic) {
	for _, ig := range r.ann.Ignores {
		if ig.Matches(r.pass.Fset, r.pass.Analyzer.Name, d.Pos) {
			r.used.Ignores[ig] = true
			return
		}
	}
	if d.URL == "" {
		d.URL = r.pass.Analyzer.URL
	}
	r.pass.Report(d)
}

// Reportf reports a diagnostic at pos with a formatted message.
func (r *Reporter) Reportf(pos token.Pos, format string, args ...any) {
	r.Report(analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Used returns the //sync:ignore directives that suppressed a diagnostic.
func (r *Reporter) Used() *Used { return r.used }
