package tagflow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// TestAtomicCallOf checks that the functions of sync/atomic and the
// methods of its types are recognised, with the address they work on:
// the first argument, or the receiver.
func TestAtomicCallOf(t *testing.T) {
	const src = `package p

import "sync/atomic"

type S struct {
	n uint64
	u atomic.Uint64
	i atomic.Int32
	p atomic.Pointer[S]
}

func f(s *S) {
	atomic.LoadUint64(&s.n)
	atomic.StoreUint64(&s.n, 1)
	atomic.AddUint64(&s.n, 2)
	atomic.CompareAndSwapUint64(&s.n, 1, 2)
	atomic.OrUint64(&s.n, 4)
	s.u.Load()
	s.u.Store(3)
	s.i.Add(-1)
	s.i.Swap(5)
	s.p.Load()
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}, fset,
		types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind  string
		field string
		nargs int
	}{
		{"Load", "n", 0}, {"Store", "n", 1}, {"Add", "n", 1}, {"CompareAndSwap", "n", 2}, {"Or", "n", 1},
		{"Load", "u", 0}, {"Store", "u", 1}, {"Add", "i", 1}, {"Swap", "i", 1}, {"Load", "p", 0},
	}
	var got []*atomicOp
	for _, b := range pkg.Func("f").Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.Call); ok {
				if op := atomicCallOf(c.Common()); op != nil {
					got = append(got, op)
				}
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %d atomic operations, want %d", len(got), len(want))
	}
	for i, w := range want {
		op := got[i]
		fa, ok := op.addr.(*ssa.FieldAddr)
		if !ok {
			t.Errorf("%d: address %v is not a field address", i, op.addr)
			continue
		}
		field := derefType(fa.X.Type()).Underlying().(*types.Struct).Field(fa.Field).Name()
		if op.kind != w.kind || field != w.field || len(op.args) != w.nargs {
			t.Errorf("%d: got %s on %s with %d operands, want %s on %s with %d", i, op.kind, field, len(op.args), w.kind, w.field, w.nargs)
		}
	}
}
