package compho

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// tm is a configurable test machine. Every round broadcasts the sender's
// view of its own position; every Update logs what it heard.
type tm struct {
	names  []string
	phases int // halted after this many phases
	// call, if not nil, is consulted by every Update; a non-nil result is
	// called.
	call func(c *Ctx) Machine
	log  *[]string

	completed int
	inits     int
}

func (m *tm) Init(c *Ctx) { m.inits++ }

func (m *tm) Halted() bool { return m.completed >= m.phases }

func (m *tm) rounds(self Machine) []Round {
	rs := make([]Round, len(m.names))
	for i, name := range m.names {
		rs[i] = Round{
			Name: name,
			Send: func(c *Ctx) {
				c.Broadcast(fmt.Sprintf("%T/%d/%d", self, c.Phase(), c.Round()))
			},
			Update: func(c *Ctx, mbox Mailbox) {
				if m.log != nil {
					*m.log = append(*m.log, fmt.Sprintf("%d p%d %s@%d %v", c.Step(), c.Self(), name, c.Phase(), mbox.Senders()))
				}
				if i == len(m.names)-1 {
					m.completed = c.Phase() + 1
				}
				if m.call != nil {
					if x := m.call(c); x != nil {
						c.Call(x)
					}
				}
			},
		}
	}
	return rs
}

type outerM struct{ tm }
type innerM struct{ tm }
type deepM struct{ tm }

func (m *outerM) Rounds() []Round { return m.rounds(m) }
func (m *innerM) Rounds() []Round { return m.rounds(m) }
func (m *deepM) Rounds() []Round  { return m.rounds(m) }

// positions is an observer recording "depth:round@phase" (or "-" for a
// finished process) for every process and step.
func positions[M Machine](trace *[][]string) Observer[M] {
	return func(s Step, ps []M) error {
		for p := range ps {
			pos := s.Position(PID(p))
			e := "-"
			if !pos.Halted {
				e = fmt.Sprintf("%d:%s@%d", pos.Depth, pos.RoundName, pos.Phase)
			}
			for len(*trace) <= p {
				*trace = append(*trace, nil)
			}
			(*trace)[p] = append((*trace)[p], e)
		}
		return nil
	}
}

func checkTrace(t *testing.T, got [][]string, want []string) {
	t.Helper()
	for p := range max(len(got), len(want)) {
		var g, w string
		if p < len(got) {
			g = strings.Join(got[p], " ")
		}
		if p < len(want) {
			w = want[p]
		}
		if g != w {
			t.Errorf("process %d positions:\n got %s\nwant %s", p, g, w)
		}
	}
}

func TestNested(t *testing.T) {
	// Processes 0 and 1 call a 2-phase inner machine from the Update of
	// round O1 of phase 0; process 2 does not.
	var log []string
	procs := make([]*outerM, 3)
	for i := range procs {
		procs[i] = &outerM{tm{names: []string{"O1", "O2"}, phases: 4, log: &log}}
	}
	var inners []*innerM
	for _, p := range procs {
		p.call = func(c *Ctx) Machine {
			if c.Self() < 2 && c.Phase() == 0 && c.Round() == 0 {
				in := &innerM{tm{names: []string{"I1", "I2"}, phases: 2, log: &log}}
				inners = append(inners, in)
				return in
			}
			return nil
		}
	}
	var trace [][]string
	res, err := Run(procs, Config[*outerM]{Observers: []Observer[*outerM]{positions[*outerM](&trace)}})
	if err != nil {
		t.Fatal(err)
	}
	checkTrace(t, trace, []string{
		"0:O1@0 1:I1@0 1:I2@0 1:I1@1 1:I2@1 0:O2@0 0:O1@1 0:O2@1 0:O1@2 0:O2@2 0:O1@3 0:O2@3",
		"0:O1@0 1:I1@0 1:I2@0 1:I1@1 1:I2@1 0:O2@0 0:O1@1 0:O2@1 0:O1@2 0:O2@2 0:O1@3 0:O2@3",
		"0:O1@0 0:O2@0 0:O1@1 0:O2@1 0:O1@2 0:O2@2 0:O1@3 0:O2@3 - - - -",
	})
	if res.Steps != 12 {
		t.Errorf("Steps = %d, want 12", res.Steps)
	}
	for _, m := range procs {
		if m.inits != 1 {
			t.Errorf("outer Init called %d times", m.inits)
		}
	}
	if len(inners) != 2 || inners[0].inits != 1 || inners[1].inits != 1 {
		t.Errorf("inner machines: %d, want 2 initialized once", len(inners))
	}
	// Messages are only delivered between processes at the same
	// position: never between process 2 and the others after step 0,
	// even at step 5 where all execute O2 (in different phases).
	wantLog := []string{
		"0 p0 O1@0 [0 1 2]", "0 p1 O1@0 [0 1 2]", "0 p2 O1@0 [0 1 2]",
		"1 p0 I1@0 [0 1]", "1 p1 I1@0 [0 1]", "1 p2 O2@0 [2]",
		"2 p0 I2@0 [0 1]", "2 p1 I2@0 [0 1]", "2 p2 O1@1 [2]",
		"3 p0 I1@1 [0 1]", "3 p1 I1@1 [0 1]", "3 p2 O2@1 [2]",
		"4 p0 I2@1 [0 1]", "4 p1 I2@1 [0 1]", "4 p2 O1@2 [2]",
		"5 p0 O2@0 [0 1]", "5 p1 O2@0 [0 1]", "5 p2 O2@2 [2]",
		"6 p0 O1@1 [0 1]", "6 p1 O1@1 [0 1]", "6 p2 O1@3 [2]",
		"7 p0 O2@1 [0 1]", "7 p1 O2@1 [0 1]", "7 p2 O2@3 [2]",
		"8 p0 O1@2 [0 1]", "8 p1 O1@2 [0 1]",
		"9 p0 O2@2 [0 1]", "9 p1 O2@2 [0 1]",
		"10 p0 O1@3 [0 1]", "10 p1 O1@3 [0 1]",
		"11 p0 O2@3 [0 1]", "11 p1 O2@3 [0 1]",
	}
	if !slices.Equal(log, wantLog) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(wantLog, "\n"))
	}
	// 3 processes broadcast to 3 in steps 0-7, 2 in steps 8-11.
	if want := 8*9 + 4*6; res.Sent != want {
		t.Errorf("Sent = %d, want %d", res.Sent, want)
	}
	if want := 9 + 7*5 + 4*4; res.Delivered != want {
		t.Errorf("Delivered = %d, want %d", res.Delivered, want)
	}
}

