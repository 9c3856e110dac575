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
}

// CommFact carries a //sync:send or //sync:recv annotation of a function or
// method declared in the exporting package.
type CommFact struct {
	Kind  CommKind
	HasOK bool
}

// AFact marks CommFact as an analysis fact.
func (*CommFact) AFact() {}

func (f *CommFact) String() string { return f.Kind.String() }

// ForeignFact is a package fact that carries the annotations a package made,
// with the //sync:msg pkg.Type and //sync:send pkg.Func forms, on
// declarations of other packages, so that the packages importing it see
// them too.
type ForeignFact struct {
	Msgs  []ForeignMsg
	Comms []ForeignComm
}

// AFact marks ForeignFact as an analysis fact.
func (*ForeignFact) AFact() {}

func (f *ForeignFact) String() string {
	return fmt.Sprintf("foreign(%d msgs, %d comms)", len(f.Msgs), len(f.Comms))
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
		fc := FactComponent{Kind: c.Kind, Text: c.Text, FieldIndex: c.FieldIndex}
		if c.Kind == Const {
			fc.ConstPkg, fc.ConstName = c.Const.Pkg().Path(), c.Const.Name()
			fc.Value = c.Value.ExactString()
		}
		f.Components[i] = fc
	}
	return f
}

// msgFromFact rebuilds a Msg; it fails only on facts that do not fit the
// type, which would mean inconsistent export data.
func msgFromFact(tn *types.TypeName, f *MsgFact, pkgs map[string]*types.Package) (*Msg, error) {
	m := &Msg{Type: tn, Components: make([]Component, len(f.Components)), Pos: tn.Pos(), Imported: true}
	for i, fc := range f.Components {
		c := Component{Kind: fc.Kind, Text: fc.Text}
		switch fc.Kind {
		case Field:
			t := tn.Type()
			for _, k := range fc.FieldIndex {
				st, ok := deref(t).Underlying().(*types.Struct)
				if !ok || k >= st.NumFields() {
					return nil, fmt.Errorf("fact for %s does not match its type", tn.Name())
				}
				fld := st.Field(k)
				c.Fields = append(c.Fields, fld)
				t = fld.Type()
			}
			c.FieldIndex = fc.FieldIndex
		case Const:
			c.Value = parseInt(fc.Value)
			if p := pkgs[fc.ConstPkg]; p != nil {
				if k, ok := p.Scope().Lookup(fc.ConstName).(*types.Const); ok {
					c.Const = k
				}
			}
		}
		m.Components[i] = c
	}
	return m, nil
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
