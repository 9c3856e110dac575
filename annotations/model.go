package annotations

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// Annotations is every //sync: directive of a package resolved to the
// objects it names, together with the message types and communication
// functions made known by the package's dependencies. It is the Result of
// [Analyzer].
type Annotations struct {
	// Loops are the tagged loops in source order.
	Loops []*Loop
	// Msgs maps each message type (declared here or imported) to its tag
	// mapping.
	Msgs map[*types.TypeName]*Msg
	// Comms maps each //sync:send and //sync:recv function or method.
	Comms map[*types.Func]*Comm
	// Ignores are the //sync:ignore directives.
	Ignores []*Ignore
	// Chans maps each struct field annotated //sync:peers or //sync:inbox
	// (version 2 of the language) to its annotation.
	Chans map[*types.Var]*ChanField
	// Processes maps each process type, a struct type with //sync:tag in
	// its doc comment or named by //sync:tag pkg.T (declared here or
	// imported), to its tag.
	Processes map[*types.TypeName]*Process
	// Handlers maps each //sync:handler method (declared here or
	// imported) to its annotation.
	Handlers map[*types.Func]*Handler
	// Problems are the malformed or unresolvable directives; the
	// syncdirective analyzer reports them.
	Problems []Problem
}

// MsgOf returns the tag mapping of message type t, of a pointer to one, or
// of an instance of a generic one; nil if t is no message type.
func (a *Annotations) MsgOf(t types.Type) *Msg {
	if a == nil || len(a.Msgs) == 0 || t == nil {
		return nil
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return a.Msgs[n.Origin().Obj()]
	}
	return nil
}

// ProcessOf returns the tag of process type t, of a pointer to one, or of
// an instance of a generic one; nil if t is no process type.
func (a *Annotations) ProcessOf(t types.Type) *Process {
	if a == nil || len(a.Processes) == 0 || t == nil {
		return nil
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return a.Processes[n.Origin().Obj()]
	}
	return nil
}

// HandlerOf returns the //sync:handler annotation of method fn, or nil.
func (a *Annotations) HandlerOf(fn *types.Func) *Handler {
	if a == nil || fn == nil || len(a.Handlers) == 0 {
		return nil
	}
	return a.Handlers[fn.Origin()]
}

// A Process is a process type of the process form: a struct type whose
// doc comment holds //sync:tag F1,F2,... (or that //sync:tag pkg.T
// F1,F2,... names). Its handlers are the entry points the driver calls.
type Process struct {
	Type *types.TypeName
	// Vars are the synchronization variables, phase first, as field paths
	// of a value of Type: Root is nil, Fields and FieldIndex start at the
	// struct (the receiver of a handler, dereferenced).
	Vars []*SyncVar
	// Directive is the //sync:tag; nil for an imported process.
	Directive *Directive
	// Pos is the directive's position, or the type's when imported.
	Pos token.Pos
	// Imported reports whether the tag came from a dependency's facts.
	Imported bool
}

// TagString renders the process's tag as written, e.g. "term,role".
func (p *Process) TagString() string {
	names := make([]string, len(p.Vars))
	for i, v := range p.Vars {
		names[i] = v.Name
	}
	return strings.Join(names, ",")
}

// A Handler is a method annotated //sync:handler: an entry point of a
// process that the driver calls. The process is at a communication point
// at its entry and at its exit.
type Handler struct {
	Func    *types.Func
	Process *Process
	// Msg is the index in Func's parameters (receiver excluded) of the
	// received message, or -1 for a local event (a tick, a timeout, a
	// client request).
	Msg int
	// Pre is the condition of //sync:handler F==C: what every message
	// the driver hands the handler satisfies (a handler per message
	// kind, OnPromise with Kind==Promise); nil if none.
	Pre *LocalCond
	// Pos is the directive's position, or the method's when imported.
	Pos token.Pos
	// Imported reports whether the annotation came from a dependency's
	// facts.
	Imported bool
}

