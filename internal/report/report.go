// Package report reports the diagnostics of ccvet's analyzers, honouring
// //sync:ignore directives and recording which of them matched, so that the
// syncdirective analyzer can report the ones that match nothing.
package report

import (
	"fmt"
	"go/token"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis"
)

// A Reporter reports one analyzer's diagnostics for one package.
type Reporter struct {
	pass *analysis.Pass
	ann  *annotations.Annotations
	used *Used
}

// Used is the set of //sync:ignore directives that suppressed a diagnostic
// of one analyzer, with the diagnostics they suppressed. Every analyzer
// that reports through a Reporter returns it as (part of) its result, so
// that syncdirective can report the ignores that match nothing and drivers
// can list suppressed findings (as SARIF does).
type Used struct {
	// Ignores holds each //sync:ignore that suppressed a diagnostic.
	Ignores map[*annotations.Ignore]bool
	// Suppressed are the suppressed diagnostics, in the order they were
	// reported.
	Suppressed []Suppressed
	// Verdicts are the outcomes of the analyzer's condition on each tagged
	// loop of the package, for the condition analyzers (nil for others).
	Verdicts []Verdict
}

// A Verdict is the outcome of one condition on one tagged loop: proved
// when it has no finding at all.
type Verdict struct {
	// Loop is the loop, with what the dataflow found and checked in it.
	Loop *tagflow.Loop
	// Cond is the condition, 1 to 4.
	Cond int
	// Violations and Unproven count the findings reported: violations of
	// the condition, and places where it could not be proven.
	Violations, Unproven int
	// Suppressed counts the findings a //sync:ignore suppressed.
	Suppressed int
}

// A Suppressed is a diagnostic that a //sync:ignore directive suppressed.
type Suppressed struct {
	// Diagnostic is the diagnostic as it would have been reported (its URL
	// filled in).
	Diagnostic analysis.Diagnostic
	// Ignore is the directive that suppressed it; Ignore.Reason is the
	// justification written in the source.
	Ignore *annotations.Ignore
}

// New returns a Reporter for pass, whose //sync:ignore directives are those
// of ann.
func New(pass *analysis.Pass, ann *annotations.Annotations) *Reporter {
	return &Reporter{pass: pass, ann: ann, used: &Used{Ignores: make(map[*annotations.Ignore]bool)}}
}

// Report reports d unless a //sync:ignore for this analyzer covers its
// line; a suppressed diagnostic is recorded in [Reporter.Used] instead.
func (r *Reporter) Report(d analysis.Diagnostic) { r.report(d) }

// report is Report, and tells whether a //sync:ignore suppressed d.
func (r *Reporter) report(d analysis.Diagnostic) (suppressed bool) {
	if d.URL == "" {
		d.URL = r.pass.Analyzer.URL
	}
	for _, ig := range r.ann.Ignores {
		if ig.Matches(r.pass.Fset, r.pass.Analyzer.Name, d.Pos) {
			r.used.Ignores[ig] = true
			r.used.Suppressed = append(r.used.Suppressed, Suppressed{Diagnostic: d, Ignore: ig})
			return true
		}
	}
	r.pass.Report(d)
	return false
}

// Reportf reports a diagnostic at pos with a formatted message.
func (r *Reporter) Reportf(pos token.Pos, format string, args ...any) {
	r.Report(analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Used returns the //sync:ignore directives that suppressed a diagnostic,
// and the diagnostics they suppressed.
func (r *Reporter) Used() *Used { return r.used }

// Condition reports the findings of the tag dataflow for one condition:
// violations end with the condition they break, and what could not be
// decided starts with "cannot prove condition N:". It records the verdict
// on each loop in [Reporter.Used].
func (r *Reporter) Condition(res *tagflow.Result, cond int) {
	// A helper shared by nested loops (the inner loop's function, inlined
	// into the outer loop's analysis) can yield the same finding twice.
	type key struct {
		pos token.Pos
		msg string
	}
	seen := make(map[key]bool)
	for _, l := range res.Loops {
		v := Verdict{Loop: l, Cond: cond}
		for _, f := range l.Findings {
			if f.Cond != cond || seen[key{f.Pos, f.Message}] {
				continue
			}
			seen[key{f.Pos, f.Message}] = true
			msg := f.Message + " (" + tagflow.ConditionText[cond] + ")"
			if f.Unproven {
				msg = "cannot prove condition " + tagflow.Roman[cond] + ": " + f.Message
			}
			d := analysis.Diagnostic{Pos: f.Pos, Message: msg}
			for _, rel := range f.Related {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: rel.Pos, Message: rel.Message})
			}
			switch {
			case r.report(d):
				v.Suppressed++
			case f.Unproven:
				v.Unproven++
			default:
				v.Violations++
			}
		}
		r.used.Verdicts = append(r.used.Verdicts, v)
	}
}
