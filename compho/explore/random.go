package explore

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ccvet/ccvet/compho"
)

// A Sampling runs random executions: Runs runs, run i under the
// adversary Adversary(Seed+i), each checked by the invariants after every
// step.
type Sampling[M compho.Machine] struct {
	// New returns the machines of a fresh initial state (the same one
	// every time: the runs differ by their adversary only).
	New func() []M
	// Adversary returns the adversary of the run with the given seed:
	// compho.LossySync or compho.RandomLoss, say.
	Adversary func(seed int64) (compho.Adversary, error)
	// Invariants are checked after every step.
	Invariants []Invariant[M]
	// Runs is the number of runs; Seed the seed of the first.
	Runs int
	Seed int64
	// MaxSteps bounds each run; 0 means compho.DefaultMaxSteps. A run
	// that reaches it without a violation counts as passing.
	MaxSteps int
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Shrink shrinks the first failing run: its lost messages are
	// delivered one at a time, kept delivered when the run still fails,
	// until no loss can be removed; then every smaller set of losses of
	// other processes' messages before the violation is tried, smallest
	// first, while there are at most 20,000 of them, so that the run
	// keeps the fewest losses that fail. ShrinkAll shrinks every failing
	// run (SampleResult.Shrunk).
	Shrink, ShrinkAll bool
}

// A SampleResult reports a Sampling.
type SampleResult struct {
	Runs, Failures int
	// Rate is Failures/Runs; [Low, High] its 95% confidence interval
	// (Wilson score interval).
	Rate, Low, High float64
	// First is the index of the first failing run (its seed is
	// Seed+First), -1 if none failed; FirstAfter the time at which a
	// worker found it.
	First      int
	FirstAfter time.Duration
	// Failing is the first failing run as a counterexample, shrunk if
	// asked (Lost counts its lost messages before shrinking).
	Failing *Counterexample
	Lost    int
	// Elapsed is the time the runs took (shrinking excluded).
	Elapsed time.Duration
	// With ShrinkAll, Shrunk[i] is the number of losses the i-th failing
	// run (in seed order) keeps after shrinking, and ShrinkTime the time
	// the shrinking of all of them took.
	Shrunk     []int
	ShrinkTime time.Duration
}

// PerSecond returns the runs per second.
func (r *SampleResult) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Runs) / r.Elapsed.Seconds()
}

// Wilson returns the 95% Wilson score interval of k successes in n
// trials.
func Wilson(k, n int) (low, high float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	d := 1 + z*z/float64(n)
	c := (p + z*z/(2*float64(n))) / d
	h := z * math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n)*float64(n))) / d
	return max(0, c-h), min(1, c+h)
}

// A loss is a message lost in a run: in step Step, Receiver did not hear
// Sender.
type loss struct {
	Step             int
	Receiver, Sender compho.PID
}

// recorder is an adversary that records the losses of another.
type recorder struct {
	adv  compho.Adversary
	lost []loss
}

func (r *recorder) HeardOf(s compho.Step, p compho.PID, senders []compho.PID) []compho.PID {
	cands := compho.SetOf(senders...)
	ho := r.adv.HeardOf(s, p, senders)
	for _, q := range (cands &^ compho.SetOf(ho...)).PIDs() {
		r.lost = append(r.lost, loss{s.Index, p, q})
	}
	return ho
}

