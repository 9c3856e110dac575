package srcpos

import (
	"go/token"
	"testing"
)

// TestCompareAcrossFiles checks that positions of two files are ordered by
// file name whatever order the files were added to the set in.
func TestCompareAcrossFiles(t *testing.T) {
	fset := token.NewFileSet()
	b := fset.AddFile("b.go", -1, 100) // added first: lower token.Pos
	a := fset.AddFile("a.go", -1, 100)
	a10, a50, b5 := a.Pos(10), a.Pos(50), b.Pos(5)
	cases := []struct {
		x, y token.Pos
		want int
	}{
		{a10, b5, -1},
		{b5, a10, 1},
		{a10, a50, -1},
		{a50, a10, 1},
		{a10, a10, 0},
		{token.NoPos, b5, -1},
		{b5, token.NoPos, 1},
	}
	for _, c := range cases {
		if got := Compare(fset, c.x, c.y); got != c.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", fset.Position(c.x), fset.Position(c.y), got, c.want)
		}
	}
	// Two files of one name (a package parsed again for its test
	// variant): by offset.
	a2 := fset.AddFile("a.go", -1, 100)
	if got := Compare(fset, a2.Pos(5), a10); got != -1 {
		t.Errorf("same name, offsets 5 and 10: Compare = %d, want -1", got)
	}
	ps := []token.Pos{b5, a50, a10}
	SortFunc(fset, ps, func(p token.Pos) token.Pos { return p })
	if ps[0] != a10 || ps[1] != a50 || ps[2] != b5 {
		t.Errorf("SortFunc gave %v %v %v", fset.Position(ps[0]), fset.Position(ps[1]), fset.Position(ps[2]))
	}
}
