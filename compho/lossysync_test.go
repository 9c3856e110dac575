package compho

import (
	"fmt"
	"slices"
	"testing"
)

// kernels returns, for each step below steps, the HO set of every process
// when all n processes send to all.
func kernels(adv Adversary, n, steps int) [][][]PID {
	out := make([][][]PID, steps)
	for s := range steps {
		out[s] = make([][]PID, n)
		for q := range n {
			all := make([]PID, n)
			for i := range all {
				all[i] = PID(i)
			}
			out[s][q] = slices.Clone(adv.HeardOf(Step{Index: s}, PID(q), all))
		}
	}
	return out
}

func TestLossySyncIsUniformPeriodicAndBounded(t *testing.T) {
	for _, c := range []struct{ n, r, d, k int }{
		{3, 16, 2, 4}, {5, 40, 3, 4}, {4, 10, 4, 3}, {2, 6, 100, 2}, {5, 12, 0, 4}, {4, 8, 3, 1},
	} {
		periods := (c.r + c.k - 1) / c.k
		wantIso := min(c.d, c.n*periods)
		for seed := range int64(50) {
			name := fmt.Sprintf("n=%d r=%d d=%d k=%d seed=%d", c.n, c.r, c.d, c.k, seed)
			adv, err := LossySync(seed, c.n, c.r, c.d, c.k)
			if err != nil {
				t.Fatal(err)
			}
			ks := kernels(adv, c.n, c.r+c.k)
			isolations := 0
			var prev []PID // isolated in the previous step of the period
			for s, hos := range ks {
				var iso, kernel []PID
				for q, ho := range hos {
					if len(ho) == 0 {
						iso = append(iso, PID(q))
					} else {
						kernel = append(kernel, PID(q))
					}
				}
				// Uniform: every process of the kernel hears exactly the
				// kernel.
				for _, q := range kernel {
					if !slices.Equal(hos[q], kernel) {
						t.Fatalf("%s: step %d: process %d hears %v, kernel %v", name, s, q, hos[q], kernel)
					}
				}
				if s >= c.r && len(iso) > 0 {
					t.Fatalf("%s: step %d past r isolates %v", name, s, iso)
				}
				if s%c.k == 0 || s >= c.r {
					prev = nil
				}
				// Isolation lasts to the end of the period.
				for _, q := range prev {
					if !slices.Contains(iso, q) {
						t.Fatalf("%s: step %d: %d rejoined within a period", name, s, q)
					}
				}
				isolations += len(iso) - len(prev)
				prev = iso
			}
			if isolations != wantIso {
				t.Fatalf("%s: %d isolations, want %d", name, isolations, wantIso)
			}
		}
	}
}

func TestLossySyncDeterministicAndVaried(t *testing.T) {
	mk := func(seed int64) [][][]PID {
		adv, err := LossySync(seed, 4, 20, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		return kernels(adv, 4, 20)
	}
	a := mk(1)
	if b := mk(1); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("same seed, different executions")
	}
	distinct := map[string]bool{}
	starts := map[int]bool{} // rounds of a period where some isolation starts
	for seed := range int64(200) {
		ks := mk(seed)
		distinct[fmt.Sprint(ks)] = true
		for s := range ks {
			for q := range ks[s] {
				if len(ks[s][q]) == 0 && (s%4 == 0 || len(ks[s-1][q]) > 0) {
					starts[s%4] = true
				}
			}
		}
	}
	if len(distinct) < 150 {
		t.Errorf("200 seeds give only %d distinct executions", len(distinct))
	}
	if len(starts) != 4 {
		t.Errorf("isolations start only at rounds %v of a period", starts)
	}
}

func TestLossySyncErrors(t *testing.T) {
	for _, c := range [][4]int{{0, 1, 1, 1}, {1, -1, 1, 1}, {1, 1, -1, 1}, {1, 1, 1, 0}} {
		if _, err := LossySync(0, c[0], c[1], c[2], c[3]); err == nil {
			t.Errorf("LossySync(n=%d, r=%d, d=%d, k=%d): no error", c[0], c[1], c[2], c[3])
		}
	}
	adv, err := LossySync(0, 3, 0, 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := adv.HeardOf(Step{}, 0, []PID{0, 1, 2}); !slices.Equal(got, []PID{0, 1, 2}) {
		t.Errorf("r = 0: heard %v", got)
	}
}

func TestOTRSafeUnderLossySync(t *testing.T) {
	for seed := range int64(100) {
		adv, err := LossySync(seed, 4, 12, 4, 1)
		if err != nil {
			t.Fatal(err)
		}
		ps := newOTR(1, 2, 1, 2)
		for _, m := range ps {
			m.haltOnDecide, m.maxPhases = false, 14
		}
		if _, err := Run(ps, Config[*otr]{Adversary: adv, Observers: []Observer[*otr]{agreement}}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// Without isolation from step 12 on, everyone decides by step 13.
		for p, m := range ps {
			if !m.decided {
				t.Errorf("seed %d: process %d did not decide: %s", seed, p, state(ps))
			}
		}
	}
}
