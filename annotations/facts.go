package annotations

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/objectpath"
)

// MsgFact carries a //sync:msg mapping of a message type declared in the
// exporting package to the packages that import it.
type MsgFact struct {
	Components []FactComponent
	// Locals are the conditions of its //sync:local directives.
	Locals []FactLocal
}

// FactLocal is the serialisable form of a [LocalCond].
type FactLocal struct {
	Text  string
	Left  FactComponent
	Value string
	// ConstPkg and ConstName locate the constant compared with; empty for
	// an integer literal.
	ConstPkg, ConstName string
}

// AFact marks MsgFact as an analysis fact.
func (*MsgFact) AFact() {}

func (f *MsgFact) String() string {
	parts := make([]string, len(f.Components))
	for i, c := range f.Components {
		parts[i] = c.Text
	}
	return "msg(" + strings.Join(parts, ",") + ")"
}

// FactComponent is the serialisable form of a [Component].
type FactComponent struct {
	Kind       ComponentKind
	Text       string
	FieldIndex []int
	// ConstPkg and ConstName locate a Const component; Value is its exact
	// value (constant.Value.ExactString).
	ConstPkg, ConstName, Value string
	// Method names the method of a Method component, and of a Mapped one
	// over a method.
	Method string
	// Map holds the pairs of a Mapped component.
	Map []FactPair
}

// FactPair is the serialisable form of an [EnumPair]: each constant by
// package path, name and exact value.
type FactPair struct {
	FromPkg, From, FromValue string
	ToPkg, To, ToValue       string
}

// ProcessFact carries the //sync:tag of a process type declared in the
// exporting package.
type ProcessFact struct {
	Vars []FactVar
}

// AFact marks ProcessFact as an analysis fact.
func (*ProcessFact) AFact() {}

func (f *ProcessFact) String() string {
	parts := make([]string, len(f.Vars))
	for i, v := range f.Vars {
		parts[i] = v.Text
	}
	return "process(" + strings.Join(parts, ",") + ")"
}

// FactVar is a synchronization variable of a process: its text and the
// struct field indices of its path.
type FactVar struct {
	Text       string
	FieldIndex []int
}

// HandlerFact carries a //sync:handler annotation of a method declared in
// the exporting package.
type HandlerFact struct {
	// Msg is the index of the received-message parameter, -1 for a local
	// event.
	Msg int
}

// AFact marks HandlerFact as an analysis fact.
func (*HandlerFact) AFact() {}

func (f *HandlerFact) String() string { return fmt.Sprintf("handler(%d)", f.Msg) }

// CommFact carries a //sync:send or //sync:recv annotation of a function or
// method declared in the exporting package.
type CommFact struct {
	Kind   CommKind
	HasOK  bool
	Stamps bool
}

// AFact marks CommFact as an analysis fact.
func (*CommFact) AFact() {}

func (f *CommFact) String() string {
	if f.Stamps {
		return f.Kind.String() + " stamps"
	}
	return f.Kind.String()
}

// ForeignFact is a package fact that carries the annotations a package made,
// with the //sync:msg pkg.Type and //sync:send pkg.Func forms, on
// declarations of other packages, so that the packages importing it see
// them too.
type ForeignFact struct {
	Msgs      []ForeignMsg
	Comms     []ForeignComm
	Processes []ForeignProcess
	Handlers  []ForeignHandler
}

// AFact marks ForeignFact as an analysis fact.
func (*ForeignFact) AFact() {}

func (f *ForeignFact) String() string {
	return fmt.Sprintf("foreign(%d msgs, %d comms, %d processes, %d handlers)", len(f.Msgs), len(f.Comms), len(f.Processes), len(f.Handlers))
}

// ForeignProcess is a //sync:tag pkg.T of another package's type.
type ForeignProcess struct {
	Pkg  string
	Path objectpath.Path
	Fact ProcessFact
}

// ForeignHandler is a //sync:handler pkg.(*T).Method of another package's
// method.
type ForeignHandler struct {
	Pkg  string
	Path objectpath.Path
	Fact HandlerFact
}

// ForeignMsg is a //sync:msg mapping of another package's type.
type ForeignMsg struct {
	Pkg  string
	Path objectpath.Path
	Fact MsgFact
}

// ForeignComm is a //sync:send or //sync:recv of another package's function.
type ForeignComm struct {
	Pkg  string
	Path objectpath.Path
	Fact CommFact
}

func msgFact(m *Msg) *MsgFact {
	f := &MsgFact{Components: make([]FactComponent, len(m.Components))}
	for i, c := range m.Components {
		f.Components[i] = factComponent(c)
	}
	for _, lc := range m.Locals {
		fl := FactLocal{Text: lc.Text, Left: factComponent(lc.Left), Value: lc.Value.ExactString()}
		if lc.Const != nil {
			fl.ConstPkg, fl.ConstName = lc.Const.Pkg().Path(), lc.Const.Name()
		}
		f.Locals = append(f.Locals, fl)
	}
	return f
}

func factComponent(c Component) FactComponent {
	fc := FactComponent{Kind: c.Kind, Text: c.Text, FieldIndex: c.FieldIndex}
	if c.Kind == Const {
		fc.ConstPkg, fc.ConstName = c.Const.Pkg().Path(), c.Const.Name()
		fc.Value = c.Value.ExactString()
	}
	if c.Method != nil {
		fc.Method = c.Method.Name()
	}
	if c.Map != nil {
		for _, p := range c.Map.Pairs {
			fp := FactPair{From: p.From, FromValue: p.FromValue.ExactString(), To: p.To, ToValue: p.ToValue.ExactString()}
			if p.FromConst != nil {
				fp.FromPkg, fp.From = p.FromConst.Pkg().Path(), p.FromConst.Name()
			}
			if p.ToConst != nil {
				fp.ToPkg, fp.To = p.ToConst.Pkg().Path(), p.ToConst.Name()
			}
			fc.Map = append(fc.Map, fp)
		}
	}
	return fc
}

