package annotations

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"github.com/ccvet/ccvet/internal/srcpos"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// Analyzer resolves the //sync: directives of a package. It reports
// nothing itself: the syncdirective analyzer reports its Problems, and the
// condition checkers consume its [*Annotations] result. Message types and
// communication functions of exported declarations travel to importing
// packages as facts.
var Analyzer = &analysis.Analyzer{
	Name:       "syncannotations",
	Doc:        "resolves //sync: directives (internal; reports nothing)",
	URL:        "https://github.com/ccvet/ccvet/blob/main/docs/annotations.md",
	Run:        run,
	ResultType: reflect.TypeFor[*Annotations](),
	FactTypes:  []analysis.Fact{new(MsgFact), new(CommFact), new(ForeignFact), new(ProcessFact), new(HandlerFact)},
}

// DocsURL is the base of the documentation links in analyzer docs and
// diagnostics: the page of the analyzers, which has a section named after
// each.
const DocsURL = "https://github.com/ccvet/ccvet/blob/main/docs/analyzers.md"

type resolver struct {
	pass *analysis.Pass
	ann  *Annotations
	// files maps each directive to its file.
	fileOf map[*Directive]*ast.File
	// pkgs indexes the package and its transitive imports by path.
	pkgs map[string]*types.Package
	// foreign collects the annotations made here on other packages'
	// declarations, exported as a ForeignFact.
	foreign ForeignFact
	// failed marks the types whose //sync:msg or process //sync:tag was
	// reported, so that the directives that refer to them are not
	// reported again for the same mistake.
	failed map[*types.TypeName]bool
	// unmapped are the enum mappings that leave constants out, checked
	// once the //sync:local directives are resolved: a constant whose
	// messages are local needs no round.
	unmapped []unmappedConsts
}

// unmappedConsts are the constants an enum mapping of a component of the
// message type tn leaves out.
type unmappedConsts struct {
	tn      *types.TypeName
	it      *Item
	comp    Component
	enum    types.Type
	missing []*types.Const
}

func run(pass *analysis.Pass) (any, error) {
	ann := &Annotations{}
	var annotated []*ast.File
	for _, f := range pass.Files {
		if HasDirective(f) {
			annotated = append(annotated, f)
		}
	}
	if len(annotated) == 0 {
		// The fast path: no directive, nothing to resolve or check.
		return ann, nil
	}
	r := &resolver{pass: pass, ann: ann, fileOf: make(map[*Directive]*ast.File), failed: make(map[*types.TypeName]bool)}
	var dirs []*Directive
	for _, f := range annotated {
		ds, probs := ScanFile(f)
		ann.Problems = append(ann.Problems, probs...)
		for _, d := range ds {
			r.fileOf[d] = f
		}
		dirs = append(dirs, ds...)
	}
	r.importFacts()
	byKind := func(k Kind) []*Directive {
		var out []*Directive
		for _, d := range dirs {
			if d.Kind == k {
				out = append(out, d)
			}
		}
		return out
	}
	// Messages first: communication functions and loops refer to them;
	// then process types, which handlers and stamping sends refer to.
	attached := r.attachments(annotated)
	for _, d := range byKind(KindMsg) {
		r.resolveMsg(d, attached)
	}
	for _, d := range byKind(KindLocal) {
		r.resolveLocal(d, attached)
	}
	r.checkUnmapped()
	var loopTags []*Directive
	for _, d := range byKind(KindTag) {
		if isProcessTag(d, attached) {
			r.resolveProcess(d, attached)
		} else {
			loopTags = append(loopTags, d)
		}
	}
	for _, d := range byKind(KindHandler) {
		r.resolveHandler(d, attached)
	}
	r.checkProcesses()
	for _, d := range dirs {
		if d.Kind == KindSend || d.Kind == KindRecv {
			r.resolveComm(d, attached)
		}
	}
	for _, d := range dirs {
		if d.Kind == KindPeers || d.Kind == KindInbox {
			r.resolveChan(d, attached)
		}
	}
	r.resolveLoops(loopTags)
	r.checkUses()
	for _, d := range byKind(KindIgnore) {
		r.resolveIgnore(d)
	}
	r.exportFacts()
	srcpos.SortFunc(pass.Fset, ann.Problems, func(p Problem) token.Pos { return p.Pos })
	return ann, nil
}

