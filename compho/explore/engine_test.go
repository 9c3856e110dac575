package explore

import (
	"slices"
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// TestPackedIndex: the packed visited set holds the states whose numbers
// fit in its fields, keeps the states that differ only in the last
// process's field in one group, grows, and turns into a wide index,
// keeping every state, when one does not fit (n = 15: 4 bits per
// process).
func TestPackedIndex(t *testing.T) {
	const n = 15
	var keys [][]uint32
	x := newPackedIndex(n, func() stateIndex { return newStateIndex(n + 2) }, func() [][]uint32 { return keys })
	key := func(seed, last uint32, mon uint64) []uint32 {
		k := make([]uint32, n+2)
		for p := range n {
			k[p] = (seed + uint32(p)) % 16
		}
		k[n-1] = last
		k[n], k[n+1] = uint32(mon), uint32(mon>>32)
		return k
	}
	add := func(k []uint32) {
		keys = append(keys, k)
		x.add(k)
	}
	// 256 distinct states (the monitor has 4 bits), each added twice,
	// in 256 groups: the table of 1,024 slots is then a quarter full.
	for seed := range uint32(512) {
		add(key(seed, seed%16, uint64(seed/16%16)))
	}
	if x.wide != nil || x.count != 256 || x.groups != 256 || len(x.table) != 2*1024 {
		t.Fatalf("packed: wide %v, %d words in %d groups, %d slots; want packed, 256 in 256, 1024",
			x.wide != nil, x.count, x.groups, len(x.table)/2)
	}
	if x.has(key(0, 1, 0)) || !x.has(key(17, 1, 1)) {
		t.Errorf("packed membership wrong")
	}
	// The 16 states that differ from seed 0's only in the last field
	// form one group (seed 0's), which grows by 15 states.
	for last := range uint32(16) {
		add(key(0, last, 0))
	}
	if x.count != 256+15 || x.groups != 256 {
		t.Fatalf("one group: %d words in %d groups; want 271 in 256", x.count, x.groups)
	}
	// 600 more groups (the first three fields 600 numbers, the
	// others 15): the table doubles (at most half full).
	for seed := range uint32(600) {
		k := key(0, 0, 0)
		for p := range n - 1 {
			k[p] = 15
		}
		k[0], k[1], k[2] = seed&15, seed>>4&15, seed>>8
		add(k)
	}
	if x.count != 871 || x.groups != 856 || len(x.table) != 2*2048 {
		t.Fatalf("grown: %d words in %d groups, %d slots; want 871 in 856, 2048", x.count, x.groups, len(x.table)/2)
	}
	big := key(5, 16, 0) // 16 does not fit in 4 bits
	if x.has(big) {
		t.Errorf("a state that does not fit is in the index")
	}
	add(big)
	if x.wide == nil {
		t.Fatal("still packed after a state that does not fit")
	}
	for _, k := range keys {
		if !x.has(k) {
			t.Fatalf("state %v lost when the index turned wide", k)
		}
	}
	if x.has(key(0, 1, 1)) {
		t.Errorf("wide membership wrong")
	}
	if !slices.Equal(big, keys[len(keys)-1]) {
		t.Errorf("keys changed")
	}
}

// selfOTR is otr whose state is set up by Init, from its initial value
// and its identity: process p starts with x = (x0+p) mod n. Its Key,
// before Init, writes x0, or panics if strict.
type selfOTR struct {
	x0     int
	strict bool
	st     *otr
}

func (m *selfOTR) Rounds() []compho.Round {
	return []compho.Round{{Name: "OTR",
		Send:   func(c *compho.Ctx) { m.st.send(c) },
		Update: func(c *compho.Ctx, mbox compho.Mailbox) { m.st.update(c, mbox) }}}
}

func (m *selfOTR) Init(c *compho.Ctx) { m.st = &otr{x: (m.x0 + int(c.Self())) % c.N()} }

func (m *selfOTR) Halted() bool { return false }

func (m *selfOTR) Clone(*compho.Copier) compho.Machine {
	c := *m
	if m.st != nil {
		st := *m.st
		c.st = &st
	}
	return &c
}

func (m *selfOTR) Key(k *compho.Key) {
	if m.st == nil {
		if m.strict {
			panic("not started")
		}
		k.Int(int64(m.x0))
		return
	}
	m.st.Key(k)
}

// TestInitialStarts: the initial states are started per process (the
// same machine state started as another process is another process
// state), and a Key that panics before Init only costs the start. From
// the 4 states where every x0 is the same value (the processes then
// start with 4 different values), OneThirdRule with n = 4 reaches what
// otr reaches from (v, v+1, v+2, v+3) mod 4.
func TestInitialStarts(t *testing.T) {
	var want []*Result
	for _, strict := range []bool{false, true} {
		var initial [][]*selfOTR
		var rotated [][]*otr
		for v := range 4 {
			var ms []*selfOTR
			var os []*otr
			for p := range 4 {
				ms = append(ms, &selfOTR{x0: v, strict: strict})
				os = append(os, &otr{x: (v + p) % 4})
			}
			initial, rotated = append(initial, ms), append(rotated, os)
		}
		res, err := Explore(Model[*selfOTR]{Initial: initial, AbstractCounters: true})
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			r, err := Explore(Model[*otr]{Initial: rotated, AbstractCounters: true})
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, r)
		}
		if res.States != 294 || res.Transitions != 3194 || res.States != want[0].States || res.Transitions != want[0].Transitions {
			t.Errorf("strict %v: %d states, %d transitions; want 294, 3194 (otr: %d, %d)",
				strict, res.States, res.Transitions, want[0].States, want[0].Transitions)
		}
	}
}