// msgFromFact rebuilds a Msg; it fails only on facts that do not fit the
// type, which would mean inconsistent export data.
func msgFromFact(tn *types.TypeName, f *MsgFact, pkgs map[string]*types.Package) (*Msg, error) {
	m := &Msg{Type: tn, Components: make([]Component, len(f.Components)), Pos: tn.Pos(), Imported: true}
	for i, fc := range f.Components {
		c, err := componentFromFact(tn, fc, pkgs)
		if err != nil {
			return nil, err
		}
		m.Components[i] = c
	}
	for _, fl := range f.Locals {
		left, err := componentFromFact(tn, fl.Left, pkgs)
		if err != nil {
			return nil, err
		}
		lc := &LocalCond{Text: fl.Text, Left: left, Value: parseInt(fl.Value), Pos: tn.Pos()}
		lc.Const = lookupConstIn(pkgs, fl.ConstPkg, fl.ConstName)
		m.Locals = append(m.Locals, lc)
	}
	return m, nil
}

func componentFromFact(tn *types.TypeName, fc FactComponent, pkgs map[string]*types.Package) (Component, error) {
	c := Component{Kind: fc.Kind, Text: fc.Text}
	bad := fmt.Errorf("fact for %s does not match its type", tn.Name())
	if fc.Method != "" {
		fn, ok := lookupMethod(tn, fc.Method)
		if !ok {
			return c, bad
		}
		c.Method = fn
	} else if fc.Kind == Field || fc.Kind == Mapped {
		c.Fields = lookupIndex(tn.Type(), fc.FieldIndex)
		if len(c.Fields) == 0 || len(c.Fields) != len(fc.FieldIndex) {
			return c, bad
		}
		c.FieldIndex = fc.FieldIndex
	}
	switch fc.Kind {
	case Const:
		c.Value = parseInt(fc.Value)
		c.Const = lookupConstIn(pkgs, fc.ConstPkg, fc.ConstName)
	case Mapped:
		c.Map = &EnumMap{From: c.SourceType()}
		for _, fp := range fc.Map {
			p := EnumPair{From: fp.From, To: fp.To, FromValue: parseInt(fp.FromValue), ToValue: parseInt(fp.ToValue)}
			p.FromConst = lookupConstIn(pkgs, fp.FromPkg, fp.From)
			p.ToConst = lookupConstIn(pkgs, fp.ToPkg, fp.To)
			if p.ToConst != nil {
				c.Map.To = p.ToConst.Type()
			}
			c.Map.Pairs = append(c.Map.Pairs, p)
		}
	}
	return c, nil
}

// lookupMethod finds method name of the type tn or of a pointer to it.
func lookupMethod(tn *types.TypeName, name string) (*types.Func, bool) {
	obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, tn.Pkg(), name)
	fn, ok := obj.(*types.Func)
	return fn, ok
}

// lookupConstIn finds the constant pkg.name among pkgs; nil if its package
// is not visible.
func lookupConstIn(pkgs map[string]*types.Package, pkg, name string) *types.Const {
	if p := pkgs[pkg]; p != nil && name != "" {
		k, _ := p.Scope().Lookup(name).(*types.Const)
		return k
	}
	return nil
}

func processFact(p *Process) *ProcessFact {
	f := &ProcessFact{}
	for _, v := range p.Vars {
		f.Vars = append(f.Vars, FactVar{Text: v.Name, FieldIndex: v.FieldIndex})
	}
	return f
}

// processFromFact rebuilds a Process; it fails only on facts that do not
// fit the type.
func processFromFact(tn *types.TypeName, f *ProcessFact) (*Process, error) {
	p := &Process{Type: tn, Pos: tn.Pos(), Imported: true}
	for _, fv := range f.Vars {
		fields := lookupIndex(tn.Type(), fv.FieldIndex)
		if len(fields) == 0 || len(fields) != len(fv.FieldIndex) {
			return nil, fmt.Errorf("fact for %s does not match its type", tn.Name())
		}
		t := fields[len(fields)-1].Type()
		p.Vars = append(p.Vars, &SyncVar{Name: fv.Text, Pos: tn.Pos(), Fields: fields, FieldIndex: fv.FieldIndex, Type: t, Enum: enumOf(t)})
	}
	return p, nil
}

// packagesByPath indexes pkg and everything it imports, transitively.
func packagesByPath(pkg *types.Package) map[string]*types.Package {
	m := make(map[string]*types.Package)
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if _, ok := m[p.Path()]; ok {
			return
		}
		m[p.Path()] = p
		for _, q := range p.Imports() {
			visit(q)
		}
	}
	visit(pkg)
	return m
}

// parseInt inverts constant.Value.ExactString for integers, which
// constant.MakeFromLiteral does not accept with a sign.
func parseInt(s string) constant.Value {
	v := constant.MakeFromLiteral(strings.TrimPrefix(s, "-"), token.INT, 0)
	if strings.HasPrefix(s, "-") {
		v = constant.UnaryOp(token.SUB, v, 0)
	}
	return v
}
