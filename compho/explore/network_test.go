package explore

import (
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// heard remembers the HO set of its last round: one state per HO set.
type heard struct{ ho compho.Set }

func (m *heard) Rounds() []compho.Round {
	return []compho.Round{{Name: "R", Send: func(c *compho.Ctx) { c.Broadcast(0) },
		Update: func(c *compho.Ctx, mb compho.Mailbox) { m.ho = compho.SetOf(mb.Senders()...) }}}
}
func (m *heard) Halted() bool                        { return false }
func (m *heard) Clone(*compho.Copier) compho.Machine { c := *m; return &c }
func (m *heard) Key(k *compho.Key)                   { k.Uint(uint64(m.ho)) }

// oracle counts the combinations of n HO sets (each a subset of all n
// processes) that ok accepts.
func oracle(n int, ok func(hos []compho.Set) bool) int {
	count := 0
	hos := make([]compho.Set, n)
	var rec func(p int)
	rec = func(p int) {
		if p == n {
			if ok(hos) {
				count++
			}
			return
		}
		for h := range compho.Set(1 << n) {
			hos[p] = h
			rec(p + 1)
		}
	}
	rec(0)
	return count
}

// TestNetworks checks the successors of one step of 3 processes under
// each network against a brute-force count over all 512 combinations of
// HO sets.
func TestNetworks(t *testing.T) {
	const n = 3
	all := compho.Set(1<<n - 1)
	for _, tc := range []struct {
		net  Network
		want int // states after one step, the initial one included
	}{
		{AnyLoss(), 1 + oracle(n, func([]compho.Set) bool { return true })},
		{NoLoss(), 1 + 1},
		{Deliver(2), 1 + oracle(n, func(hos []compho.Set) bool {
			for _, h := range hos {
				if h.Len() < 2 {
					return false
				}
			}
			return true
		})},
		// The kernel process is in the state (the monitor): combinations
		// with two possible kernels count twice.
		{Kernel(), 1 + func() int {
			c := 0
			for k := range compho.PID(n) {
				c += oracle(n, func(hos []compho.Set) bool {
					for p, h := range hos {
						if !h.Has(k) || compho.PID(p) == k && h != all {
							return false
						}
					}
					return true
				})
			}
			return c
		}()},
		{RoundKernel(), 1 + oracle(n, func(hos []compho.Set) bool {
			for k := range compho.PID(n) {
				all := true
				for _, h := range hos {
					all = all && h.Has(k)
				}
				if all {
					return true
				}
			}
			return false
		})},
		// No isolation, or one of 3 processes.
		{Isolations(1, 2), 1 + 4},
		{Isolations(2, 2), 1 + 7},
	} {
		procs := []*heard{{}, {}, {}}
		res, err := Explore(Model[*heard]{Initial: [][]*heard{procs}, Network: tc.net, MaxSteps: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.States != tc.want || !res.Bounded {
			t.Errorf("%s: %d states (bounded %v), want %d", tc.net.Name(), res.States, res.Bounded, tc.want)
		}
	}
}