func (r *resolver) errorf(pos, end token.Pos, format string, args ...any) *Problem {
	r.ann.Problems = append(r.ann.Problems, problemf(pos, end, format, args...))
	return &r.ann.Problems[len(r.ann.Problems)-1]
}

func (r *resolver) itemErrorf(it *Item, format string, args ...any) *Problem {
	return r.errorf(it.Pos, it.End(), format, args...)
}

func (r *resolver) packages() map[string]*types.Package {
	if r.pkgs == nil {
		r.pkgs = packagesByPath(r.pass.Pkg)
	}
	return r.pkgs
}

// importFacts adds the message types and communication functions that the
// dependencies declared, directly or with the foreign forms.
func (r *resolver) importFacts() {
	r.ann.Msgs = make(map[*types.TypeName]*Msg)
	r.ann.Comms = make(map[*types.Func]*Comm)
	r.ann.Processes = make(map[*types.TypeName]*Process)
	r.ann.Handlers = make(map[*types.Func]*Handler)
	// Handlers refer to their process, imported first.
	var handlers []analysis.ObjectFact
	var foreignHandlers []ForeignHandler
	defer func() {
		for _, of := range handlers {
			r.importHandler(of.Object.(*types.Func), of.Fact.(*HandlerFact))
		}
		for _, fh := range foreignHandlers {
			if fn, ok := r.lookupPath(fh.Pkg, fh.Path).(*types.Func); ok {
				r.importHandler(fn, &fh.Fact)
			}
		}
	}()
	for _, of := range r.pass.AllObjectFacts() {
		switch f := of.Fact.(type) {
		case *MsgFact:
			if tn, ok := of.Object.(*types.TypeName); ok {
				if m, err := msgFromFact(tn, f, r.packages()); err == nil {
					r.ann.Msgs[tn] = m
				}
			}
		case *CommFact:
			if fn, ok := of.Object.(*types.Func); ok {
				r.ann.Comms[fn] = &Comm{Func: fn, Kind: f.Kind, HasOK: f.HasOK, Stamps: f.Stamps, Pos: fn.Pos(), Imported: true}
			}
		case *ProcessFact:
			if tn, ok := of.Object.(*types.TypeName); ok {
				if p, err := processFromFact(tn, f); err == nil {
					r.ann.Processes[tn] = p
				}
			}
		case *HandlerFact:
			if _, ok := of.Object.(*types.Func); ok {
				handlers = append(handlers, of)
			}
		}
	}
	for _, pf := range r.pass.AllPackageFacts() {
		f, ok := pf.Fact.(*ForeignFact)
		if !ok {
			continue
		}
		for _, fm := range f.Msgs {
			if tn, ok := r.lookupPath(fm.Pkg, fm.Path).(*types.TypeName); ok {
				if m, err := msgFromFact(tn, &fm.Fact, r.packages()); err == nil {
					r.ann.Msgs[tn] = m
				}
			}
		}
		for _, fc := range f.Comms {
			if fn, ok := r.lookupPath(fc.Pkg, fc.Path).(*types.Func); ok {
				r.ann.Comms[fn] = &Comm{Func: fn, Kind: fc.Fact.Kind, HasOK: fc.Fact.HasOK, Stamps: fc.Fact.Stamps, Pos: fn.Pos(), Imported: true}
			}
		}
		for _, fp := range f.Processes {
			if tn, ok := r.lookupPath(fp.Pkg, fp.Path).(*types.TypeName); ok {
				if p, err := processFromFact(tn, &fp.Fact); err == nil {
					r.ann.Processes[tn] = p
				}
			}
		}
		foreignHandlers = append(foreignHandlers, f.Handlers...)
	}
}