// Sample runs the executions of s and reports the rate of failing ones.
func Sample[M compho.Machine](s Sampling[M]) (*SampleResult, error) {
	if s.New == nil || s.Adversary == nil || s.Runs <= 0 {
		return nil, errors.New("explore: Sample needs New, Adversary and Runs > 0")
	}
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	var (
		next     atomic.Int64
		failures atomic.Int64
		mu       sync.Mutex
		first    = -1
		firstAt  time.Duration
		lost     []loss
		failing  = make(map[int][]loss)
		runErr   error
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= s.Runs {
					return
				}
				adv, err := s.Adversary(s.Seed + int64(i))
				if err != nil {
					mu.Lock()
					runErr = err
					mu.Unlock()
					return
				}
				rec := &recorder{adv: adv}
				failed, err := runOnce(s, rec)
				if err != nil {
					mu.Lock()
					runErr = err
					mu.Unlock()
					return
				}
				if failed {
					failures.Add(1)
					mu.Lock()
					if s.ShrinkAll {
						failing[i] = rec.lost
					}
					if first < 0 || i < first {
						first, lost = i, rec.lost
						if firstAt == 0 {
							firstAt = time.Since(start)
						}
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if runErr != nil {
		return nil, runErr
	}
	res := &SampleResult{Runs: s.Runs, Failures: int(failures.Load()), First: first, FirstAfter: firstAt, Elapsed: time.Since(start)}
	res.Rate = float64(res.Failures) / float64(res.Runs)
	res.Low, res.High = Wilson(res.Failures, res.Runs)
	if first < 0 {
		return res, nil
	}
	res.Lost = len(lost)
	if s.ShrinkAll {
		t := time.Now()
		runs := slices.Sorted(maps.Keys(failing))
		for _, i := range runs {
			l, err := shrink(s, failing[i])
			if err != nil {
				return nil, err
			}
			res.Shrunk = append(res.Shrunk, len(l))
		}
		res.ShrinkTime = time.Since(t)
	}
	if s.Shrink {
		var err error
		if lost, err = shrink(s, lost); err != nil {
			return nil, err
		}
	}
	cex, err := replay(s, lost)
	if err != nil {
		return nil, err
	}
	how := "as sampled"
	if s.Shrink {
		how = fmt.Sprintf("shrunk from %d losses", res.Lost)
	}
	cex.Network = fmt.Sprintf("run %d (seed %d), %s", first, s.Seed+int64(first), how)
	res.Failing = cex
	return res, nil
}

// violated checks the invariants on procs.
func violated[M compho.Machine](invs []Invariant[M], procs []M, depth int, done bool) (string, error) {
	v := View[M]{Procs: procs, Depth: depth, Done: done}
	for _, inv := range invs {
		if err := inv.Check(v); err != nil {
			return inv.Name, err
		}
	}
	return "", nil
}

var errStop = errors.New("stop")

// runOnce runs s's machines under adv and reports whether an invariant
// failed.
func runOnce[M compho.Machine](s Sampling[M], adv compho.Adversary) (bool, error) {
	failed := false
	_, err := compho.Run(s.New(), compho.Config[M]{Adversary: adv, MaxSteps: s.MaxSteps, Observers: []compho.Observer[M]{
		func(st compho.Step, procs []M) error {
			if _, err := violated(s.Invariants, procs, st.Index+1, false); err != nil {
				failed = true
				return errStop
			}
			return nil
		}}})
	if failed || err == nil || errors.Is(err, compho.ErrMaxSteps) {
		return failed, nil
	}
	return false, err
}

// lossAdversary loses exactly the messages of lost.
type lossAdversary map[loss]bool

func (a lossAdversary) HeardOf(s compho.Step, p compho.PID, senders []compho.PID) []compho.PID {
	ho := senders[:0]
	for _, q := range senders {
		if !a[loss{s.Index, p, q}] {
			ho = append(ho, q)
		}
	}
	return ho
}

func lossSet(lost []loss, skip int) lossAdversary {
	a := make(lossAdversary, len(lost))
	for i, l := range lost {
		if i != skip {
			a[l] = true
		}
	}
	return a
}

// shrink removes losses from a failing run while it still fails, one at
// a time, until none can be removed (a 1-minimal set of losses, in the
// sense of delta debugging). The losses after the step of the violation
// go first: they cannot matter.
func shrink[M compho.Machine](s Sampling[M], lost []loss) ([]loss, error) {
	cex, err := replay(s, lost)
	if err != nil {
		return nil, err
	}
	var kept []loss
	for _, l := range lost {
		if l.Step < len(cex.Steps) {
			kept = append(kept, l)
		}
	}
	lost = kept
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(lost); i++ {
			failed, err := runOnce(s, lossSet(lost, i))
			if err != nil {
				return nil, err
			}
			if failed {
				lost = append(lost[:i:i], lost[i+1:]...)
				changed = true
				i--
			}
		}
	}
	// 1-minimal is not minimal: another, smaller set of losses may fail
	// too. Try every set of fewer losses of other processes' messages
	// before the violation, smallest first, within a budget of runs.
	smaller, err := fewerLosses(s, len(cex.Steps), len(lost))
	if err != nil || smaller == nil {
		return lost, err
	}
	return smaller, nil
}

// minimalBudget bounds the runs fewerLosses tries.
const minimalBudget = 20000

// fewerLosses returns a failing set of fewer than k losses, among the
// steps before the violation (steps of them), trying sets by size, the
// smallest first; nil if none fails or the sets of the next size are more
// than the budget allows.
func fewerLosses[M compho.Machine](s Sampling[M], steps, k int) ([]loss, error) {
	n := len(s.New())
	var all []loss
	for st := 0; st < steps; st++ {
		for p := range n {
			for q := range n {
				if p != q {
					all = append(all, loss{st, compho.PID(p), compho.PID(q)})
				}
			}
		}
	}
	runs := 0
	for size := 1; size < k; size++ {
		if combinations(len(all), size) > minimalBudget-runs {
			return nil, nil
		}
		var found []loss
		var err error
		var pick func(from int, set []loss) bool
		pick = func(from int, set []loss) bool {
			if len(set) == size {
				runs++
				var failed bool
				failed, err = runOnce(s, lossSet(set, -1))
				if err != nil || failed {
					found = append([]loss(nil), set...)
					return true
				}
				return false
			}
			for i := from; i < len(all); i++ {
				if pick(i+1, append(set, all[i])) {
					return true
				}
			}
			return false
		}
		pick(0, nil)
		if err != nil || found != nil {
			return found, err
		}
	}
	return nil, nil
}

// combinations is C(n, k), saturating at minimalBudget+1.
func combinations(n, k int) int {
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
		if c > minimalBudget {
			return minimalBudget + 1
		}
	}
	return c
}

// replay runs s's machines losing exactly lost, on a System, and returns
// the trace up to the violation.
func replay[M compho.Machine](s Sampling[M], lost []loss) (*Counterexample, error) {
	procs := s.New()
	ms := make([]compho.Machine, len(procs))
	for i, m := range procs {
		ms[i] = m
	}
	sys, err := compho.NewSystem(ms)
	if err != nil {
		return nil, err
	}
	adv := lossSet(lost, -1)
	cex := &Counterexample{Network: "replay of a sampled run"}
	before := make([][]Var, len(ms))
	for p := range ms {
		before[p] = vars(sys.Root(compho.PID(p)))
	}
	cex.Init = append([][]Var(nil), before...)
	maxSteps := s.MaxSteps
	if maxSteps == 0 {
		maxSteps = compho.DefaultMaxSteps
	}
	for step := 0; step < maxSteps && !sys.Done(); step++ {
		st := TraceStep{Positions: make([]compho.Position, len(ms)), Sources: make([]string, len(ms)), Heard: make([]compho.Set, len(ms)), Changed: make([][]Change, len(ms))}
		for p := range ms {
			st.Positions[p] = sys.Position(compho.PID(p))
			st.Sources[p] = sys.Source(compho.PID(p))
		}
		cands, running, err := sys.Begin()
		if err != nil {
			return nil, err
		}
		st.Cands = cands
		for p := range ms {
			if !running[p] {
				continue
			}
			h := cands[p]
			for _, q := range cands[p].PIDs() {
				if adv[loss{step, compho.PID(p), q}] {
					h &^= compho.SetOf(q)
				}
			}
			st.Heard[p] = h
			if _, err := sys.Update(compho.PID(p), h); err != nil {
				return nil, err
			}
		}
		if err := sys.Finish(); err != nil {
			return nil, err
		}
		for p := range ms {
			after := vars(sys.Root(compho.PID(p)))
			st.Changed[p] = diff(before[p], after)
			before[p] = after
		}
		cex.Steps = append(cex.Steps, st)
		roots := make([]M, len(ms))
		for p := range ms {
			roots[p] = sys.Root(compho.PID(p)).(M)
		}
		if name, err := violated(s.Invariants, roots, step+1, sys.Done()); err != nil {
			cex.Invariant, cex.Err = name, err
			return cex, nil
		}
	}
	return nil, fmt.Errorf("explore: the run with %d losses does not fail when replayed", len(lost))
}
