package compho

import "testing"

// BenchmarkRunOneThirdRule runs OneThirdRule with 7 processes for 1000
// steps (49 messages each).
func BenchmarkRunOneThirdRule(b *testing.B) {
	for _, bc := range []struct {
		name string
		adv  Adversary
	}{
		{"NoLoss", NoLoss()},
		{"RandomLoss", RandomLoss(1, 0.2)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ps := newOTR(1, 2, 3, 4, 5, 6, 7)
				for _, m := range ps {
					m.haltOnDecide, m.maxPhases = false, 1000
				}
				res, err := Run(ps, Config[*otr]{Adversary: bc.adv})
				if err != nil || res.Steps != 1000 {
					b.Fatalf("Steps = %d, err = %v", res.Steps, err)
				}
			}
		})
	}
}
