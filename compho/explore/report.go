package explore

import (
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// ViolationMarker starts the line Check prints before a counterexample;
// ccvet explore looks for it.
const ViolationMarker = "ccvet explore: violation:"

// Check runs Explore on m, as the exploration named name, from a test:
// it prints what was explored (states, depth, bounds, network) or the
// counterexample on standard output, and fails t on a violation or an
// error. It is what `ccvet explore` calls on the functions a package
// marks //ccvet:explore.
func Check[M compho.Machine](t testing.TB, name string, m Model[M]) {
	t.Helper()
	if !report(os.Stdout, name, m) {
		t.Fail()
	}
}

func report[M compho.Machine](w io.Writer, name string, m Model[M]) bool {
	res, err := Explore(m)
	if err != nil {
		fmt.Fprintf(w, "%s: error: %v\n", name, err)
		return false
	}
	net := "any loss"
	if m.Network != nil {
		net = m.Network.Name()
	}
	if res.Violation != nil {
		fmt.Fprintf(w, "%s %s: %s", ViolationMarker, name, res.Violation)
		return false
	}
	bound := "no bound reached"
	if res.Bounded {
		bound = fmt.Sprintf("bounded at %d steps", m.MaxSteps)
		if m.MaxStates > 0 && res.Orbits >= m.MaxStates {
			bound = fmt.Sprintf("bounded at %d states", m.MaxStates)
		}
	}
	fmt.Fprintf(w, "%s: no violation: %d states, depth %d, %s, network: %s (%v)\n", name, res.States, res.Depth, bound, net, res.Elapsed.Round(1e6))
	return true
}
