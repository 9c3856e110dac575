package compho

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// jumper is a Tagger of two rounds per phase, A and B: each process
// broadcasts its tag in every round and logs what it heard; a process
// listed in jumps leaves round B of the given phase for the phase named
// there (a jump over the phases in between), and the machines halt at
// phase last.
type jumper struct {
	phase, round int
	last         int
	jumps        map[int]int // phase -> phase it jumps to from its round B
	log          []string
	stay         bool // never increase the phase
}

func (m *jumper) Tag() Tag { return Tag{m.phase} }

func (m *jumper) Halted() bool { return m.phase >= m.last }

func (m *jumper) Rounds() []Round {
	r := func(name string) Round {
		return Round{
			Name: name,
			Send: func(c *Ctx) { c.Broadcast(fmt.Sprintf("%d %s", m.phase, name)) },
			Update: func(c *Ctx, mb Mailbox) {
				var heard []string
				for _, e := range mb {
					heard = append(heard, fmt.Sprintf("%d:%v", e.From, e.Msg))
				}
				m.log = append(m.log, fmt.Sprintf("s%d %d%s[%s]", c.Step(), m.phase, name, strings.Join(heard, " ")))
				switch {
				case m.round == 0:
					m.round = 1
				default:
					m.round = 0
					if to, ok := m.jumps[m.phase]; ok {
						m.phase = to
					} else if !m.stay {
						m.phase++
					}
				}
			},
		}
	}
	return []Round{r("A"), r("B")}
}

// TestTaggerJump checks the tag-aligned lock step: process 1 jumps from
// phase 0 to phase 3 and is idle (sends nothing, runs no update) in
// phases 1 and 2; process 2 jumps from phase 1 to phase 2, which the
// others reach anyway. Every message is delivered only between processes
// at the same tag.
func TestTaggerJump(t *testing.T) {
	ms := []*jumper{
		{last: 4},
		{last: 4, jumps: map[int]int{0: 3}},
		{last: 4, jumps: map[int]int{1: 2}},
	}
	var idle []string
	obs := func(s Step, _ []*jumper) error {
		for p := range PID(3) {
			if s.Position(p).Idle {
				idle = append(idle, fmt.Sprintf("s%d:%d%v", s.Index, p, s.Tag(p)))
			}
		}
		return nil
	}
	res, err := Run(ms, Config[*jumper]{Observers: []Observer[*jumper]{obs}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"s0 0A[0:0 A 1:0 A 2:0 A]", "s1 0B[0:0 B 1:0 B 2:0 B]", "s2 1A[0:1 A 2:1 A]", "s3 1B[0:1 B 2:1 B]",
			"s4 2A[0:2 A 2:2 A]", "s5 2B[0:2 B 2:2 B]", "s6 3A[0:3 A 1:3 A 2:3 A]", "s7 3B[0:3 B 1:3 B 2:3 B]"},
		{"s0 0A[0:0 A 1:0 A 2:0 A]", "s1 0B[0:0 B 1:0 B 2:0 B]", "s6 3A[0:3 A 1:3 A 2:3 A]", "s7 3B[0:3 B 1:3 B 2:3 B]"},
		{"s0 0A[0:0 A 1:0 A 2:0 A]", "s1 0B[0:0 B 1:0 B 2:0 B]", "s2 1A[0:1 A 2:1 A]", "s3 1B[0:1 B 2:1 B]",
			"s4 2A[0:2 A 2:2 A]", "s5 2B[0:2 B 2:2 B]", "s6 3A[0:3 A 1:3 A 2:3 A]", "s7 3B[0:3 B 1:3 B 2:3 B]"},
	}
	for p, m := range ms {
		if !slices.Equal(m.log, want[p]) {
			t.Errorf("process %d heard\n%q\nwant\n%q", p, m.log, want[p])
		}
	}
	// Observers see the positions of the step that ran: process 1, at
	// (3,0), is idle in steps 2 to 5.
	wantIdle := []string{"s2:1(3,0)", "s3:1(3,0)", "s4:1(3,0)", "s5:1(3,0)"}
	if !slices.Equal(idle, wantIdle) {
		t.Errorf("idle %q, want %q", idle, wantIdle)
	}
	// Sent counts the messages to idle processes too, which are not delivered.
	if res != (Result{Steps: 8, Sent: 60, Delivered: 52}) {
		t.Errorf("result %+v", res)
	}
}

