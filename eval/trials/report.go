package trials

import (
	"fmt"
	"io"
	"strings"
)

// Figures are a trial corpus's first-contact figures.
type Figures struct {
	Packages, Clean, CannotProve, FalseViolations           int
	Mutants, Caught, Flagged, WrongAnalyzer, Missed, Masked int
	GaveUp, Broken                                          int
}

// Summarize counts results into figures.
func Summarize(rs []*Result) Figures {
	var f Figures
	for _, r := range rs {
		if r.GaveUp {
			f.GaveUp++
		}
		if r.Mutant == nil {
			f.Packages++
		} else {
			f.Mutants++
		}
		switch r.Verdict {
		case Clean:
			f.Clean++
		case CannotProve:
			f.CannotProve++
		case FalseViolation:
			f.FalseViolations++
		case Caught:
			f.Caught++
		case Flagged:
			f.Flagged++
		case WrongAnalyzer:
			f.WrongAnalyzer++
		case Missed:
			f.Missed++
		case Masked:
			f.Masked++
		case Broken:
			f.Broken++
		}
	}
	return f
}

func (f Figures) String() string {
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
	}
	return fmt.Sprintf("correct packages: %d, clean %d (%s), cannot prove only %d, false violation %d\n"+
		"mutants: %d, caught by the right analyzer %d (%s), flagged 'cannot prove' by it %d, other analyzer only %d, silent miss %d, no new finding beside the correct version's %d\n"+
		"gave up: %d results; broken (do not apply or type-check): %d\n",
		f.Packages, f.Clean, pct(f.Clean, f.Packages), f.CannotProve, f.FalseViolations,
		f.Mutants, f.Caught, pct(f.Caught, f.Mutants), f.Flagged, f.WrongAnalyzer, f.Missed, f.Masked,
		f.GaveUp, f.Broken)
}

// WriteVerdicts writes one line per result, "name verdict[ gave-up]", in
// result order: the form a corpus's recorded verdicts are kept in.
func WriteVerdicts(w io.Writer, rs []*Result) error {
	for _, r := range rs {
		line := r.Name() + " " + r.Verdict
		if r.GaveUp {
			line += " gave-up"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// WriteDetails writes each result that is not the expected outcome (a
// correct package with findings, a mutant not caught) with its findings.
func WriteDetails(w io.Writer, rs []*Result) {
	for _, r := range rs {
		if r.Verdict == Clean || r.Verdict == Caught {
			continue
		}
		fmt.Fprintf(w, "%s: %s", r.Name(), r.Verdict)
		if r.Mutant != nil {
			fmt.Fprintf(w, " (expected %s: %s)", r.Mutant.Analyzer, strings.TrimSpace(r.Mutant.Why))
		}
		fmt.Fprintln(w)
		if r.Err != "" {
			fmt.Fprintf(w, "\t%s\n", r.Err)
		}
		for _, f := range r.New {
			fmt.Fprintf(w, "\t%s\n", f)
		}
	}
}