// Local reports whether the handler is a local event: it receives no
// message.
func (h *Handler) Local() bool { return h.Msg < 0 }

// Param is the parameter that holds the received message, nil for a local
// event.
func (h *Handler) Param() *types.Var {
	if h.Msg < 0 {
		return nil
	}
	return h.Func.Signature().Params().At(h.Msg)
}

// ChanOf returns the //sync:peers or //sync:inbox annotation of the struct
// field v, or nil.
func (a *Annotations) ChanOf(v *types.Var) *ChanField {
	if a == nil || v == nil || len(a.Chans) == 0 {
		return nil
	}
	return a.Chans[v.Origin()]
}

// CommOf returns the //sync:send or //sync:recv annotation of fn, or nil.
func (a *Annotations) CommOf(fn *types.Func) *Comm {
	if a == nil || fn == nil || len(a.Comms) == 0 {
		return nil
	}
	return a.Comms[fn.Origin()]
}

// A Loop is a for statement annotated with //sync:tag.
type Loop struct {
	// Stmt is the *ast.ForStmt or *ast.RangeStmt.
	Stmt ast.Stmt
	// Body is the loop body.
	Body *ast.BlockStmt
	// Func is the enclosing *ast.FuncDecl or *ast.FuncLit.
	Func ast.Node
	// Vars are the synchronization variables, phase first.
	Vars []*SyncVar
	// Parent is the nearest enclosing tagged loop of the same function,
	// whose variables Vars repeats as a prefix.
	Parent    *Loop
	Directive *Directive
	// Handler is set, and Stmt nil, for the body of a //sync:handler
	// method analysed as one step of its process (see [HandlerLoop]).
	Handler *Handler
}

// Pos is the position of the loop's for keyword, or of a handler's name.
func (l *Loop) Pos() token.Pos {
	if l.Stmt == nil && l.Handler != nil {
		return l.Handler.Func.Pos()
	}
	return l.Stmt.Pos()
}

// HandlerLoops are the regions of the //sync:handler methods declared in
// files, in source order (see [HandlerLoop]).
func (a *Annotations) HandlerLoops(files []*ast.File, info *types.Info) []*Loop {
	if a == nil || len(a.Handlers) == 0 {
		return nil
	}
	var out []*Loop
	for _, f := range files {
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil {
				continue
			}
			if fn, ok := info.Defs[decl.Name].(*types.Func); ok {
				if h := a.HandlerOf(fn); h != nil {
					out = append(out, HandlerLoop(h, decl))
				}
			}
		}
	}
	return out
}

// HandlerLoop returns the region an engine checks for handler h, whose
// declaration is decl: the whole method body, one step of the process,
// with the process's tag as its synchronization variables.
func HandlerLoop(h *Handler, decl *ast.FuncDecl) *Loop {
	return &Loop{Body: decl.Body, Func: decl, Vars: h.Process.Vars, Handler: h}
}

// TagString renders the loop's tag as written, e.g. "p.ballot,p.step".
func (l *Loop) TagString() string {
	names := make([]string, len(l.Vars))
	for i, v := range l.Vars {
		names[i] = v.Name
	}
	return strings.Join(names, ",")
}

// A SyncVar is one synchronization variable: a variable, or a path of
// fields from one, such as p.state.view.Round.
type SyncVar struct {
	// Name is the variable as written in the directive.
	Name string
	Pos  token.Pos
	// Root is the variable the path starts from (a local, parameter,
	// receiver or package-level variable); nil for a variable of a
	// [Process], whose path starts at the process value.
	Root *types.Var
	// Fields are the fields selected from Root, embedded fields included.
	Fields []*types.Var
	// FieldIndex are the struct field indices of Fields; set for the
	// variables of a [Process] only.
	FieldIndex []int
	// Type is the variable's type, an integer type.
	Type types.Type
	// Enum lists the constants of Type, in order, when Type is a defined
	// type with constants declared beside it (a Go enum).
	Enum *Enum
}

