package explore

import (
	"fmt"
	"os"
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// BenchmarkOneThirdRule explores OneThirdRule's agreement: the full
// search for n = 4 and 5 (and 6 and 7 with CCVET_EXPLORE_LONG=1: seconds
// and tens of minutes), and the search up to permutations for n = 4 to 7
// (1,007,006 states for n = 7). It reports the states per second (with
// symmetry, the states the orbits stand for), the orbits per second, and
// the transitions (successors computed) per second.
func BenchmarkOneThirdRule(b *testing.B) {
	cases := []struct {
		n         int
		symmetric bool
	}{{4, false}, {5, false}, {4, true}, {5, true}, {6, true}, {7, true}}
	if os.Getenv("CCVET_EXPLORE_LONG") != "" {
		cases = append(cases, []struct {
			n         int
			symmetric bool
		}{{6, false}, {7, false}}...)
	}
	for _, bc := range cases {
		name := fmt.Sprintf("n=%d", bc.n)
		var initial [][]*otr
		if bc.symmetric {
			name += "/symmetric"
			initial = otrSorted(bc.n)
		} else {
			initial = otrInitial(bc.n)
		}
		b.Run(name, func(b *testing.B) {
			var res *Result
			for b.Loop() {
				var err error
				res, err = Explore(Model[*otr]{Initial: initial, AbstractCounters: true, Symmetric: bc.symmetric,
					Invariants: []Invariant[*otr]{{"agreement", agreement}}})
				if err != nil || res.Violation != nil || res.States != closedForm(bc.n) {
					b.Fatalf("err %v, %+v", err, res)
				}
			}
			secs := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(res.States), "states")
			b.ReportMetric(float64(res.States)/secs, "states/s")
			b.ReportMetric(float64(res.Orbits)/secs, "orbits/s")
			b.ReportMetric(float64(res.Transitions)/secs, "transitions/s")
		})
	}
}

// BenchmarkSample runs OneThirdRule with 7 processes for 20 steps under
// RandomLoss(0.3), checking agreement after every step: executions per
// second.
func BenchmarkSample(b *testing.B) {
	s := Sampling[*otr]{
		New: func() []*otr {
			return []*otr{{x: 0}, {x: 1}, {x: 2}, {x: 3}, {x: 4}, {x: 5}, {x: 6}}
		},
		Adversary:  func(seed int64) (compho.Adversary, error) { return compho.RandomLoss(seed, 0.3), nil },
		Invariants: []Invariant[*otr]{{"agreement", agreement}},
		Runs:       1000,
		MaxSteps:   20,
	}
	var res *SampleResult
	for b.Loop() {
		var err error
		if res, err = Sample(s); err != nil || res.Failures != 0 {
			b.Fatalf("err %v, %+v", err, res)
		}
	}
	b.ReportMetric(float64(s.Runs)*float64(b.N)/b.Elapsed().Seconds(), "executions/s")
}
