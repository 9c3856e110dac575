package makeho

import (
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestMissingMessage checks the two forms of the message of a module that
// does not resolve the runtime: with the version of this ccvet, and for a
// development build.
func TestMissingMessage(t *testing.T) {
	mod := &packages.Module{Path: "example.com/m", Dir: "/src/m"}
	for _, tc := range []struct{ v, want string }{
		{"v0.4.0", "the generated code imports github.com/ccvet/ccvet/compho, which module example.com/m does not resolve: nothing written for this package; run\n" +
			"\tgo get github.com/ccvet/ccvet@v0.4.0\nin /src/m (the directory of its go.mod), or add\n\trequire github.com/ccvet/ccvet v0.4.0\nto its go.mod"},
		{"", "the generated code imports github.com/ccvet/ccvet/compho, which module example.com/m does not resolve: nothing written for this package; run\n" +
			"\tgo get github.com/ccvet/ccvet@latest\nin /src/m (the directory of its go.mod)"},
	} {
		if got := missingMessage(mod, tc.v); got != tc.want {
			t.Errorf("version %q:\n%s\nwant\n%s", tc.v, got, tc.want)
		}
	}
	if got := runtimeMissing(nil, nil, map[string]string{}); got != "" {
		t.Errorf("GOPATH mode: %q, want no check", got)
	}
}
