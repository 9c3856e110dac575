package driver

import (
	"fmt"
	"go/token"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/passes/tagflow"
	"golang.org/x/tools/go/analysis/checker"
)

// Verdicts of a condition on a loop, as -v prints them.
const (
	Proved         = "proved"          // no finding: the condition holds
	Violated       = "violated"        // at least one violation reported
	CannotProve    = "cannot prove"    // no violation, but a "cannot prove" finding
	SuppressedOnly = "suppressed"      // every finding suppressed by //sync:ignore
	NothingChecked = "nothing checked" // the loop sends and receives no checked message type
	NotRun         = "not run"         // the condition's analyzer was not selected
)

// A LoopSummary is what ccvet found and checked in one tagged loop, and
// the verdict of each condition on it (ccvet -v).
type LoopSummary struct {
	Posn   string `json:"posn"` // of the for keyword, file:line:col
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Func   string `json:"func"` // the function containing the loop
	Tag    string `json:"tag"`  // the //sync:tag variables, as written
	// Handler marks a //sync:handler method, one step of a process of
	// the process form: what its analysis found is in its verdicts only
	// (the counts below are the loop form's).
	Handler bool `json:"handler,omitempty"`
	// Rounds are the rounds the loop communicates in (tagflow.Stats.Rounds).
	Rounds []string `json:"rounds"`
	// Sends and Receptions count the sends of a message and the receives
	// that may yield one, helpers included.
	Sends      int `json:"sends"`
	Receptions int `json:"receptions"`
	// Mailboxes name where received messages are stored.
	Mailboxes []string `json:"mailboxes"`
	// MessageTypes are the message types sent or received; Unmatched
	// those among them whose //sync:msg does not fit the tag (not checked).
	MessageTypes []string `json:"messageTypes"`
	Unmatched    []string `json:"unmatchedTypes,omitempty"`
	// OtherLoops are the message types of other tagged loops that the
	// loop reaches (nested in it, or in a helper it calls), checked there.
	OtherLoops []string `json:"otherLoopTypes,omitempty"`
	// Complete is false when the analysis stopped early on this loop.
	Complete   bool               `json:"complete"`
	Conditions []ConditionVerdict `json:"conditions"`

	sends, receptions []string // positions, for the totals
}

// A ConditionVerdict is the outcome of one condition on one loop.
type ConditionVerdict struct {
	Condition  string `json:"condition"` // I to IV
	Analyzer   string `json:"analyzer"`
	Verdict    string `json:"verdict"` // one of Proved, Violated, ...
	Violations int    `json:"violations"`
	Unproven   int    `json:"unproven"`
	Suppressed int    `json:"suppressed"`
}

// A Total sums the loop summaries: sends and receptions are counted once
// per statement, even when several loops reach them.
type Total struct {
	Loops int `json:"loops"`
	// Handlers counts the //sync:handler methods (not in Loops).
	Handlers   int `json:"handlers,omitempty"`
	Rounds     int `json:"rounds"`
	Sends      int `json:"sends"`
	Receptions int `json:"receptions"`
	Violations int `json:"violations"`
	Unproven   int `json:"unproven"`
	// Directive counts the syncdirective findings (annotation problems).
	Directive int `json:"directiveFindings"`
}

// conditionAnalyzers are the analyzers of conditions I to IV, by number.
var conditionAnalyzers = [...]string{1: "syncmono", 2: "syncsend", 3: "syncrecv", 4: "syncjump"}

