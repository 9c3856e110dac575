package checktest_test

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/checktest"
	"golang.org/x/tools/go/analysis"
)

// namer returns an analyzer that reports each package-level variable whose
// name starts with its own name.
func namer(name string) *analysis.Analyzer {
	a := &analysis.Analyzer{Name: name, Doc: "reports the variables named " + name + "* (test only)"}
	a.Run = func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if v, ok := n.(*ast.ValueSpec); ok {
					for _, id := range v.Names {
						if strings.HasPrefix(id.Name, name) {
							pass.Reportf(id.Pos(), "%s saw %s", name, id.Name)
						}
					}
				}
				return true
			})
		}
		return nil, nil
	}
	return a
}

type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCheck checks every outcome of a check, with its exact message: a
// diagnostic that meets its expectation, one of another analyzer that
// would, one that does not match, one that is not expected, and an
// expectation that nothing meets.
func TestCheck(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	gopath := []string{dir}
	alpha, beta := namer("alpha"), namer("beta")
	res := checktest.Analyze(t, gopath, []*analysis.Analyzer{alpha, beta}, checktest.Load(t, gopath, "a"))
	var got []string
	for _, d := range res.Diagnostics("a") {
		got = append(got, fmt.Sprintf("%s:%d %s: %s", filepath.Base(d.Posn.Filename), d.Posn.Line, d.Analyzer, d.Message))
	}
	want := []string{
		"a.go:5 alpha: alpha saw alpha1",
		"a.go:9 alpha: alpha saw alpha2",
		"a.go:11 alpha: alpha saw alpha3",
		"a.go:16 alpha: alpha saw alpha4",
		"a.go:7 beta: beta saw beta1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	rec := &recorder{}
	res.Check(rec, "a", "alpha")
	want = []string{
		"a/a.go:18: in 'want' comment: factful: expectations of facts are not supported",
		"a/a.go:9:5: diagnostic \"alpha saw alpha2\" of alpha does not match pattern `alpha saw something else`",
		"a/a.go:11:5: unexpected diagnostic of alpha: alpha saw alpha3",
		"a/a.go:7:5: diagnostic \"beta saw beta1\" of beta meets the expectation `beta saw beta1`, which is alpha's",
		"a/a.go:13: no diagnostic of alpha was reported matching `nothing reports this`",
		"a/a.go:7: no diagnostic of alpha was reported matching `beta saw beta1`",
		"a/a.go:9: no diagnostic of alpha was reported matching `alpha saw something else`",
	}
	if !slices.Equal(rec.errs, want) {
		t.Errorf("errors:\n%s\nwant\n%s", strings.Join(rec.errs, "\n"), strings.Join(want, "\n"))
	}

	rec = &recorder{}
	res.Check(rec, "nosuch", "alpha")
	if want := []string{"nosuch: not among the packages analysed"}; !slices.Equal(rec.errs, want) {
		t.Errorf("errors %q, want %q", rec.errs, want)
	}
}
