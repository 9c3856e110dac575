// Package tagflow is the shared dataflow pass of ccvet: for each
// //sync:tag loop it interprets the loop body over SSA, path by path, with
// an abstract state that relates each synchronization variable to its value
// at the last communication point, records what branch conditions imply
// about message tags, and tracks which values come from received messages.
// It reports nothing itself; the four condition analyzers report its
// findings.
package tagflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer computes the tag dataflow of every //sync:tag loop of a package.
// It builds SSA only for packages that have a tagged loop.
var Analyzer = &analysis.Analyzer{
	Name:       "synctagflow",
	Doc:        "computes the tag dataflow of //sync:tag loops (internal; reports nothing)",
	URL:        annotations.DocsURL + "#the-analyzers",
	Requires:   []*analysis.Analyzer{annotations.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Result holds the findings for every tagged loop of the package.
type Result struct {
	Loops []*Loop
}

// Loop is the outcome of the dataflow for one tagged loop.
type Loop struct {
	Ann      *annotations.Loop
	Findings []Finding
	// Stats is what the analysis found and checked in the loop.
	Stats Stats
}

// A Finding is a violation of one condition, or a place where it could not
// be proven.
type Finding struct {
	// Cond is the condition, 1 to 4.
	Cond int
	Pos  token.Pos
	// Unproven marks a "cannot prove" finding: the analysis could not decide.
	Unproven bool
	Message  string
	Related  []annotations.Related
	// indirect marks a finding that explains the position less directly
	// than another of the same kind there would: dedupe prefers the other.
	indirect bool
}

// ConditionText explains each condition, for diagnostics.
var ConditionText = [...]string{
	1: "condition I: the tag never decreases",
	2: "condition II: a message carries the tag of the round it is sent in",
	3: "condition III: only messages of the current or a later round are stored, and a reception writes only the mailbox",
	4: "condition IV: a process that stored a message from a later round jumps to that round before it sends, receives or updates its state again",
}

// Roman numerals of the conditions.
var Roman = [...]string{1: "I", 2: "II", 3: "III", 4: "IV"}

func run(pass *analysis.Pass) (any, error) {
	ann := pass.ResultOf[annotations.Analyzer].(*annotations.Annotations)
	res := &Result{}
	for _, l := range ann.HandlerLoops(pass.Files, pass.TypesInfo) {
		// Handlers are one step of their process each, which only the
		// second engine analyses: say so at each, never pass them.
		res.Loops = append(res.Loops, &Loop{Ann: l, Findings: UnprovenAll(l.Pos(), "//sync:handler methods are analysed by the second engine only; run with CCVET_TAGFLOW=v2")})
	}
	if len(ann.Loops) == 0 {
		return res, nil
	}
	prog := ssa.NewProgram(pass.Fset, ssa.GlobalDebug|ssa.InstantiateGenerics)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	ssapkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	ssapkg.Build()

	funcs := SourceFuncs(pass, prog, ssapkg)
	sum := newSummaries(pass, ann, funcs)
	// A tagged loop nested in another one (lexically, or in a helper the
	// outer loop calls) starts where the outer loop stands: what the outer
	// loops' analyses saw at its entry is its entry state. So loops are
	// analysed once, and those whose entries were all observed again.
	entries := make(map[*annotations.Loop]*entry)
	var regions []map[*ssa.BasicBlock]bool
	engines := make(map[*annotations.Loop]*engine)
	for _, l := range ann.Loops {
		out := &Loop{Ann: l}
		res.Loops = append(res.Loops, out)
		fn := funcs[l.Func]
		if fn == nil {
			out.Findings = append(out.Findings, UnprovenAll(l.Pos(), "the function containing the loop has no SSA form")...)
			continue
		}
		e := newEngine(pass, ann, l, fn, sum, out)
		e.entries = entries
		e.safeAnalyse()
		engines[l] = e
		regions = append(regions, e.region)
	}
	for _, out := range res.Loops {
		en := entries[out.Ann]
		e := engines[out.Ann]
		if en == nil || e == nil || !en.covered(e.fn, funcs, regions) {
			continue
		}
		out.Findings = nil
		e2 := newEngine(pass, ann, out.Ann, e.fn, sum, out)
		e2.entry = en
		e2.safeAnalyse()
	}
	for _, out := range res.Loops {
		out.Findings = withhold(echoes(oncePerLine(pass.Fset, dedupe(out.Findings))))
	}
	return res, nil
}

// safeAnalyse runs the analysis of one loop and turns a panic (a bug of
// ccvet on code it was not ready for) into "cannot prove" findings at the
// loop: the other loops are still analysed, the user sees where the gap
// is, and nothing is silently passed.
func (e *engine) safeAnalyse() {
	complete := false
	defer func() {
		e.finishStats(complete)
		if p := recover(); p != nil {
			e.unprovenAll(e.loop.Pos(), "internal error in ccvet while analysing this loop: %v (please report it)", p)
			if debug {
				panic(p)
			}
		}
	}()
	e.analyse()
	complete = true
}

func unproven(pos token.Pos, cond int, format string, args ...any) Finding {
	return Finding{Cond: cond, Pos: pos, Unproven: true, Message: fmt.Sprintf(format, args...)}
}

// UnprovenAll is "cannot prove" for each of the four conditions at pos,
// for a region the analysis could not check at all: each condition's
// analyzer says so, none passes it in silence.
func UnprovenAll(pos token.Pos, format string, args ...any) []Finding {
	out := make([]Finding, 0, 4)
	for cond := 1; cond <= 4; cond++ {
		out = append(out, unproven(pos, cond, format, args...))
	}
	return out
}

// SourceFuncs maps each function declaration and literal of the package
// to its SSA function in prog (both engines find a loop's function so).
func SourceFuncs(pass *analysis.Pass, prog *ssa.Program, pkg *ssa.Package) map[ast.Node]*ssa.Function {
	m := make(map[ast.Node]*ssa.Function)
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		if syn := f.Syntax(); syn != nil {
			m[syn] = f
		}
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if f := prog.FuncValue(obj); f != nil {
				add(f)
			}
		}
	}
	// Package-level function literals (in variable initialisers) hang off init.
	if init := pkg.Func("init"); init != nil {
		add(init)
	}
	return m
}

