package gclplugin

import (
	"slices"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
)

// names returns the names of analyzers.
func names(analyzers []*analysis.Analyzer) []string {
	var s []string
	for _, a := range analyzers {
		s = append(s, a.Name)
	}
	return s
}

// TestNew decodes settings as golangci-lint passes them (the values of a
// YAML map, lists as []any) and checks the analyzers built.
func TestNew(t *testing.T) {
	all := []string{"syncdirective", "syncmono", "syncsend", "syncrecv", "syncjump"}
	for _, tc := range []struct {
		name     string
		settings any
		want     []string
	}{
		{"no settings", nil, all},
		{"empty settings", map[string]any{}, all},
		{"enable", map[string]any{"enable": []any{"syncsend", "syncmono"}}, []string{"syncmono", "syncsend"}},
		{"disable", map[string]any{"disable": []any{"syncjump", "syncdirective"}}, []string{"syncmono", "syncsend", "syncrecv"}},
		{"enable and disable", map[string]any{"enable": []any{"syncmono", "syncjump"}, "disable": []any{"syncsend"}}, []string{"syncmono", "syncjump"}},
		{"repeated name", map[string]any{"enable": []any{"syncrecv", "syncrecv"}}, []string{"syncrecv"}},
		{"advisory", map[string]any{"advisory": true}, append(slices.Clone(all), "synclex")},
		{"advisory enabled by name", map[string]any{"enable": []any{"synclex"}}, []string{"synclex"}},
		{"empty lists", map[string]any{"enable": []any{}, "disable": []any{}, "advisory": false}, all},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(tc.settings)
			if err != nil {
				t.Fatalf("New(%v): %v", tc.settings, err)
			}
			if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
				t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
			}
			analyzers, err := p.BuildAnalyzers()
			if err != nil {
				t.Fatalf("BuildAnalyzers(): %v", err)
			}
			if got := names(analyzers); !slices.Equal(got, tc.want) {
				t.Errorf("New(%v).BuildAnalyzers() = %v, want %v", tc.settings, got, tc.want)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		settings any
		want     string
	}{
		{
			map[string]any{"enable": []any{"syncmono", "syncfoo"}},
			`unknown analyzer "syncfoo" in enable: the analyzers are syncdirective, syncmono, syncsend, syncrecv, syncjump, synclex`,
		},
		{
			// An internal prerequisite is not an analyzer that can be selected.
			map[string]any{"disable": []any{"synctagflow"}},
			`unknown analyzer "synctagflow" in disable: the analyzers are syncdirective, syncmono, syncsend, syncrecv, syncjump, synclex`,
		},
		{
			map[string]any{"enable": []any{"syncmono"}, "disable": []any{"syncmono"}},
			`analyzer "syncmono" is both in enable and in disable`,
		},
		{
			map[string]any{"disable": []any{"syncdirective", "syncmono", "syncsend", "syncrecv", "syncjump"}},
			`the settings disable every analyzer: remove ccvet from the enabled linters instead`,
		},
		{
			map[string]any{"enabled": []any{"syncmono"}},
			`decoding settings: json: unknown field "enabled"`,
		},
		{
			map[string]any{"enable": "syncmono"},
			`decoding settings: json: cannot unmarshal string into Go struct field Settings.enable of type []string`,
		},
		{
			"syncmono",
			`decoding settings: json: cannot unmarshal string into Go value of type gclplugin.Settings`,
		},
	} {
		p, err := New(tc.settings)
		if err == nil || err.Error() != tc.want {
			t.Errorf("New(%#v) = %v, %v; want error %q", tc.settings, p, err, tc.want)
		}
	}
}

// TestRegistered checks that importing the package registers the plugin
// under the name that .golangci.yml uses.
func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("ccvet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	analyzers, err := p.BuildAnalyzers()
	if err != nil || len(analyzers) != 5 {
		t.Fatalf("BuildAnalyzers() = %v, %v; want the 5 analyzers of the suite", names(analyzers), err)
	}
}

// TestSelectAdvisory checks the selection with an advisory analyzer, which
// the suite does not have yet.
func TestSelectAdvisory(t *testing.T) {
	a := &analysis.Analyzer{Name: "a"}
	b := &analysis.Analyzer{Name: "b"}
	x := &analysis.Analyzer{Name: "x"}
	suite, advisory := []*analysis.Analyzer{a, b}, []*analysis.Analyzer{x}
	for _, tc := range []struct {
		settings Settings
		want     []string
	}{
		{Settings{}, []string{"a", "b"}},
		{Settings{Advisory: true}, []string{"a", "b", "x"}},
		{Settings{Enable: []string{"x"}}, []string{"x"}},
		{Settings{Enable: []string{"x", "a"}}, []string{"a", "x"}},
		{Settings{Enable: []string{"b"}, Advisory: true}, []string{"b", "x"}},
		{Settings{Advisory: true, Disable: []string{"x"}}, []string{"a", "b"}},
		{Settings{Advisory: true, Disable: []string{"a"}}, []string{"b", "x"}},
		{Settings{Enable: []string{"b"}, Disable: []string{"a"}}, []string{"b"}},
	} {
		got, err := selectAnalyzers(suite, advisory, tc.settings)
		if err != nil || !slices.Equal(names(got), tc.want) {
			t.Errorf("selectAnalyzers(%+v) = %v, %v; want %v", tc.settings, names(got), err, tc.want)
		}
	}
	_, err := selectAnalyzers(suite, advisory, Settings{Enable: []string{"y"}})
	if want := `unknown analyzer "y" in enable: the analyzers are a, b, x`; err == nil || err.Error() != want {
		t.Errorf("unknown name: error %v, want %q", err, want)
	}
}
