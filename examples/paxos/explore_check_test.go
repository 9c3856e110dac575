package paxos

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/compho"
	"github.com/ccvet/ccvet/compho/explore"
)

// TestExplore runs exploreIsolation: the bug of Run (last = ballot in
// round Prepare) is found with its shortest execution, 8 steps in which
// process 0 is isolated for the whole first ballot
// (4 messages lost), after 84 states; the trace is the golden file
// testdata/isolation.trace.golden (CCVET_UPDATE=1 rewrites it), and its
// script replays the violation on compho.Run.
func TestExplore(t *testing.T) {
	res, err := explore.Explore(exploreIsolation())
	if err != nil {
		t.Fatal(err)
	}
	cex := res.Violation
	if cex == nil {
		t.Fatalf("no violation in %d states", res.States)
	}
	if got, want := fmt.Sprintf("%d steps, %d lost, %d states", len(cex.Steps), cex.Losses(), res.States), "8 steps, 4 lost, 84 states"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
	golden := filepath.Join("testdata", "isolation.trace.golden")
	if os.Getenv("CCVET_UPDATE") != "" {
		if err := os.WriteFile(golden, []byte(cex.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if cex.String() != string(want) {
		t.Errorf("trace differs from %s (CCVET_UPDATE=1 to update):\n%s", golden, cex)
	}
	_, err = compho.Run(machines(3), compho.Config[*RunMachine]{
		Adversary: compho.Scripted(cex.Script(), nil),
		Observers: []compho.Observer[*RunMachine]{func(_ compho.Step, procs []*RunMachine) error {
			return agreement(explore.View[*RunMachine]{Procs: procs})
		}},
	})
	if want := fmt.Sprintf("compho: step 7: %v", cex.Err); !errors.Is(err, errAgreement) || err.Error() != want {
		t.Errorf("replay: %v, want %s", err, want)
	}
}