// ctr is a machine with many process states: a process broadcasts its
// value and takes its value plus the sum of the values it heard,
// weighted by their senders, up to 80. Its states outnumber the 64 bits
// of a group of the packed index, so that a state's successors fall in
// several groups.
type ctr struct{ v int }

func (m *ctr) Rounds() []compho.Round {
	return []compho.Round{{Name: "CTR", Send: func(c *compho.Ctx) { c.Broadcast(m.v) },
		Update: func(c *compho.Ctx, mbox compho.Mailbox) {
			s := m.v
			for _, e := range mbox {
				s += (int(e.From) + 1) * e.Msg.(int)
			}
			m.v = min(s, 80)
		}}}
}

func (m *ctr) Halted() bool                           { return false }
func (m *ctr) Clone(cp *compho.Copier) compho.Machine { c := *m; return &c }
func (m *ctr) Key(k *compho.Key)                      { k.Int(int64(m.v)) }

// general is a network the search does not know: it enumerates its
// sets by calling its mode, and builds every successor's key.
type general struct{ Network }

// TestFastProductAgrees: the successors looked up by group in the packed
// index (any loss, DELIVER) are those the general product builds, in the
// same order (the invariant sees the same states in the same order, with
// one worker), and the same with two workers.
func TestFastProductAgrees(t *testing.T) {
	cases := []struct {
		n, steps int
		net      Network
		// states, transitions
		want [2]int
	}{
		{3, 2, AnyLoss(), [2]int{147864, 331603}},
		{3, 2, Deliver(2), [2]int{1430, 1975}},
		{2, 4, AnyLoss(), [2]int{6429, 25503}},
		{1, 8, AnyLoss(), [2]int{96, 153}},
	}
	for _, tc := range cases {
		// From 4 initial states; the phase counters are part of the
		// states.
		var initial [][]*ctr
		for i := range 4 {
			initial = append(initial, []*ctr{{i}, {2 * i}, {3*i + 1}}[:tc.n])
		}
		type run struct {
			res  *Result
			seen []int
		}
		var runs []run
		for _, nw := range []Network{tc.net, general{tc.net}} {
			for _, workers := range []int{1, 2} {
				var seen []int
				res, err := Explore(Model[*ctr]{Initial: initial, Network: nw, MaxSteps: tc.steps, Workers: workers,
					Invariants: []Invariant[*ctr]{{"record", func(v View[*ctr]) error {
						for _, m := range v.Procs {
							seen = append(seen, m.v)
						}
						return nil
					}}}})
				if err != nil {
					t.Fatal(err)
				}
				if workers == 2 {
					seen = nil
				}
				runs = append(runs, run{res, seen})
			}
		}
		for i, r := range runs {
			if r.res.States != tc.want[0] || r.res.Transitions != tc.want[1] || r.res.Depth != tc.steps || !r.res.Bounded {
				t.Errorf("n=%d, %s, run %d: %d states, %d transitions, depth %d, bounded %v; want %d, %d, %d, true",
					tc.n, tc.net.Name(), i, r.res.States, r.res.Transitions, r.res.Depth, r.res.Bounded, tc.want[0], tc.want[1], tc.steps)
			}
			if r.seen != nil && !slices.Equal(r.seen, runs[0].seen) {
				t.Errorf("n=%d, %s, run %d: the states are numbered differently", tc.n, tc.net.Name(), i)
			}
		}
	}
}