// Same reports whether v and w denote the same variable.
func (v *SyncVar) Same(w *SyncVar) bool {
	if v.Root != w.Root || len(v.Fields) != len(w.Fields) {
		return false
	}
	for i := range v.Fields {
		if v.Fields[i] != w.Fields[i] {
			return false
		}
	}
	return true
}

// An Enum is a defined integer type together with its constants, ordered by
// value, as a round type in a Go enum.
type Enum struct {
	Type   *types.Named
	Consts []*types.Const
}

// A Msg is the tag mapping of a message type (the paper's tagm).
type Msg struct {
	Type       *types.TypeName
	Components []Component
	// Pos is the position of the //sync:msg directive, or of the type's
	// declaration for a mapping imported from another package.
	Pos token.Pos
	// Imported reports whether the mapping came from a dependency's facts.
	Imported bool
	// Locals are the conditions of its //sync:local directives: a message
	// for which one holds is a local event of the process, not a network
	// message.
	Locals []*LocalCond
	// localsHere reports that this package added a //sync:local to an
	// imported mapping, which it then exports again.
	localsHere bool
}

// Interface reports whether the message type is an interface type, whose
// components are then methods (or constants, or _).
func (m *Msg) Interface() bool { return types.IsInterface(m.Type.Type()) }

// A LocalCond is the condition F==C of a //sync:local directive.
type LocalCond struct {
	// Text is the condition as written, e.g. "Term==0".
	Text string
	// Left is the value tested, a Field or a Method component.
	Left Component
	// Value is the constant compared with; Const names it, nil for an
	// integer literal or an imported constant whose package is not
	// visible.
	Value constant.Value
	Const *types.Const
	// Pos is the directive's position, or the type's when imported.
	Pos token.Pos
}

// Partial reports whether the mapping leaves a synchronization variable
// out (has a _ component); Condition III then requires equal tags.
func (m *Msg) Partial() bool {
	for _, c := range m.Components {
		if c.Kind == Absent {
			return true
		}
	}
	return false
}

// Name is the message type's name, qualified when it is not declared in pkg.
func (m *Msg) Name(pkg *types.Package) string {
	if m.Type.Pkg() == pkg || m.Type.Pkg() == nil {
		return m.Type.Name()
	}
	return m.Type.Pkg().Name() + "." + m.Type.Name()
}

// ComponentKind says how a message carries one tag component.
type ComponentKind int

// The component kinds. An engine that meets a kind it does not handle
// must take the component's value as unknown.
const (
	Field  ComponentKind = iota + 1 // a field path of the message
	Const                           // a constant: every message of the type has this value
	Absent                          // _: not carried
	// Method is a method of the message with no arguments and one
	// integer result, written Name(): the component is what it returns
	// (a getter, GetTerm(), or a method of an interface message).
	Method
	// Mapped is a field path or a method whose value, a constant of the
	// message's own enum, stands for a round constant of another enum
	// (Type{PrevoteType:RoundStepPrevote,...}): the component is Map's
	// image of that value.
	Mapped
)

// A Component is one position of a message's tag mapping.
type Component struct {
	Kind ComponentKind
	// Text is the component as written, e.g. "View.Round".
	Text string
	// Fields is the path of fields for Kind == Field, and for Mapped over
	// a field, embedded fields included; FieldIndex the corresponding
	// struct field indices.
	Fields     []*types.Var
	FieldIndex []int
	// Const and Value give the constant for Kind == Const. Const is nil
	// when the constant's package is not among the imports.
	Const *types.Const
	Value constant.Value
	// Method is the method for Kind == Method, and for Mapped over a
	// method (Type(){...}).
	Method *types.Func
	// Map is the enum mapping of Kind == Mapped.
	Map *EnumMap
}

