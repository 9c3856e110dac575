package scaling

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// verdicts are the findings each engine reports on each target, exactly.
// The generated protocols are communication-closed (see the package doc),
// so every finding on them is a false alarm; the first engine's verdict
// on the small ones is the sanity check that the generator writes what it
// means to.
var verdicts = map[string]map[string][]string{
	"r2t1": {"v1": nil, "v2": nil},
	"r2t2": {"v1": nil, "v2": nil},
	"r4t1": {"v1": nil, "v2": nil},
	"pbft150": {
		// False violations: receive files a Commit only if
		// admits(m.View, m.Seq, StepCommit), which compares StepCommit
		// with r.step, so no Commit is stored in the prepare phase. The
		// first engine does not relate the constant argument of the
		// predicate to the step; the syncjump findings echo the false
		// store.
		"v1": {
			"syncjump 221: this update of r.stats.TimedOut is reached while the mailbox may hold a Commit of a later round (stored at line 218) and the tag has not jumped to it (condition IV: a process that stored a message from a later round jumps to that round before it sends, receives or updates its state again)",
			"syncjump 230: this send is reached while the mailbox may hold a Commit of a later round (stored at line 218) and the tag has not jumped to it (condition IV: a process that stored a message from a later round jumps to that round before it sends, receives or updates its state again)",
			"syncrecv 218: Commit stored without checking that its tag is >= (r.seq,r.step): a message of an earlier round can get in (condition III: only messages of the current or a later round are stored, and a reception writes only the mailbox)",
			"syncrecv 236: Commit stored without checking that its tag is >= (r.seq,r.step): a message of an earlier round can get in (condition III: only messages of the current or a later round are stored, and a reception writes only the mailbox)",
		},
		// Cannot prove: the digest of the pre-prepare copied out of the
		// mailbox is recorded in r.certs after the prepare phase; the
		// engine keeps that copy marked as the message just received
		// across the prepare phase's receptions (a precision loss whose
		// cause is not yet pinned down). The hash.Hash calls are no
		// longer reported: only the requests' bytes reach them. The
		// same copy, possibly of a later round, owes the jump at the
		// sends that carry its digest (211, the prepare) and after it
		// is kept in the state (230).
		"v2": {
			"syncjump 211: cannot prove condition IV: the process sends while a PrePrepare that may be of a later round is kept, without a jump to its round first",
			"syncjump 230: cannot prove condition IV: the process sends while a PrePrepare that may be of a later round is kept, without a jump to its round first",
			"syncrecv 226: cannot prove condition III: PrePrepare kept in the state without checking that its tag is >= (r.seq,r.step)",
		},
	},
}

// TestVerdicts checks what each engine reports on the small generated
// protocols and on pbft150. Only r2t1 runs by default (about a second per
// engine); the others take seconds each and run with CCVET_SLOW_TESTS=1.
func TestVerdicts(t *testing.T) {
	targets := []target{generated(2, 1)}
	if os.Getenv("CCVET_SLOW_TESTS") == "1" {
		targets = append(targets, generated(2, 2), generated(4, 1), pbft150)
	}
	for _, tg := range targets {
		for _, eng := range engines {
			t.Run(tg.name+"/"+eng, func(t *testing.T) {
				// Each engine alone, in a child process (see spawn).
				res, err := spawn(job{Engine: eng, Target: tg.name, Rounds: tg.rounds, Types: tg.types, N: 1}, 2*time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				if res == nil {
					t.Fatalf("engine %s on %s: no verdict in 2 minutes", eng, tg.name)
				}
				got := res.Findings
				want := verdicts[tg.name][eng]
				if !slices.Equal(got, want) {
					t.Errorf("engine %s on %s reports\n\t%s\nwant\n\t%s", eng, tg.name, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
				}
			})
		}
	}
}
