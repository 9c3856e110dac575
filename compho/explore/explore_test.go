package explore

import (
	"slices"
	"testing"
)

// The OneThirdRule model of Tsuchiya and Schiper from its n^n initial
// states, under any loss, with the phase abstracted: the reachable
// states are n^n + n·Σ_{j≤n−thr} C(n,j)(n−1)^j(2^{n−j}−1), thr the least
// count above 2n/3: 652 for n = 4 (their Table 1) and 4,780 for n = 5
// (their Table 1 has 4,480), and 52,614 for n = 6 (their table: 53,064);
// n = 7 (1,007,006) is BenchmarkOneThirdRule. The machine declares itself
// Symmetric, which TestDeclarationsAgree checks changes no figure.
func TestOneThirdRuleAgreement(t *testing.T) {
	cases := []struct{ n, states, transitions int }{{3, 48, 159}, {4, 652, 8148}, {5, 4780, 177275}, {6, 52614, 7234014}}
	for _, tc := range cases {
		res, err := Explore(Model[*symOTR]{Initial: symInitial(tc.n), AbstractCounters: true,
			Invariants: []Invariant[*symOTR]{{"agreement", symAgreement}}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil || res.Bounded {
			t.Fatalf("n=%d: violation %v, bounded %v", tc.n, res.Violation, res.Bounded)
		}
		if res.States != tc.states || res.PhaseStates != tc.states || res.Transitions != tc.transitions {
			t.Errorf("n=%d: %d states (%d at phase boundaries), %d transitions; want %d, %d",
				tc.n, res.States, res.PhaseStates, res.Transitions, tc.states, tc.transitions)
		}
		if closed := closedForm(tc.n); closed != tc.states {
			t.Errorf("n=%d: closed form %d", tc.n, closed)
		}
	}
}

// TestDeclarationsAgree: the search of OneThirdRule gives the same
// states, transitions and depth whether the machine declares itself
// Symmetric (outcomes by multiset of messages, receivers in the same state
// sharing them) or not (outcomes by HO set and messages heard), under
// networks the search enumerates itself (any loss, DELIVER) and one whose
// modes it calls (UniformRound, with a monitor), with one worker or two;
// with one worker, the invariant sees the same states in the same order
// (the numbering of the states, on which the counterexamples depend).
func TestDeclarationsAgree(t *testing.T) {
	nets := []func() Network{AnyLoss, func() Network { return Deliver(3) }, func() Network { return UniformRound(moreThanTwoThirds) }}
	for _, n := range []int{3, 4} {
		for ni, net := range nets {
			for _, workers := range []int{1, 2} {
				var plainSeen, symSeen []otr
				plain, err := Explore(Model[*otr]{Initial: otrInitial(n), Network: net(), AbstractCounters: true, Workers: workers,
					Invariants: []Invariant[*otr]{{"record", func(v View[*otr]) error {
						for _, m := range v.Procs {
							plainSeen = append(plainSeen, *m)
						}
						return nil
					}}}})
				if err != nil {
					t.Fatal(err)
				}
				sym, err := Explore(Model[*symOTR]{Initial: symInitial(n), Network: net(), AbstractCounters: true, Workers: workers,
					Invariants: []Invariant[*symOTR]{{"record", func(v View[*symOTR]) error {
						for _, m := range v.Procs {
							symSeen = append(symSeen, m.otr)
						}
						return nil
					}}}})
				if err != nil {
					t.Fatal(err)
				}
				if plain.States != sym.States || plain.Transitions != sym.Transitions || plain.Depth != sym.Depth {
					t.Errorf("n=%d, network %d, %d workers: plain %d states, %d transitions, depth %d; symmetric %d, %d, %d",
						n, ni, workers, plain.States, plain.Transitions, plain.Depth, sym.States, sym.Transitions, sym.Depth)
				}
				if workers == 1 && !slices.Equal(plainSeen, symSeen) {
					t.Errorf("n=%d, network %d: the states are numbered differently", n, ni)
				}
			}
		}
	}
}

// closedForm is the number of OneThirdRule configurations with at most
// one decided value v and, when one is decided, at most n−thr processes
// holding another value.
func closedForm(n int) int {
	thr := 2*n/3 + 1
	pow := func(b, e int) int {
		r := 1
		for range e {
			r *= b
		}
		return r
	}
	binom := func(n, k int) int {
		r := 1
		for i := range k {
			r = r * (n - i) / (i + 1)
		}
		return r
	}
	sum := 0
	for j := 0; j <= n-thr; j++ {
		sum += binom(n, j) * pow(n-1, j) * (pow(2, n-j) - 1)
	}
	return pow(n, n) + n*sum
}

// TestOneThirdRuleTermination checks CTL 4 of Tsuchiya and Schiper: once
// the communication predicate held (a uniform round of more than 2n/3,
// then a round of more than 2n/3 for each process), all decided. The
// monitor doubles some configurations: 976 states for n = 4, as their
// Table 1.
func TestOneThirdRuleTermination(t *testing.T) {
	res, err := Explore(Model[*otr]{Initial: otrInitial(4), Network: UniformRound(moreThanTwoThirds), AbstractCounters: true,
		Invariants: []Invariant[*otr]{{"termination", termination}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.States != 976 || res.Depth != 3 {
		t.Errorf("violation %v, %d states, depth %d; want none, 976, 3", res.Violation, res.States, res.Depth)
	}
}

// TestBrokenOneThirdRule: deciding with more than n/3 (instead of 2n/3)
// breaks agreement in one step; the counterexample is the shortest, the
// same with one worker or two, and its script replays it.
func TestBrokenOneThirdRule(t *testing.T) {
	var traces []string
	for _, workers := range []int{1, 2} {
		res, err := Explore(Model[*brokenOTR]{Initial: brokenInitial(4), AbstractCounters: true, Workers: workers,
			Invariants: []Invariant[*brokenOTR]{{"agreement", brokenAgreement}}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation == nil {
			t.Fatal("no violation")
		}
		traces = append(traces, res.Violation.String())
	}
	if traces[0] != traces[1] {
		t.Errorf("traces differ:\n%s\n%s", traces[0], traces[1])
	}
	// p3 loses p0's 1 and decides 0 (2 of 3 is more than 4/3); the
	// others hear two 1s first and decide 1.
	want := `agreement violated after 1 steps (network: any loss): process 0 decided 1, process 3 decided 0
initial state 5:
  p0: x=1 decided=false decision=0
  p1: x=1 decided=false decision=0
  p2: x=0 decided=false decision=0
  p3: x=0 decided=false decision=0
step 0: OTR phase 0
  lost: 3←{0}
  p0: decided false → true, decision 0 → 1
  p1: decided false → true, decision 0 → 1
  p2: x 0 → 1, decided false → true, decision 0 → 1
  p3: decided false → true
`
	if got := traces[0]; got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
}

// TestOneThirdRuleSymmetric explores OneThirdRule up to permutations of
// the processes, from one initial state per orbit: the orbits' sizes add
// up to the states of the full search, for n = 4 to 7.
func TestOneThirdRuleSymmetric(t *testing.T) {
	for _, tc := range []struct{ n, states, orbits int }{{4, 652, 87}, {5, 4780, 231}, {6, 52614, 648}, {7, 1007006, 2752}} {
		res, err := Explore(Model[*otr]{Initial: otrSorted(tc.n), AbstractCounters: true, Symmetric: true,
			Invariants: []Invariant[*otr]{{"agreement", agreement}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("n=%d %+v", tc.n, res)
		if res.States != tc.states || res.PhaseStates != tc.states || res.Orbits != tc.orbits || res.Violation != nil {
			t.Errorf("n=%d: %d states in %d orbits, violation %v; want %d in %d", tc.n, res.States, res.Orbits, res.Violation, tc.states, tc.orbits)
		}
	}
}
