package tagflow2

import (
	"go/build"
	"go/constant"
	"go/types"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/annotations"
	"golang.org/x/tools/go/ssa"
)

// An effect is what a call may do that matters to the tag: communicate,
// write fields or variables. It is computed once per function of the
// package, over the call graph, to a fixpoint (recursion included).
type effect struct {
	known  bool // the callee's body is in the package (or it is a standard library function)
	std    bool // a standard library function: it keeps no message
	comm   bool // it sends or receives, directly or through its callees
	fields map[*types.Var]bool
	vars   map[types.Object]bool
}

// writes reports whether the effect may write the synchronization variable.
func (e effect) writes(sv *annotations.SyncVar) bool {
	if len(sv.Fields) > 0 {
		return e.fields[sv.Fields[len(sv.Fields)-1].Origin()]
	}
	return e.vars[sv.Root]
}

// summaries computes effects of the package's functions.
type summaries struct {
	witness *witnesses
	ann     *annotations.Annotations
	pkg     *ssa.Package
	cache   map[*ssa.Function]*effect
	// mailboxes caches loopAnalysis.mailboxes per process type.
	mailboxes map[*annotations.Process][]mailboxField
	// derived caches the mappings of concrete implementations of
	// interface messages (see derived.go); ifaceOf maps each to the
	// interface's.
	derived map[*types.TypeName]*annotations.Msg
	ifaceOf map[*annotations.Msg]*annotations.Msg
	// filled are, per process type, the rounds each of its mailbox
	// fields is filled in (see fill.go).
	filled map[*annotations.Process][]fillRounds
	// handlers are the package's handlers and their functions.
	handlers []handlerFunc
	// funcs are the package's functions with a body.
	funcs []*ssa.Function
	// sccIndex is the strongly connected component of the call graph
	// each function is in (see scc.go).
	sccIndex map[*ssa.Function]int
	// sccFuncs are the functions of each component.
	sccFuncs [][]*ssa.Function
	// kindMapped caches the mappings with tag methods computed from the
	// message's kind read as enum mappings (see methodmap.go).
	kindMapped map[*annotations.Msg]*annotations.Msg
	// fillers are the functions the fill pre-pass analysed (see fill.go).
	fillers map[*ssa.Function]bool
}

// A handlerFunc is a handler and the SSA function of its method.
type handlerFunc struct {
	loop *annotations.Loop
	fn   *ssa.Function
}

func newSummaries(ann *annotations.Annotations, pkg *ssa.Package) *summaries {
	return &summaries{ann: ann, pkg: pkg, cache: make(map[*ssa.Function]*effect), witness: newWitnesses(), mailboxes: make(map[*annotations.Process][]mailboxField),
		derived: make(map[*types.TypeName]*annotations.Msg), ifaceOf: make(map[*annotations.Msg]*annotations.Msg),
		filled: make(map[*annotations.Process][]fillRounds), fillers: make(map[*ssa.Function]bool),
		kindMapped: make(map[*annotations.Msg]*annotations.Msg)}
}

// of is the effect of the call c.
func (sm *summaries) of(c *ssa.CallCommon) effect {
	f := c.StaticCallee()
	if f == nil {
		return effect{}
	}
	if p := pkgOf(f); p != nil && isStd(p.Pkg.Path()) {
		return effect{known: true, std: true}
	}
	if pkgOf(f) != sm.pkg || len(f.Blocks) == 0 {
		return effect{}
	}
	return *sm.function(f)
}

// isStd reports whether path is a package of the standard library: a
// path whose first element has no dot and that is found in GOROOT (a
// GOPATH-style path such as those of analysistest's testdata is not).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return false
	}
	stdMu.Lock()
	defer stdMu.Unlock()
	if v, ok := stdCache[path]; ok {
		return v
	}
	p, err := build.Default.Import(path, "", build.FindOnly)
	v := err == nil && p.Goroot
	stdCache[path] = v
	return v
}

var (
	stdMu    sync.Mutex
	stdCache = make(map[string]bool)
)

// function computes f's effect: what its own instructions do, joined with
// its callees'. The functions of a cycle of calls (a strongly connected
// component) share one effect, solved by iteration over all of them
// (effects only grow): computing one member's alone would cache another
// member's from a partial one, and which member ended up partial would
// depend on which was asked for first.
func (sm *summaries) function(f *ssa.Function) *effect {
	if e, ok := sm.cache[f]; ok {
		return e
	}
	e := &effect{known: true, fields: make(map[*types.Var]bool), vars: make(map[types.Object]bool)}
	members := sm.sccMembers(f)
	for _, g := range members {
		sm.cache[g] = e
	}
	for changed := true; changed; {
		before := len(e.fields) + len(e.vars)
		comm := e.comm
		for _, g := range members {
			sm.scan(g, e)
		}
		changed = len(e.fields)+len(e.vars) != before || comm != e.comm
	}
	return e
}

func (sm *summaries) scan(f *ssa.Function, e *effect) {
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				switch a := in.Addr.(type) {
				case *ssa.FieldAddr:
					if fv := fieldOf(a); fv != nil {
						e.fields[fv.Origin()] = true
					}
				case *ssa.Global:
					e.vars[a.Object()] = true
				}
			case *ssa.Send:
				if sm.carriesMessages(in.Chan.Type()) {
					e.comm = true
				}
			case *ssa.Select:
				for _, st := range in.States {
					if sm.carriesMessages(st.Chan.Type()) {
						e.comm = true
					}
				}
			case ssa.CallInstruction:
				sm.scanCall(in.Common(), e)
			}
		}
	}
	for _, anon := range f.AnonFuncs {
		sm.scan(anon, e)
	}
}

func (sm *summaries) scanCall(c *ssa.CallCommon, e *effect) {
	var fn *types.Func
	if c.IsInvoke() {
		fn = c.Method
	} else if f := c.StaticCallee(); f != nil {
		fn, _ = f.Object().(*types.Func)
		if pkgOf(f) == sm.pkg && len(f.Blocks) > 0 {
			ce := sm.function(f)
			e.comm = e.comm || ce.comm
			for k := range ce.fields {
				e.fields[k] = true
			}
			for k := range ce.vars {
				e.vars[k] = true
			}
		}
	}
	if fn != nil && sm.ann.CommOf(fn) != nil {
		e.comm = true
	}
}

// carriesMessages reports whether a channel's elements are messages (or
// pointers to them).
func (sm *summaries) carriesMessages(t types.Type) bool {
	c, ok := t.Underlying().(*types.Chan)
	return ok && sm.ann.MsgOf(c.Elem()) != nil
}

// constInt64 is the integer value of a constant component of a mapping.
func constInt64(c annotations.Component) (int64, bool) {
	if c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}
