package selection

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestSelected(t *testing.T) {
	mk := func(name string) *analysis.Analyzer { return &analysis.Analyzer{Name: name, Doc: name} }
	a, b, c, adv := mk("a"), mk("b"), mk("c"), mk("adv")
	suite, advisory := []*analysis.Analyzer{a, b, c}, []*analysis.Analyzer{adv}
	for _, tc := range []struct {
		args string
		want string
	}{
		{"", "a b c"},
		{"-b", "b"},
		{"-b -c", "b c"},
		{"-b=false", "a c"},
		{"-adv", "a b c adv"},
		{"-adv -a", "a adv"},
		{"-adv=false", "a b c"},
		{"-a -b=false", "a"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f := Register(fs, suite, advisory)
		if err := fs.Parse(strings.Fields(tc.args)); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		var got []string
		for _, an := range f.Selected() {
			got = append(got, an.Name)
		}
		if !slices.Equal(got, strings.Fields(tc.want)) {
			t.Errorf("%q selects %v, want %v", tc.args, got, tc.want)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	Register(fs, suite, advisory)
	if err := fs.Parse([]string{"-a=maybe"}); err == nil {
		t.Errorf("-a=maybe accepted")
	}
}