// Type is the component's type: for Mapped, the round enum it maps onto
// (nil for Absent, or an imported constant whose package is not visible).
func (c *Component) Type() types.Type {
	switch c.Kind {
	case Field:
		return c.Fields[len(c.Fields)-1].Type()
	case Const:
		if c.Const != nil {
			return c.Const.Type()
		}
	case Method:
		return c.Method.Signature().Results().At(0).Type()
	case Mapped:
		return c.Map.To
	}
	return nil
}

// SourceType is the type of the value the message holds: the field's or
// the method result's type, for Mapped the message's own enum; nil for
// Const and Absent.
func (c *Component) SourceType() types.Type {
	switch {
	case c.Method != nil:
		return c.Method.Signature().Results().At(0).Type()
	case len(c.Fields) > 0:
		return c.Fields[len(c.Fields)-1].Type()
	}
	return nil
}

// An EnumMap maps the constants of a message's enum onto round constants.
type EnumMap struct {
	// From is the message's enum type, To the round's (nil when the
	// mapping came from facts and To's package is not visible).
	From, To types.Type
	// Pairs lists the mapping in the order written; every constant of
	// From has one, but those a //sync:local declares local.
	Pairs []EnumPair
}

// An EnumPair maps one constant of the message's enum to a round constant.
type EnumPair struct {
	// From and To name the constants as written; FromConst and ToConst
	// are nil when they came from facts and their package is not visible.
	From, To           string
	FromConst, ToConst *types.Const
	FromValue, ToValue constant.Value
}

// Lookup returns the round constant that the message value v stands for.
func (m *EnumMap) Lookup(v constant.Value) (constant.Value, bool) {
	for _, p := range m.Pairs {
		if constant.Compare(p.FromValue, token.EQL, v) {
			return p.ToValue, true
		}
	}
	return nil, false
}

// CommKind says whether a function sends or receives.
type CommKind int

// The communication kinds.
const (
	Send CommKind = iota + 1
	Recv
)

func (k CommKind) String() string {
	if k == Send {
		return "send"
	}
	return "recv"
}

// A Comm is a function or method annotated //sync:send or //sync:recv.
type Comm struct {
	Func *types.Func
	Kind CommKind
	// HasOK reports, for a receive, whether its last result is a bool or
	// an error that tells "nothing received" (a timeout).
	HasOK bool
	// Stamps reports "//sync:send stamps": the send, a method of a
	// process type, puts the process's current tag on every message it
	// sends, so the messages handed to it need not carry it.
	Stamps bool
	// Pos is the directive's position, or the function's when imported.
	Pos token.Pos
	// Imported reports whether the annotation came from a dependency's facts.
	Imported bool
}

// An Ignore is a //sync:ignore directive.
type Ignore struct {
	Directive *Directive
	// Analyzers are the analyzer names it suppresses.
	Analyzers []string
	Reason    string
	// File and Line locate the comment (unadjusted by //line); it matches
	// diagnostics on Line and Line+1.
	File string
	Line int
}

// Pos is the position of the ignore comment.
func (ig *Ignore) Pos() token.Pos { return ig.Directive.Pos() }

// Matches reports whether ig suppresses a diagnostic of analyzer at pos.
func (ig *Ignore) Matches(fset *token.FileSet, analyzer string, pos token.Pos) bool {
	f := fset.File(pos)
	if f == nil || f.Name() != ig.File {
		return false
	}
	line := f.PositionFor(pos, false).Line
	if line != ig.Line && line != ig.Line+1 {
		return false
	}
	for _, a := range ig.Analyzers {
		if a == analyzer {
			return true
		}
	}
	return false
}

// AnalyzerNames are the analyzers a //sync:ignore may name. They are part of
// the language: users and scripts depend on them.
var AnalyzerNames = []string{"syncdirective", "syncmono", "syncsend", "syncrecv", "syncjump"}

func isAnalyzerName(s string) bool {
	for _, n := range AnalyzerNames {
		if n == s {
			return true
		}
	}
	return false
}