// summarize builds the summary of every tagged loop that graph analysed:
// what tagflow found in it, and the verdicts of the condition analyzers
// that ran as roots (the selected ones). A loop analysed in several
// variants of its package (alone and with its tests) is listed once.
func summarize(graph *checker.Graph) []LoopSummary {
	type verdictKey struct {
		posn string
		cond int
	}
	byPosn := make(map[string]*LoopSummary)
	verdicts := make(map[verdictKey]ConditionVerdict)
	for act := range graph.All() {
		if act.Err != nil || act.Package == nil {
			continue
		}
		fset := act.Package.Fset
		switch res := act.Result.(type) {
		case *tagflow.Result:
			for _, l := range res.Loops {
				s := newLoopSummary(fset, l)
				if _, ok := byPosn[s.Posn]; !ok {
					byPosn[s.Posn] = s
				}
			}
		case *report.Used:
			if !act.IsRoot {
				continue
			}
			for _, v := range res.Verdicts {
				k := verdictKey{posString(fset, v.Loop.Ann.Pos()), v.Cond}
				if _, ok := verdicts[k]; ok {
					continue
				}
				verdicts[k] = ConditionVerdict{
					Condition:  tagflow.Roman[v.Cond],
					Analyzer:   act.Analyzer.Name,
					Violations: v.Violations,
					Unproven:   v.Unproven,
					Suppressed: v.Suppressed,
				}
			}
		}
	}
	out := make([]LoopSummary, 0, len(byPosn))
	for _, s := range byPosn {
		for c := 1; c <= 4; c++ {
			cv, ok := verdicts[verdictKey{s.Posn, c}]
			if !ok {
				cv = ConditionVerdict{Condition: tagflow.Roman[c], Analyzer: conditionAnalyzers[c], Verdict: NotRun}
			} else {
				cv.Verdict = verdict(s, cv)
			}
			s.Conditions = append(s.Conditions, cv)
		}
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Column < out[j].Column
	})
	return out
}

// verdict is the verdict of cv on loop s: a violation or a gap if one was
// reported, and otherwise proved, unless nothing was there to check.
func verdict(s *LoopSummary, cv ConditionVerdict) string {
	switch {
	case cv.Violations > 0:
		return Violated
	case cv.Unproven > 0:
		return CannotProve
	case cv.Suppressed > 0:
		return SuppressedOnly
	case s.Handler:
		// Counted by the findings only: the loop form's counts do not
		// describe a handler.
	case len(s.MessageTypes) == len(s.Unmatched):
		return NothingChecked
	case !s.Complete:
		return CannotProve
	}
	return Proved
}

func newLoopSummary(fset *token.FileSet, l *tagflow.Loop) *LoopSummary {
	p := fset.Position(l.Ann.Pos())
	st := l.Stats
	s := &LoopSummary{
		File:         relPath(p.Filename),
		Line:         p.Line,
		Column:       p.Column,
		Func:         annotations.FuncName(l.Ann.Func),
		Tag:          l.Ann.TagString(),
		Rounds:       nonNil(st.Rounds),
		Sends:        len(st.Sends),
		Receptions:   len(st.Receives),
		Mailboxes:    nonNil(st.Mailboxes),
		MessageTypes: nonNil(st.MsgTypes),
		Unmatched:    st.Unmatched,
		OtherLoops:   st.Others,
		Complete:     st.Complete,
		Handler:      l.Ann.Handler != nil,
	}
	s.Posn = fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)
	for _, pos := range st.Sends {
		s.sends = append(s.sends, posString(fset, pos))
	}
	for _, pos := range st.Receives {
		s.receptions = append(s.receptions, posString(fset, pos))
	}
	return s
}

// nonNil makes an empty list print as [] in JSON.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func posString(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", relPath(p.Filename), p.Line, p.Column)
}

// total sums loops; directive is the number of syncdirective findings.
func total(loops []LoopSummary, directive int) Total {
	t := Total{Directive: directive}
	sends, recvs := make(map[string]bool), make(map[string]bool)
	for _, l := range loops {
		if l.Handler {
			t.Handlers++
		} else {
			t.Loops++
		}
		t.Rounds += len(l.Rounds)
		for _, p := range l.sends {
			sends[p] = true
		}
		for _, p := range l.receptions {
			recvs[p] = true
		}
		for _, c := range l.Conditions {
			t.Violations += c.Violations
			t.Unproven += c.Unproven
		}
	}
	t.Sends, t.Receptions = len(sends), len(recvs)
	return t
}