func TestNestedSamePositionDifferentCaller(t *testing.T) {
	// Process 0 calls Inner from O1, process 1 from O2; process 0's Inner
	// calls Deep in its phase 0, which delays it by one step. In steps 3
	// and 4 both execute Inner's round I in the same phase, but their
	// outer machines are at different positions: a communication-closed
	// implementation tags inner messages with the outer tags as well, so
	// the messages are not delivered.
	var log []string
	procs := []*outerM{
		{tm{names: []string{"O1", "O2"}, phases: 2, log: &log}},
		{tm{names: []string{"O1", "O2"}, phases: 2, log: &log}},
	}
	for _, p := range procs {
		p.call = func(c *Ctx) Machine {
			if c.Phase() != 0 || c.Round() != int(c.Self()) {
				return nil
			}
			in := &innerM{tm{names: []string{"I"}, phases: 3, log: &log}}
			if c.Self() == 0 {
				in.call = func(c *Ctx) Machine {
					if c.Phase() == 0 {
						return &deepM{tm{names: []string{"D"}, phases: 1, log: &log}}
					}
					return nil
				}
			}
			return in
		}
	}
	var trace [][]string
	res, err := Run(procs, Config[*outerM]{Observers: []Observer[*outerM]{positions[*outerM](&trace)}})
	if err != nil {
		t.Fatal(err)
	}
	checkTrace(t, trace, []string{
		"0:O1@0 1:I@0 2:D@0 1:I@1 1:I@2 0:O2@0 0:O1@1 0:O2@1",
		"0:O1@0 0:O2@0 1:I@0 1:I@1 1:I@2 0:O1@1 0:O2@1 -",
	})
	if res.Steps != 8 {
		t.Errorf("Steps = %d, want 8", res.Steps)
	}
	wantLog := []string{
		"0 p0 O1@0 [0 1]", "0 p1 O1@0 [0 1]",
		"1 p0 I@0 [0]", "1 p1 O2@0 [1]",
		"2 p0 D@0 [0]", "2 p1 I@0 [1]",
		"3 p0 I@1 [0]", "3 p1 I@1 [1]",
		"4 p0 I@2 [0]", "4 p1 I@2 [1]",
		"5 p0 O2@0 [0]", "5 p1 O1@1 [1]",
		"6 p0 O1@1 [0]", "6 p1 O2@1 [1]",
		"7 p0 O2@1 [0]",
	}
	if !slices.Equal(log, wantLog) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(wantLog, "\n"))
	}
}

func TestCallHaltedMachineReturnsAtOnce(t *testing.T) {
	var deep *deepM
	procs := []*outerM{{tm{names: []string{"O1", "O2"}, phases: 1}}}
	procs[0].call = func(c *Ctx) Machine {
		if c.Round() == 0 {
			deep = &deepM{tm{names: []string{"D"}, phases: 0}}
			return deep
		}
		return nil
	}
	var trace [][]string
	res, err := Run(procs, Config[*outerM]{Observers: []Observer[*outerM]{positions[*outerM](&trace)}})
	if err != nil {
		t.Fatal(err)
	}
	checkTrace(t, trace, []string{"0:O1@0 0:O2@0"})
	if res.Steps != 2 || deep.inits != 1 {
		t.Errorf("Steps = %d, Init calls = %d; want 2, 1", res.Steps, deep.inits)
	}
}

func TestCallAndHaltInSameUpdate(t *testing.T) {
	// The last Update of the outer machine's only phase calls an inner
	// machine: the outer machine is checked for Halted only when the
	// inner one returns.
	procs := []*outerM{{tm{names: []string{"O"}, phases: 1}}}
	procs[0].call = func(c *Ctx) Machine {
		return &innerM{tm{names: []string{"I"}, phases: 2}}
	}
	var trace [][]string
	if _, err := Run(procs, Config[*outerM]{Observers: []Observer[*outerM]{positions[*outerM](&trace)}}); err != nil {
		t.Fatal(err)
	}
	checkTrace(t, trace, []string{"0:O@0 1:I@0 1:I@1"})
}

func TestHaltedRootNeverRuns(t *testing.T) {
	procs := []*outerM{
		{tm{names: []string{"O"}, phases: 0}},
		{tm{names: []string{"O"}, phases: 1}},
	}
	var log []string
	procs[1].log = &log
	res, err := Run(procs, Config[*outerM]{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{Steps: 1, Sent: 2, Delivered: 1}); res != want {
		t.Errorf("Result = %+v, want %+v", res, want)
	}
	if !slices.Equal(log, []string{"0 p1 O@0 [1]"}) {
		t.Errorf("log = %q", log)
	}
	if procs[0].inits != 1 {
		t.Errorf("Init of halted root called %d times, want 1", procs[0].inits)
	}
}
