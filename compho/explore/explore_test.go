package explore

import (
	"testing"
)

func TestOneThirdRuleAgreement(t *testing.T) {
	for _, tc := range []struct {
		n, states int
	}{{3, 0}, {4, 652}, {5, 4780}} {
		res, err := Explore(Model[*otr]{AbstractCounters: true, MaxSteps: 100, Initial: otrInitial(tc.n), Invariants: []Invariant[*otr]{{"agreement", agreement}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("n=%d: %+v", tc.n, res)
	}
}

func TestOneThirdRuleTermination(t *testing.T) {
	res, err := Explore(Model[*otr]{AbstractCounters: true, MaxSteps: 100, Initial: otrInitial(4), Network: UniformRound(moreThanTwoThirds), Invariants: []Invariant[*otr]{{"termination", termination}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
}
