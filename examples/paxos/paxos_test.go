package paxos

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"
	"time"
)

// run starts n processes, lets each of them execute maxPhases phases, and
// returns them once all have returned. A nil drop means no message loss.
func run(t *testing.T, n, maxPhases int, timeout time.Duration, drop func(to int, m Message) bool) []*Process {
	t.Helper()
	nw := NewNetwork(n, 1024)
	nw.SetDrop(drop)
	procs := make([]*Process, n)
	for i := range procs {
		k := 0
		procs[i] = NewProcess(Config{
			ID:  i,
			Net: nw,
			NewCommand: func() string {
				k++
				return fmt.Sprintf("p%d.c%d", i, k)
			},
			Timeout: timeout,
		})
	}
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() { p.Run(maxPhases) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("processes did not terminate")
	}
	return procs
}

func isPrefix(a, b []string) bool {
	return len(a) <= len(b) && slices.Equal(a, b[:len(a)])
}

// checkOutputs checks the specification of the protocol: any two outputs, of
// the same process or of different ones, are prefixes of one another. It
// returns the number of outputs.
func checkOutputs(t *testing.T, procs []*Process) int {
	t.Helper()
	var all [][]string
	for _, p := range procs {
		all = append(all, p.Outputs()...)
	}
	for i, a := range all {
		for _, b := range all[i+1:] {
			if !isPrefix(a, b) && !isPrefix(b, a) {
				t.Errorf("incomparable outputs %v and %v", a, b)
			}
		}
	}
	return len(all)
}

func TestLossless(t *testing.T) {
	for _, n := range []int{3, 5} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			procs := run(t, n, 4, 200*time.Millisecond, nil)
			if checkOutputs(t, procs) == 0 {
				t.Fatal("no process output anything")
			}
			// Outputs only grow: the last output of a process extends its
			// earlier ones (implied by the check above, but it is the
			// property a client of a single replica relies on).
			for _, p := range procs {
				out := p.Outputs()
				for i := 1; i < len(out); i++ {
					if !isPrefix(out[i-1], out[i]) {
						t.Errorf("process %d output %v then %v", p.ID(), out[i-1], out[i])
					}
				}
			}
		})
	}
}

// TestLossyBugHunt runs the protocol with random message loss until the
// specification is violated, which happens within a few dozen runs because of
// the bug of line 15 documented in Process.Run (with the fix applied, no
// violation shows up). It is expected to FAIL, so it only runs when the
// environment variable PAXOS_BUG_HUNT is set:
//
//	PAXOS_BUG_HUNT=1 go test -run LossyBugHunt ./examples/paxos
//
// ccvet accepts this protocol all the same: communication closure is what
// makes such a lossy, asynchronous execution equivalent to a lossy lockstep
// one, which is what the testing paper samples; it says nothing about the
// correctness of the algorithm itself.
func TestLossyBugHunt(t *testing.T) {
	if os.Getenv("PAXOS_BUG_HUNT") == "" {
		t.Skip("set PAXOS_BUG_HUNT=1 to look for the known bug of line 15 (the test then fails)")
	}
	for seed := range uint64(1000) {
		rng := rand.New(rand.NewPCG(seed, 7)) // used under the network lock only
		drop := func(int, Message) bool { return rng.IntN(4) == 0 }
		procs := run(t, 3, 8, 2*time.Millisecond, drop)
		checkOutputs(t, procs)
		if t.Failed() {
			t.Logf("violation found with seed %d", seed)
			for _, p := range procs {
				t.Logf("process %d output %v", p.ID(), p.Outputs())
			}
			return
		}
	}
}
