package explore

import (
	"fmt"
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// outer runs 3 phases of one round; in phase 0, process 0 calls an inner
// machine of 2 rounds (the others wait for it). Both count what they hear
// modulo 3, so that HO sets make different states.
type outer struct{ phases, heard int }

func (m *outer) Rounds() []compho.Round {
	return []compho.Round{{Name: "A", Send: func(c *compho.Ctx) { c.Broadcast(1) }, Update: func(c *compho.Ctx, mb compho.Mailbox) {
		m.heard = (m.heard + len(mb)) % 3
		m.phases = c.Phase() + 1
		if c.Phase() == 0 && c.Self() == 0 {
			c.Call(&inner{})
		}
	}}}
}
func (m *outer) Halted() bool                        { return m.phases >= 3 }
func (m *outer) Clone(*compho.Copier) compho.Machine { c := *m; return &c }
func (m *outer) Key(k *compho.Key)                   { k.Int(int64(m.phases)); k.Int(int64(m.heard)) }

type inner struct{ done, heard int }

func (m *inner) Rounds() []compho.Round {
	r := func(name string) compho.Round {
		return compho.Round{Name: name, Send: func(c *compho.Ctx) { c.Broadcast(2) }, Update: func(c *compho.Ctx, mb compho.Mailbox) {
			m.heard = (m.heard + len(mb)) % 3
			if name == "J" {
				m.done++
			}
		}}
	}
	return []compho.Round{r("I"), r("J")}
}
func (m *inner) Halted() bool                        { return m.done >= 1 }
func (m *inner) Clone(*compho.Copier) compho.Machine { c := *m; return &c }
func (m *inner) Key(k *compho.Key)                   { k.Int(int64(m.done)); k.Int(int64(m.heard)) }

// bruteForce counts the distinct states reachable in at most depth steps,
// breadth first, by running every combination of HO sets of a step as a
// whole step on its own system (no per-receiver factoring).
func bruteForce(t *testing.T, initial [][]compho.Machine, depth int, abstract bool) int {
	type state struct {
		key    string
		locals []*compho.Local
	}
	keyOf := func(sys *compho.System) string {
		s := ""
		for p := range sys.N() {
			k := &compho.Key{AbstractCounters: abstract}
			if err := sys.Key(compho.PID(p), k); err != nil {
				t.Fatal(err)
			}
			s += fmt.Sprintf("%x|", k.Bytes())
		}
		return s
	}
	snapshot := func(sys *compho.System) []*compho.Local {
		ls := make([]*compho.Local, sys.N())
		for p := range ls {
			ls[p] = sys.Snapshot(compho.PID(p))
		}
		return ls
	}
	seen := make(map[string]bool)
	var level []state
	for _, procs := range initial {
		sys, err := compho.NewSystem(procs)
		if err != nil {
			t.Fatal(err)
		}
		if k := keyOf(sys); !seen[k] {
			seen[k] = true
			level = append(level, state{k, snapshot(sys)})
		}
	}
	n := len(initial[0])
	for d := 0; d < depth && len(level) > 0; d++ {
		var next []state
		for _, st := range level {
			probe, err := compho.Assemble(st.locals, d)
			if err != nil {
				t.Fatal(err)
			}
			if probe.Done() {
				continue
			}
			cands, running, err := probe.Begin()
			if err != nil {
				t.Fatal(err)
			}
			hos := make([]compho.Set, n)
			var choose func(p int)
			choose = func(p int) {
				if p < n {
					for h := compho.Set(0); h <= cands[p]; h++ {
						if h&^cands[p] == 0 {
							hos[p] = h
							choose(p + 1)
						}
					}
					return
				}
				step, err := compho.Assemble(st.locals, d)
				if err == nil {
					_, _, err = step.Begin()
				}
				for q := 0; q < n && err == nil; q++ {
					if running[q] {
						_, err = step.Update(compho.PID(q), hos[q])
					}
				}
				if err == nil {
					err = step.Finish()
				}
				if err != nil {
					t.Fatal(err)
				}
				if k := keyOf(step); !seen[k] {
					seen[k] = true
					next = append(next, state{k, snapshot(step)})
				}
			}
			choose(0)
		}
		level = next
	}
	return len(seen)
}

// TestNestedAgainstBruteForce explores machines with a call (the steps in
// which a process calls, runs in or waits for a nested machine go through
// the whole-step path) and compares the number of states with a brute
// force over every combination of HO sets, step by step.
func TestNestedAgainstBruteForce(t *testing.T) {
	for _, n := range []int{2, 3} {
		procs := make([]*outer, n)
		ms := make([]compho.Machine, n)
		for p := range procs {
			procs[p] = &outer{}
			ms[p] = &outer{}
		}
		res, err := Explore(Model[*outer]{Initial: [][]*outer{procs}, MaxSteps: 6})
		if err != nil {
			t.Fatal(err)
		}
		want := bruteForce(t, [][]compho.Machine{ms}, 6, false)
		t.Logf("n=%d: %d states, brute force %d, depth %d", n, res.States, want, res.Depth)
		if res.States != want || res.States != map[int]int{2: 55, 3: 163}[n] {
			t.Errorf("n=%d: %d states, brute force %d", n, res.States, want)
		}
	}
}

// TestOneThirdRuleAgainstBruteForce compares the per-receiver search with
// the brute force on OneThirdRule from its n^n initial states, n = 3, for
// 2 steps, counters abstracted.
func TestOneThirdRuleAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct{ n, states int }{{3, 48}} {
		initial := otrInitial(tc.n)
		res, err := Explore(Model[*otr]{Initial: initial, MaxSteps: 2, AbstractCounters: true})
		if err != nil {
			t.Fatal(err)
		}
		var ms [][]compho.Machine
		for _, procs := range otrInitial(tc.n) {
			row := make([]compho.Machine, tc.n)
			for p, m := range procs {
				row[p] = m
			}
			ms = append(ms, row)
		}
		want := bruteForce(t, ms, 2, true)
		if res.States != tc.states || want != tc.states {
			t.Errorf("n=%d: %d states, brute force %d, want %d", tc.n, res.States, want, tc.states)
		}
	}
}