// TestTaggerJumpLeapfrog checks that the processes that jumped and the
// processes that did not meet again: process 0 jumps from phase 0 to 2,
// and process 1 from phase 1 (which it runs alone with process 2) to 3;
// the lowest tag always runs, so no step is empty.
func TestTaggerJumpLeapfrog(t *testing.T) {
	ms := []*jumper{
		{last: 4, jumps: map[int]int{0: 2}},
		{last: 4, jumps: map[int]int{1: 3}},
		{last: 4},
	}
	res, err := Run(ms, Config[*jumper]{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"s0 0A[0:0 A 1:0 A 2:0 A]", "s1 0B[0:0 B 1:0 B 2:0 B]", "s4 2A[0:2 A 2:2 A]", "s5 2B[0:2 B 2:2 B]",
			"s6 3A[0:3 A 1:3 A 2:3 A]", "s7 3B[0:3 B 1:3 B 2:3 B]"},
		{"s0 0A[0:0 A 1:0 A 2:0 A]", "s1 0B[0:0 B 1:0 B 2:0 B]", "s2 1A[1:1 A 2:1 A]", "s3 1B[1:1 B 2:1 B]",
			"s6 3A[0:3 A 1:3 A 2:3 A]", "s7 3B[0:3 B 1:3 B 2:3 B]"},
		{"s0 0A[0:0 A 1:0 A 2:0 A]", "s1 0B[0:0 B 1:0 B 2:0 B]", "s2 1A[1:1 A 2:1 A]", "s3 1B[1:1 B 2:1 B]",
			"s4 2A[0:2 A 2:2 A]", "s5 2B[0:2 B 2:2 B]", "s6 3A[0:3 A 1:3 A 2:3 A]", "s7 3B[0:3 B 1:3 B 2:3 B]"},
	}
	for p, m := range ms {
		if !slices.Equal(m.log, want[p]) {
			t.Errorf("process %d heard\n%q\nwant\n%q", p, m.log, want[p])
		}
	}
	if res.Steps != 8 {
		t.Errorf("%d steps, want 8", res.Steps)
	}
}

func TestTaggerErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *jumper
		want string
	}{
		{"phase kept", &jumper{last: 2, stay: true},
			`compho: step 1: process 1: *compho.jumper phase 0 round 1 ("B") Update: tag (0,0) after the Update, not greater than (0,1) before it (condition I: a tag only increases; the phase must increase when the round table starts again)`},
	} {
		_, err := Run([]*jumper{{last: 2}, tc.m}, Config[*jumper]{})
		var pe *ProtocolError
		if !errors.As(err, &pe) || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.want)
		}
	}
	caller := once(Round{Name: "C", Update: func(c *Ctx, _ Mailbox) { c.Call(&jumper{last: 1}) }})
	_, err := Run([]Machine{caller}, Config[Machine]{})
	if err == nil || err.Error() != `compho: step 0: process 0: *compho.jumper phase 0 round 0 ("A") Call: a Tagger is called; machines aligned by tag are root machines` {
		t.Errorf("Tagger called: %v", err)
	}
}

// TestTaggerByIteration checks that Config.ByIteration runs Taggers as
// other machines: process 1, which jumps from phase 0 to phase 3, runs
// every step, in the pass the others are in, and hears them.
// A System runs them so too, whatever its HO sets.
func TestTaggerByIteration(t *testing.T) {
	ms := []*jumper{{last: 4}, {last: 4, jumps: map[int]int{0: 3}}, {last: 4}}
	if _, err := Run(ms, Config[*jumper]{ByIteration: true}); err != nil {
		t.Fatal(err)
	}
	want := []string{"s0 0A[0:0 A 1:0 A 2:0 A]", "s1 0B[0:0 B 1:0 B 2:0 B]", "s2 3A[0:1 A 1:3 A 2:1 A]", "s3 3B[0:1 B 1:3 B 2:1 B]"}
	if !slices.Equal(ms[1].log, want) {
		t.Errorf("process 1 heard\n%q\nwant\n%q", ms[1].log, want)
	}
	sm := []*jumper{{last: 4}, {last: 4, jumps: map[int]int{0: 3}}, {last: 4}}
	sys, err := NewSystem([]Machine{sm[0], sm[1], sm[2]})
	if err != nil {
		t.Fatal(err)
	}
	for !sys.Done() {
		_, running, err := sys.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for p, r := range running {
			if r {
				if _, err := sys.Update(PID(p), SetOf(0, 1, 2)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := sys.Finish(); err != nil {
			t.Fatal(err)
		}
	}
	for p := range sm {
		if !slices.Equal(sm[p].log, ms[p].log) {
			t.Errorf("process %d: System %q, Run %q", p, sm[p].log, ms[p].log)
		}
	}
}

// TestConfigStart checks that Config.Start sees the machines once, after
// their Inits and before the first step.
func TestConfigStart(t *testing.T) {
	var seen []string
	m := &fm{rs: []Round{{Name: "R"}}}
	inited := false
	m.init = func(*Ctx) { inited = true }
	m.halted = func() bool { return len(seen) > 1 }
	_, err := Run([]*fm{m}, Config[*fm]{
		Start: func(s Step, _ []*fm) error {
			seen = append(seen, fmt.Sprintf("start %d %v", s.Index, inited))
			return nil
		},
		Observers: []Observer[*fm]{func(s Step, _ []*fm) error { seen = append(seen, fmt.Sprintf("step %d", s.Index)); return nil }},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"start 0 true", "step 0", "step 1"}; !slices.Equal(seen, want) {
		t.Errorf("seen %q, want %q", seen, want)
	}
	_, err = Run([]*fm{{rs: []Round{{Name: "R"}}}}, Config[*fm]{Start: func(Step, []*fm) error { return errors.New("no") }})
	if err == nil || err.Error() != "compho: start: no" {
		t.Errorf("Start error: %v", err)
	}
}