// importHandler adds a handler a dependency annotated, if its process is
// known.
func (r *resolver) importHandler(fn *types.Func, f *HandlerFact) {
	recv := recvType(fn)
	if recv == nil {
		return
	}
	if p := r.ann.ProcessOf(recv); p != nil {
		r.ann.Handlers[fn] = &Handler{Func: fn, Process: p, Msg: f.Msg, Pos: fn.Pos(), Imported: true}
	}
}

func (r *resolver) lookupPath(pkgPath string, path objectpath.Path) types.Object {
	p := r.packages()[pkgPath]
	if p == nil {
		return nil
	}
	obj, err := objectpath.Object(p, path)
	if err != nil {
		return nil
	}
	return obj
}

// attachment is the declaration a doc comment belongs to.
type attachment struct {
	typeSpec *ast.TypeSpec
	funcDecl *ast.FuncDecl
	method   *ast.Field // an interface method
	field    *ast.Field // a struct field (doc or line comment)
}

// attachments maps doc comment groups to their declarations.
func (r *resolver) attachments(files []*ast.File) map[*ast.CommentGroup]attachment {
	m := make(map[*ast.CommentGroup]attachment)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok == token.TYPE && n.Doc != nil && len(n.Specs) == 1 {
					m[n.Doc] = attachment{typeSpec: n.Specs[0].(*ast.TypeSpec)}
				}
			case *ast.TypeSpec:
				if n.Doc != nil {
					m[n.Doc] = attachment{typeSpec: n}
				}
			case *ast.FuncDecl:
				if n.Doc != nil {
					m[n.Doc] = attachment{funcDecl: n}
				}
			case *ast.StructType:
				for _, fld := range n.Fields.List {
					if fld.Doc != nil {
						m[fld.Doc] = attachment{field: fld}
					}
					if fld.Comment != nil {
						m[fld.Comment] = attachment{field: fld}
					}
				}
			case *ast.InterfaceType:
				for _, fld := range n.Methods.List {
					if _, ok := fld.Type.(*ast.FuncType); ok && fld.Doc != nil && len(fld.Names) == 1 {
						m[fld.Doc] = attachment{method: fld}
					}
				}
			}
			return true
		})
	}
	return m
}

// lookupTarget resolves Name, pkg.Name, T.Method, pkg.T.Method or
// pkg.(*T).Method at package level in the directive's file.
func (r *resolver) lookupTarget(d *Directive) types.Object {
	it := d.Target
	path := it.Path
	scope := r.pass.Pkg.Scope()
	// A leading package qualifier, resolved through the file's imports.
	if len(path) > 1 && !strings.HasPrefix(path[0], "(") {
		if fs := r.pass.TypesInfo.Scopes[r.fileOf[d]]; fs != nil {
			if pn, ok := fs.Lookup(path[0]).(*types.PkgName); ok {
				scope = pn.Imported().Scope()
				path = path[1:]
			}
		}
	}
	recvPtr := false
	name := path[0]
	if strings.HasPrefix(name, "(*") {
		name, recvPtr = name[2:len(name)-1], true
	}
	obj := scope.Lookup(name)
	if obj == nil {
		if len(path) == len(it.Path) && len(path) > 1 && len(path[0]) > 0 && path[0][0] != '(' {
			r.itemErrorf(it, "undefined: %s (no package %s is imported in this file)", path[0], path[0])
		} else {
			r.itemErrorf(it, "undefined: %s", strings.Join(it.Path[:len(it.Path)-len(path)+1], "."))
		}
		return nil
	}
	if len(path) == 1 {
		return obj
	}
	tn, ok := obj.(*types.TypeName)
	if !ok || len(path) != 2 {
		r.itemErrorf(it, "%s is not a function, method or type", it.Text)
		return nil
	}
	recv := tn.Type()
	if recvPtr {
		recv = types.NewPointer(recv)
	}
	m, _, _ := types.LookupFieldOrMethod(recv, false, tn.Pkg(), path[1])
	fn, ok := m.(*types.Func)
	if !ok {
		r.itemErrorf(it, "%s has no method %s", typeString(recv, r.pass.Pkg), path[1])
		return nil
	}
	return fn
}