// writeSummary prints the loop summaries and the total line of -v.
func writeSummary(w io.Writer, loops []LoopSummary, t Total) {
	for _, l := range loops {
		if l.Handler {
			fmt.Fprintf(w, "%s: handler %s, a step of a process tagged %s\n", l.Posn, l.Func, l.Tag)
			for _, c := range l.Conditions {
				fmt.Fprintf(w, "\tcondition %-3s %-11s %s%s\n", c.Condition, "("+c.Analyzer+")", c.Verdict, counts(c))
			}
			continue
		}
		fmt.Fprintf(w, "%s: loop tagged %s in %s\n", l.Posn, l.Tag, l.Func)
		fmt.Fprintf(w, "\trounds: %d%s\n", len(l.Rounds), list(l.Rounds))
		fmt.Fprintf(w, "\tsends: %d, receptions: %d, mailboxes: %d%s\n", l.Sends, l.Receptions, len(l.Mailboxes), list(l.Mailboxes))
		var checked []string
		for _, m := range l.MessageTypes {
			if !slices.Contains(l.Unmatched, m) {
				checked = append(checked, m)
			}
		}
		types := strings.Join(checked, ", ")
		switch {
		case len(l.MessageTypes) == 0 && len(l.OtherLoops) > 0:
			types = "none of its own"
		case len(l.MessageTypes) == 0:
			types = "none: nothing is checked (annotate the message types with //sync:msg)"
		case len(checked) == 0:
			types = "none checked"
		}
		if len(l.Unmatched) > 0 {
			types += "; not checked, their //sync:msg does not fit the tag: " + strings.Join(l.Unmatched, ", ")
		}
		if len(l.OtherLoops) > 0 {
			types += "; of the other tagged loops it reaches, checked there: " + strings.Join(l.OtherLoops, ", ")
		}
		fmt.Fprintf(w, "\tmessage types: %s\n", types)
		if !l.Complete {
			fmt.Fprintf(w, "\tthe analysis stopped early on this loop: see its \"cannot prove\" findings\n")
		}
		for _, c := range l.Conditions {
			fmt.Fprintf(w, "\tcondition %-3s %-11s %s%s\n", c.Condition, "("+c.Analyzer+")", c.Verdict, counts(c))
		}
	}
	fmt.Fprintln(w, totalLine(t))
}

// totalLine is the one-line total of -v.
func totalLine(t Total) string {
	what := plural(t.Loops, "tagged loop")
	if t.Handlers > 0 {
		what += ", " + plural(t.Handlers, "handler")
	}
	if t.Loops > 0 || t.Handlers == 0 {
		what += fmt.Sprintf(", %s, %s, %s", plural(t.Rounds, "round"), plural(t.Sends, "send"), plural(t.Receptions, "reception"))
	} else {
		what = plural(t.Handlers, "handler")
	}
	s := fmt.Sprintf("%s checked: %s, %d cannot prove", what, plural(t.Violations, "violation"), t.Unproven)
	if t.Directive > 0 {
		s += fmt.Sprintf("; %s", plural(t.Directive, "annotation finding"))
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func list(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return " (" + strings.Join(items, ", ") + ")"
}

// counts says how many findings a verdict rests on, when more than one
// or some were suppressed.
func counts(c ConditionVerdict) string {
	var parts []string
	if c.Violations > 1 {
		parts = append(parts, plural(c.Violations, "violation"))
	}
	if c.Unproven > 1 || c.Unproven > 0 && c.Violations > 0 {
		parts = append(parts, fmt.Sprintf("%d cannot prove", c.Unproven))
	}
	if c.Suppressed > 0 && (c.Violations > 0 || c.Unproven > 0) {
		parts = append(parts, fmt.Sprintf("%d suppressed", c.Suppressed))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