// withhold drops the "cannot prove" findings of a condition that the loop
// violates somewhere: the loop already fails that condition, and the gaps
// are mostly the violation's echoes on paths the analysis could not pin
// down (as a compiler stops after the first error of a cascade). They come
// back, if they remain, once the violation is fixed.
func withhold(fs []Finding) []Finding {
	violated := make(map[int]bool)
	for _, f := range fs {
		if !f.Unproven {
			violated[f.Cond] = true
		}
	}
	out := fs[:0]
	for _, f := range fs {
		if f.Unproven && violated[f.Cond] {
			continue
		}
		out = append(out, f)
	}
	return out
}

func dedupe(fs []Finding) []Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Pos != fs[j].Pos {
			return fs[i].Pos < fs[j].Pos
		}
		if fs[i].Cond != fs[j].Cond {
			return fs[i].Cond < fs[j].Cond
		}
		if fs[i].Unproven != fs[j].Unproven {
			return !fs[i].Unproven // violations first: they make the rest redundant
		}
		if fs[i].indirect != fs[j].indirect {
			return !fs[i].indirect
		}
		return fs[i].Message < fs[j].Message
	})
	var out []Finding
	for i, f := range fs {
		if i > 0 && f.Pos == fs[i-1].Pos && f.Cond == fs[i-1].Cond && f.Message == fs[i-1].Message {
			continue
		}
		// A violation at a position makes a "cannot prove" there redundant:
		// some path breaks the condition, whatever the others do. So does
		// it another violation of the condition there, found on another
		// path (the tag lower than at another communication point): the
		// statement is reported once, with the first explanation.
		if len(out) > 0 && out[len(out)-1].Pos == f.Pos && out[len(out)-1].Cond == f.Cond && !out[len(out)-1].Unproven {
			continue
		}
		// The same gap found on several paths, for different reasons
		// (a message stored after a filter ccvet does not follow on one,
		// after merged paths on another): said once.
		if p := len(out) - 1; p >= 0 && out[p].Pos == f.Pos && out[p].Cond == f.Cond && out[p].Unproven && f.Unproven && sameBeforeReason(out[p].Message, f.Message) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// sameBeforeReason reports whether messages a and b differ only in the
// reason they end with, in parentheses.
func sameBeforeReason(a, b string) bool {
	i, j := strings.LastIndex(a, " ("), strings.LastIndex(b, " (")
	return i > 0 && j > 0 && strings.HasSuffix(a, ")") && strings.HasSuffix(b, ")") && a[:i] == b[:j]
}

// oncePerLine drops a finding that repeats, word for word, one reported
// earlier on the same line (prop = m; got = true: both writes store the
// message, and the user needs to hear of it once).
func oncePerLine(fset *token.FileSet, fs []Finding) []Finding {
	type key struct {
		file string
		line int
		cond int
		msg  string
	}
	seen := make(map[key]bool)
	out := fs[:0]
	for _, f := range fs {
		p := fset.Position(f.Pos)
		k := key{p.Filename, p.Line, f.Cond, f.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}

// echoes keeps one "cannot prove condition I" per statement. Where the
// analysis cannot tell that the tag is not lower than at a communication
// point, it says so once per such point, and the gap often has a cause
// reported there too (a call it cannot follow): the cause is kept, else
// the first of the comparisons; the others say nothing more.
func echoes(fs []Finding) []Finding {
	const echo = "cannot tell that "
	cause := make(map[token.Pos]bool)
	for _, f := range fs {
		if f.Cond == 1 && f.Unproven && !strings.HasPrefix(f.Message, echo) {
			cause[f.Pos] = true
		}
	}
	seen := make(map[token.Pos]bool)
	out := fs[:0]
	for _, f := range fs {
		if f.Cond == 1 && f.Unproven && strings.HasPrefix(f.Message, echo) {
			if cause[f.Pos] || seen[f.Pos] {
				continue
			}
			seen[f.Pos] = true
		}
		out = append(out, f)
	}
	return out
}

// entry is what every observed entry into a nested tagged loop agreed on:
// for each of its variables, a constant it equals, or nil.
type entry struct {
	consts []term
	seen   bool
}

// covered reports whether every call of fn in the package comes from a
// block of an analysed loop (so that its entries were all observed).
func (en *entry) covered(fn *ssa.Function, funcs map[ast.Node]*ssa.Function, regions []map[*ssa.BasicBlock]bool) bool {
	for _, f := range funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || staticCallee(call.Common()) != fn {
					continue
				}
				in := false
				for _, r := range regions {
					in = in || r[b]
				}
				if !in {
					return false
				}
			}
		}
	}
	return true
}
