package compho

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func (m *outerM) Clone(cp *Copier) Machine { return CopyPointee(cp, m) }
func (m *innerM) Clone(cp *Copier) Machine { return CopyPointee(cp, m) }

func (m *otr) Clone(cp *Copier) Machine { return CopyPointee(cp, m) }

// Key writes the algorithm variables of otr; phases counts phases only.
func (m *otr) Key(k *Key) {
	k.Int(int64(m.x))
	k.Bool(m.decided)
	k.Int(int64(m.decision))
	k.Bool(m.haltOnDecide)
	k.Int(int64(m.maxPhases))
	k.Bool(m.broken)
	Counter(k, &m.phases)
}

// TestSystemForkNested steps the machines of TestNested through a System,
// forking the whole state (Snapshot, then Assemble) after every step, in
// the middle of calls too: the positions are those of Run.
func TestSystemForkNested(t *testing.T) {
	procs := make([]Machine, 3)
	for i := range procs {
		o := &outerM{tm{names: []string{"O1", "O2"}, phases: 4}}
		o.call = func(c *Ctx) Machine {
			if c.Self() < 2 && c.Phase() == 0 && c.Round() == 0 {
				return &innerM{tm{names: []string{"I1", "I2"}, phases: 2}}
			}
			return nil
		}
		procs[i] = o
	}
	s, err := NewSystem(procs)
	if err != nil {
		t.Fatal(err)
	}
	trace := make([][]string, 3)
	for step := 0; !s.Done(); step++ {
		if step == 20 {
			t.Fatal("no end after 20 steps")
		}
		for p := range 3 {
			pos := s.Position(PID(p))
			e := fmt.Sprintf("%d:%s@%d", pos.Depth, pos.RoundName, pos.Phase)
			if pos.Waiting {
				e = "(" + e + ")"
			}
			trace[p] = append(trace[p], e)
		}
		cands, running, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for p := range 3 {
			if running[p] {
				if _, err := s.Update(PID(p), cands[p]); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := s.Finish(); err != nil {
			t.Fatal(err)
		}
		locals := make([]*Local, 3)
		for p := range locals {
			locals[p] = s.Snapshot(PID(p))
		}
		if s, err = Assemble(locals, step+1); err != nil {
			t.Fatal(err)
		}
	}
	checkTrace(t, trace, []string{
		"0:O1@0 1:I1@0 1:I2@0 1:I1@1 1:I2@1 0:O2@0 0:O1@1 0:O2@1 0:O1@2 0:O2@2 0:O1@3 0:O2@3",
		"0:O1@0 1:I1@0 1:I2@0 1:I1@1 1:I2@1 0:O2@0 0:O1@1 0:O2@1 0:O1@2 0:O2@2 0:O1@3 0:O2@3",
		"0:O1@0 (0:O2@0) (0:O2@0) (0:O2@0) (0:O2@0) 0:O2@0 0:O1@1 0:O2@1 0:O1@2 0:O2@2 0:O1@3 0:O2@3",
	})
}

// TestSystemReplace runs process 0's Update of OneThirdRule twice from
// the same state with different HO sets, and FinishOne: the outcomes are
// those of Run under the same HO sets.
func TestSystemReplace(t *testing.T) {
	procs := []Machine{&otr{x: 1}, &otr{x: 2}, &otr{x: 2}, &otr{x: 2}}
	s, err := NewSystem(procs)
	if err != nil {
		t.Fatal(err)
	}
	cands, _, err := s.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if want := SetOf(0, 1, 2, 3); cands[0] != want {
		t.Fatalf("candidates %b, want %b", cands[0], want)
	}
	start := s.Snapshot(0)
	var got []string
	for _, ho := range []Set{SetOf(0, 1, 2), SetOf(1, 2, 3), SetOf(0, 1)} {
		if err := s.Replace(0, start); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Update(0, ho); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishOne(0); err != nil {
			t.Fatal(err)
		}
		m := s.Root(0).(*otr)
		got = append(got, fmt.Sprintf("%v: x=%d decided=%v phase=%d", ho.PIDs(), m.x, m.decided, s.ex.procs[0].stack[0].phase))
	}
	want := "[0 1 2]: x=2 decided=false phase=1 " +
		"[1 2 3]: x=2 decided=true phase=1 " +
		"[0 1]: x=1 decided=false phase=1"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
	if start.Root().(*otr).x != 1 {
		t.Errorf("the snapshot changed")
	}
}

// TestKeyExact checks on every pair of small OneThirdRule states that
// their keys are equal exactly when the states are, with and without
// abstracting the phase counter.
func TestKeyExact(t *testing.T) {
	var states []otr
	for x := range 3 {
		for _, d := range []bool{false, true} {
			for v := range 3 {
				for ph := range 2 {
					for _, h := range []bool{false, true} {
						states = append(states, otr{x: x, decided: d, decision: v, phases: ph, haltOnDecide: h})
					}
				}
			}
		}
	}
	for _, abstract := range []bool{false, true} {
		pairs, equal := 0, 0
		for i := range states {
			for j := range states {
				a, b := states[i], states[j]
				ka, kb := Key{AbstractCounters: abstract}, Key{AbstractCounters: abstract}
				a.Key(&ka)
				b.Key(&kb)
				if abstract && (a.phases != 0 || b.phases != 0) {
					t.Fatalf("counters not reset: %d, %d", a.phases, b.phases)
				}
				pairs++
				if a == b {
					equal++
				}
				if got := bytes.Equal(ka.Bytes(), kb.Bytes()); got != (a == b) {
					t.Fatalf("abstract=%v: %+v and %+v: equal keys %v", abstract, a, b, got)
				}
			}
		}
		// 72 states; with the counter abstracted, each key is shared by
		// the 2 phases.
		want := 72
		if abstract {
			want = 72 * 2
		}
		if pairs != 72*72 || equal != want {
			t.Errorf("abstract=%v: %d pairs, %d equal; want %d, %d", abstract, pairs, equal, 72*72, want)
		}
	}
}

type env struct{ ch chan int }

type node struct{ vals map[string][]int }

// deep holds a function: a pointer to it would be shared, but CopyPointee
// copies it.
type deep struct {
	vals  map[string][]int
	msg   any
	next  *node
	alias *node
	net   *env
	f     func() int
}

// TestCopyOf checks that CopyOf copies data deeply, keeps the sharing
// between pointers, and shares the environment.
func TestCopyOf(t *testing.T) {
	e := &env{ch: make(chan int)}
	inner := &node{vals: map[string][]int{"a": {1}}}
	d := &deep{vals: map[string][]int{"x": {1, 2}}, msg: []int{3}, next: inner, alias: inner, net: e, f: func() int { return 7 }}
	c := CopyPointee(nil, d)
	c.vals["x"][0] = 9
	c.msg.([]int)[0] = 9
	c.next.vals["a"][0] = 9
	if d.vals["x"][0] != 1 || d.msg.([]int)[0] != 3 || inner.vals["a"][0] != 1 {
		t.Errorf("the copy shares data with the original")
	}
	if c.next != c.alias || c.next == inner {
		t.Errorf("sharing not preserved: next %p alias %p original %p", c.next, c.alias, inner)
	}
	if c.net != e || c.f() != 7 {
		t.Errorf("environment not shared")
	}
	var k1, k2 Key
	k1.Value(d)
	k2.Value(CopyOf(nil, d))
	if !bytes.Equal(k1.Bytes(), k2.Bytes()) {
		t.Errorf("a copy has another key")
	}
	k2.Reset()
	k2.Value(c)
	if bytes.Equal(k1.Bytes(), k2.Bytes()) {
		t.Errorf("a changed copy has the same key")
	}
}

// TestStarter: a process started alone by a Starter has the key and the
// stack of the same process started by NewSystem, also when its machine
// halts at its start; Start checks its arguments.
func TestStarter(t *testing.T) {
	st, err := NewStarter(3)
	if err != nil {
		t.Fatal(err)
	}
	mk := func() []Machine {
		return []Machine{&otr{x: 1, maxPhases: 2}, &otr{x: 2, decided: true, haltOnDecide: true}, &otr{x: 0, maxPhases: 3}}
	}
	sys, err := NewSystem(mk())
	if err != nil {
		t.Fatal(err)
	}
	for p, m := range mk() {
		one, err := st.Start(PID(p), m)
		if err != nil {
			t.Fatal(err)
		}
		var a, b Key
		if err := sys.Key(PID(p), &a); err != nil {
			t.Fatal(err)
		}
		if err := one.Key(PID(p), &b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("process %d: key %x, NewSystem's %x", p, b.Bytes(), a.Bytes())
		}
		if got, want := len(one.Snapshot(PID(p)).frames), len(sys.Stack(PID(p))); got != want || p == 1 && got != 0 {
			t.Errorf("process %d: %d frames, NewSystem's %d", p, got, want)
		}
	}
	if _, err := st.Start(3, &otr{}); err == nil || err.Error() != "compho: Start of process 3 of 3" {
		t.Errorf("Start(3): %v", err)
	}
	if _, err := st.Start(0, nil); err == nil || err.Error() != "compho: process 0: nil machine" {
		t.Errorf("Start(nil): %v", err)
	}
	if _, err := NewStarter(0); err == nil {
		t.Error("NewStarter(0): no error")
	}
}
