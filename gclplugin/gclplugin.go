package gclplugin

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
)

// Name is the name of the linter in golangci-lint's configuration, its
// output, and //nolint comments.
const Name = "ccvet"

func init() {
	register.Plugin(Name, New)
}

// advisory lists the advisory analyzers: they run only when the advisory
// setting is true or when enable names them.
var advisory = analyzer.Advisory

// Settings are the plugin's settings, from the settings key of the linter's
// entry under linters.settings.custom in .golangci.yml. The zero value runs
// every analyzer of [analyzer.Suite].
type Settings struct {
	// Enable names the analyzers to run. When it is empty, every analyzer
	// that is not advisory runs.
	Enable []string `json:"enable"`

	// Disable names analyzers not to run.
	Disable []string `json:"disable"`

	// Advisory also runs the advisory analyzers that Disable does not
	// name, whether or not Enable names them.
	Advisory bool `json:"advisory"`
}

// New returns the plugin for settings, the raw settings value of
// golangci-lint's configuration (nil when there are none). It reports an
// error for settings that do not decode into [Settings] or that name an
// unknown analyzer.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, err
	}
	analyzers, err := selectAnalyzers(analyzer.Suite, advisory, s)
	if err != nil {
		return nil, err
	}
	return &plugin{analyzers: analyzers}, nil
}

// plugin is the golangci-lint linter plugin for a selection of analyzers.
type plugin struct {
	analyzers []*analysis.Analyzer
}

// BuildAnalyzers returns the selected analyzers, in the order of
// [analyzer.Suite].
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return slices.Clone(p.analyzers), nil
}

// GetLoadMode returns [register.LoadModeTypesInfo]: the analyzers need type
// information, and they exchange facts across packages.
func (p *plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

// selectAnalyzers returns the analyzers of suite and advisory that s
// selects, in that order, or an error naming the first unknown analyzer.
func selectAnalyzers(suite, advisory []*analysis.Analyzer, s Settings) ([]*analysis.Analyzer, error) {
	all := slices.Concat(suite, advisory)
	byName := make(map[string]*analysis.Analyzer, len(all))
	for _, a := range all {
		byName[a.Name] = a
	}
	lookup := func(key string, names []string) (map[*analysis.Analyzer]bool, error) {
		set := make(map[*analysis.Analyzer]bool, len(names))
		for _, name := range names {
			a, ok := byName[name]
			if !ok {
				known := make([]string, len(all))
				for i, a := range all {
					known[i] = a.Name
				}
				return nil, fmt.Errorf("unknown analyzer %q in %s: the analyzers are %s", name, key, strings.Join(known, ", "))
			}
			set[a] = true
		}
		return set, nil
	}
	enable, err := lookup("enable", s.Enable)
	if err != nil {
		return nil, err
	}
	disable, err := lookup("disable", s.Disable)
	if err != nil {
		return nil, err
	}
	for _, a := range all {
		if enable[a] && disable[a] {
			return nil, fmt.Errorf("analyzer %q is both in enable and in disable", a.Name)
		}
	}

	var selected []*analysis.Analyzer
	for _, a := range all {
		isAdvisory := slices.Contains(advisory, a)
		var on bool
		switch {
		case disable[a]:
			on = false
		case len(enable) > 0:
			on = enable[a] || isAdvisory && s.Advisory
		default:
			on = !isAdvisory || s.Advisory
		}
		if on {
			selected = append(selected, a)
		}
	}
	if len(selected) == 0 {
		return nil, fmt.Errorf("the settings disable every analyzer: remove %s from the enabled linters instead", Name)
	}
	return selected, nil
}
