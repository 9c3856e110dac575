package explore

import (
	"fmt"
	"os"
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// BenchmarkOneThirdRule explores OneThirdRule's agreement, side by side:
// the full search for n = 4 to 7 (15 CPU seconds or so for n = 7; with
// CCVET_EXPLORE_LONG=1 also with one worker) of the machine that declares
// itself Symmetric, and for n = 6 of the plain machine (whose outcomes
// are computed by HO set); and the search up to permutations for n = 4
// to 7 (1,007,006 states for n = 7). It reports the CPU
// seconds (on a shared machine, the wall time is an upper bound), the
// states per second (with symmetry, the states the orbits stand for),
// the orbits per second, and the transitions (successors computed) per
// second.
func BenchmarkOneThirdRule(b *testing.B) {
	type bench struct {
		n       int
		kind    string // "full", "plain" or "symmetric"
		workers int
	}
	cases := []bench{{4, "full", 0}, {5, "full", 0}, {6, "full", 0}, {6, "plain", 0},
		{4, "symmetric", 0}, {5, "symmetric", 0}, {6, "symmetric", 0}, {7, "symmetric", 0}, {7, "full", 0}}
	if os.Getenv("CCVET_EXPLORE_LONG") != "" {
		cases = append(cases, bench{7, "full", 1})
	}
	for _, bc := range cases {
		name := fmt.Sprintf("n=%d/%s", bc.n, bc.kind)
		if bc.workers > 0 {
			name += fmt.Sprintf("/workers=%d", bc.workers)
		}
		// The initial states are built before the clock starts.
		var plain [][]*otr
		var sym [][]*symOTR
		switch bc.kind {
		case "plain":
			plain = otrInitial(bc.n)
		case "symmetric":
			plain = otrSorted(bc.n)
		default:
			sym = symInitial(bc.n)
		}
		b.Run(name, func(b *testing.B) {
			var res *Result
			cpu := cpuTime()
			for b.Loop() {
				var err error
				switch bc.kind {
				case "plain":
					res, err = Explore(Model[*otr]{Initial: plain, AbstractCounters: true, Workers: bc.workers,
						Invariants: []Invariant[*otr]{{"agreement", agreement}}})
				case "symmetric":
					res, err = Explore(Model[*otr]{Initial: plain, AbstractCounters: true, Symmetric: true,
						Invariants: []Invariant[*otr]{{"agreement", agreement}}})
				default:
					res, err = Explore(Model[*symOTR]{Initial: sym, AbstractCounters: true, Workers: bc.workers,
						Invariants: []Invariant[*symOTR]{{"agreement", symAgreement}}})
				}
				if err != nil || res.Violation != nil || res.States != closedForm(bc.n) {
					b.Fatalf("err %v, %+v", err, res)
				}
			}
			secs := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(res.States), "states")
			b.ReportMetric(float64(res.Transitions), "transitions")
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