// isInteger reports whether t's underlying type is an integer type.
func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// EnumOf returns the constants declared with defined integer type t in
// its package, in value order, or nil if t is not such a type or has none.
func EnumOf(t types.Type) *Enum { return enumOf(t) }

// enumOf returns the constants declared with defined integer type t, in
// value order, or nil.
func enumOf(t types.Type) *Enum {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !isInteger(n) {
		return nil
	}
	scope := n.Obj().Pkg().Scope()
	var consts []*types.Const
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), n) {
			consts = append(consts, c)
		}
	}
	if len(consts) == 0 {
		return nil
	}
	sortConsts(consts)
	return &Enum{Type: n, Consts: consts}
}

func sortConsts(cs []*types.Const) {
	// Insertion sort: enums are small, and this keeps the order stable.
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && less(cs[j], cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

func less(a, b *types.Const) bool {
	if constant.Compare(a.Val(), token.EQL, b.Val()) {
		return a.Name() < b.Name()
	}
	return constant.Compare(a.Val(), token.LSS, b.Val())
}

// fieldPath selects the fields named by path from a value of type t,
// following embedded fields and pointers. root is the name of the value,
// for messages.
func fieldPath(t types.Type, pkg *types.Package, root string, path []string) (fields []*types.Var, index []int, err error) {
	upto := func(n int) string {
		if root == "" {
			return strings.Join(path[:n], ".")
		}
		return root + "." + strings.Join(path[:n], ".")
	}
	full := upto(len(path))
	for i, name := range path {
		obj, idx, _ := types.LookupFieldOrMethod(t, true, pkg, name)
		switch obj := obj.(type) {
		case nil:
			return nil, nil, fmt.Errorf("unknown field %s: %s has no field %s", full, typeString(t, pkg), name)
		case *types.Func:
			return nil, nil, errMethod{fmt.Sprintf("%s is a method, not a field", upto(i+1))}
		case *types.Var:
			// Walk idx to record embedded fields too.
			cur := t
			for _, k := range idx {
				st, ok := deref(cur).Underlying().(*types.Struct)
				if !ok {
					return nil, nil, fmt.Errorf("cannot select %s in %s", name, full)
				}
				f := st.Field(k)
				fields = append(fields, f)
				index = append(index, k)
				cur = f.Type()
			}
			t = obj.Type()
		}
	}
	return fields, index, nil
}

// errMethod is the error of a field path that names a method.
type errMethod struct{ msg string }

func (e errMethod) Error() string { return e.msg }

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func typeString(t types.Type, pkg *types.Package) string {
	return types.TypeString(t, types.RelativeTo(pkg))
}

// CanCarry reports whether a value of type t may hold a message: it is a
// //sync:msg type, an interface, or a pointer, slice, array, channel, map
// or struct reaching one within three levels.
func (a *Annotations) CanCarry(t types.Type) bool { return a.canCarry(t, 0) }

func (a *Annotations) canCarry(t types.Type, depth int) bool {
	if depth > 3 {
		return false
	}
	if a.MsgOf(t) != nil {
		return true
	}
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Pointer:
		return a.canCarry(u.Elem(), depth+1)
	case *types.Slice:
		return a.canCarry(u.Elem(), depth+1)
	case *types.Array:
		return a.canCarry(u.Elem(), depth+1)
	case *types.Chan:
		return a.canCarry(u.Elem(), depth+1)
	case *types.Map:
		return a.canCarry(u.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if a.canCarry(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// FuncName names the function n (an *ast.FuncDecl or *ast.FuncLit) as a
// stack trace would: F, T.F, (*T).F, or "a function literal".
func FuncName(n ast.Node) string {
	fd, ok := n.(*ast.FuncDecl)
	if !ok {
		return "a function literal"
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	if star != "" {
		return "(*" + name + ")." + fd.Name.Name
	}
	return name + "." + fd.Name.Name
}
