package explore

import (
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// TestSampleBrokenOneThirdRule samples 2000 runs of the broken
// OneThirdRule from 0 0 1 1 under RandomLoss(seed, 0.3): the number of
// failing runs is a function of the seeds, and every failing run shrinks
// to one loss (the first: p0 misses a 0 and decides 1 with 2 of 3).
func TestSampleBrokenOneThirdRule(t *testing.T) {
	s := Sampling[*brokenOTR]{
		New: func() []*brokenOTR {
			return []*brokenOTR{{otr{x: 0}}, {otr{x: 0}}, {otr{x: 1}}, {otr{x: 1}}}
		},
		Adversary:  func(seed int64) (compho.Adversary, error) { return compho.RandomLoss(seed, 0.3), nil },
		Invariants: []Invariant[*brokenOTR]{{"agreement", brokenAgreement}},
		Runs:       2000,
		MaxSteps:   10,
		Shrink:     true,
		ShrinkAll:  true,
	}
	var results []*SampleResult
	for _, w := range []int{1, 2} {
		s.Workers = w
		res, err := Sample(s)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	a, b := results[0], results[1]
	if a.Failures != b.Failures || a.First != b.First || a.Failing.String() != b.Failing.String() {
		t.Errorf("1 and 2 workers differ: %d/%d failures, first %d/%d", a.Failures, b.Failures, a.First, b.First)
	}
	t.Logf("%d of %d runs fail (%.3f, 95%% [%.3f, %.3f]), first run %d, %d losses shrunk to %d; %.0f runs/s\n%s",
		a.Failures, a.Runs, a.Rate, a.Low, a.High, a.First, a.Lost, a.Failing.Losses(), a.PerSecond(), a.Failing)
	sizes := make(map[int]int)
	for _, k := range a.Shrunk {
		sizes[k]++
	}
	t.Logf("all failing runs shrunk in %v: %v (losses: runs)", a.ShrinkTime, sizes)
	if len(a.Shrunk) != a.Failures || sizes[1] != a.Failures {
		t.Errorf("%d runs shrunk, %d of them to 1 loss; want all %d", len(a.Shrunk), sizes[1], a.Failures)
	}
	if a.Failures != 1326 || a.First != 0 || a.Lost != 6 || a.Failing.Losses() != 1 || len(a.Failing.Steps) != 1 {
		t.Errorf("%d failures, first %d, %d losses shrunk to %d in %d steps; want 1326, 0, 6, 1, 1",
			a.Failures, a.First, a.Lost, a.Failing.Losses(), len(a.Failing.Steps))
	}
}

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n      int
		low, high float64
	}{
		{0, 10, 0, 0.2775},
		{20, 1000, 0.0130, 0.0307},
		{10, 10, 0.7225, 1},
	} {
		low, high := Wilson(tc.k, tc.n)
		if d := low - tc.low; d < -1e-4 || d > 1e-4 {
			t.Errorf("Wilson(%d, %d) low = %.4f, want %.4f", tc.k, tc.n, low, tc.low)
		}
		if d := high - tc.high; d < -1e-4 || d > 1e-4 {
			t.Errorf("Wilson(%d, %d) high = %.4f, want %.4f", tc.k, tc.n, high, tc.high)
		}
	}
}
