package zab

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// run starts n processes, process i with oracle oracles(i) and initial history
// histories[i] (if any), lets each of them execute maxPhases iterations of the
// discovery loop, and returns them once all have returned.
func run(t *testing.T, n, maxPhases int, timeout time.Duration, oracles func(id int) Oracle, histories [][]string, drop func(to int, m Msg) bool) []*Process {
	t.Helper()
	nw := NewNetwork(n, 1024)
	nw.SetDrop(drop)
	procs := make([]*Process, n)
	for i := range procs {
		var h []string
		if i < len(histories) {
			h = histories[i]
		}
		procs[i] = NewProcess(Config{ID: i, Net: nw, Oracle: oracles(i), History: h, Timeout: timeout})
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

// checkSafety checks the guarantees of the discovery phase:
//   - at most one process becomes the established leader of an epoch;
//   - all the processes that adopt a history in an epoch adopt the same one,
//     from the same leader;
//   - an established leader was followed in its epoch by a majority, itself
//     included: they all adopted its epoch and its history;
//   - every process adopts histories in strictly increasing epochs.
func checkSafety(t *testing.T, procs []*Process) {
	t.Helper()
	leaderOf := make(map[int]int) // epoch -> established leader
	for _, p := range procs {
		for _, e := range p.Established() {
			if l, ok := leaderOf[e]; ok && l != p.ID() {
				t.Errorf("epoch %d has two established leaders: %d and %d", e, l, p.ID())
			}
			leaderOf[e] = p.ID()
		}
	}
	adopted := make(map[int]Acceptance) // epoch -> first acceptance seen
	followers := make(map[int]int)      // epoch -> number of processes that adopted
	for _, p := range procs {
		last := -1
		for _, a := range p.Acceptances() {
			if a.Epoch <= last {
				t.Errorf("process %d adopted a history in epoch %d after epoch %d", p.ID(), a.Epoch, last)
			}
			last = a.Epoch
			followers[a.Epoch]++
			first, ok := adopted[a.Epoch]
			if !ok {
				adopted[a.Epoch] = a
				continue
			}
			if a.Leader != first.Leader || !slices.Equal(a.History, first.History) {
				t.Errorf("epoch %d: process %d adopted %v from %d, another process %v from %d",
					a.Epoch, p.ID(), a.History, a.Leader, first.History, first.Leader)
			}
		}
	}
	for e, l := range leaderOf {
		if a, ok := adopted[e]; !ok || a.Leader != l {
			t.Errorf("leader %d established in epoch %d but its history was not adopted", l, e)
		}
		if followers[e] <= len(procs)/2 {
			t.Errorf("leader %d established in epoch %d with %d followers only", l, e, followers[e])
		}
	}
}

func constant(leader int) func(int) Oracle {
	return func(int) Oracle { return func(int) int { return leader } }
}

func TestStableLeader(t *testing.T) {
	histories := [][]string{nil, {"a"}, {"a", "b"}}
	procs := run(t, 3, 3, 50*time.Millisecond, constant(0), histories, nil)
	checkSafety(t, procs)

	// Without loss and with a leader everybody agrees on, the leader gets
	// established (the time-outs are far longer than a round trip).
	established := procs[0].Established()
	if len(established) == 0 {
		t.Fatal("no leader was established")
	}
	for _, p := range procs[1:] {
		if len(p.Established()) != 0 {
			t.Errorf("process %d established itself although the oracle always names 0", p.ID())
		}
	}
	// The adopted histories are initial histories: discovery does not
	// invent entries.
	for _, p := range procs {
		for _, a := range p.Acceptances() {
			if !slices.ContainsFunc(histories, func(h []string) bool { return slices.Equal(h, a.History) }) {
				t.Errorf("process %d adopted history %v, which no process started with", p.ID(), a.History)
			}
		}
	}
}

func TestDisagreeingOracles(t *testing.T) {
	// Process 0 always trusts itself, process 2 always trusts itself, and
	// process 1 switches between them every two epochs.
	oracles := func(id int) Oracle {
		switch id {
		case 1:
			return func(epoch int) int {
				if (epoch/2)%2 == 0 {
					return 0
				}
				return 2
			}
		default:
			return func(int) int { return id }
		}
	}
	procs := run(t, 3, 4, 10*time.Millisecond, oracles, nil, nil)
	checkSafety(t, procs)
}

func TestLossySafety(t *testing.T) {
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 42)) // used under the network lock only
		drop := func(int, Msg) bool { return rng.IntN(5) == 0 }
		procs := run(t, 3, 4, 5*time.Millisecond, constant(1), nil, drop)
		checkSafety(t, procs)
	}
}
