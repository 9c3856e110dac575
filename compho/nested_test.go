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
// finished process, and in parentheses for a waiting one) for every
// process and step.
func positions[M Machine](trace *[][]string) Observer[M] {
	return func(s Step, ps []M) error {
		for p := range ps {
			pos := s.Position(PID(p))
			e := "-"
			if !pos.Halted {
				e = fmt.Sprintf("%d:%s@%d", pos.Depth, pos.RoundName, pos.Phase)
				if pos.Waiting {
					e = "(" + e + ")"
				}
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
	// round O1 of phase 0; process 2 does not, and waits (stutters) until
	// the call returns: the INIT and RETURN rules of Fig. 3, where the
	// called machine runs with the callers active and then the caller's
	// next round starts for all.
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
		"0:O1@0 (0:O2@0) (0:O2@0) (0:O2@0) (0:O2@0) 0:O2@0 0:O1@1 0:O2@1 0:O1@2 0:O2@2 0:O1@3 0:O2@3",
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
	// The waiting process 2 neither sends nor receives in steps 1-4.
	wantLog := []string{
		"0 p0 O1@0 [0 1 2]", "0 p1 O1@0 [0 1 2]", "0 p2 O1@0 [0 1 2]",
		"1 p0 I1@0 [0 1]", "1 p1 I1@0 [0 1]",
		"2 p0 I2@0 [0 1]", "2 p1 I2@0 [0 1]",
		"3 p0 I1@1 [0 1]", "3 p1 I1@1 [0 1]",
		"4 p0 I2@1 [0 1]", "4 p1 I2@1 [0 1]",
	}
	for s := 5; s < 12; s++ {
		for p := range 3 {
			wantLog = append(wantLog, fmt.Sprintf("%d p%d O%d@%d [0 1 2]", s, p, 1+s%2, (s-4)/2))
		}
	}
	if !slices.Equal(log, wantLog) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(wantLog, "\n"))
	}
	// 3 processes broadcast to 3 in steps 0 and 5-11, 2 in steps 1-4.
	if want := 8*9 + 4*6; res.Sent != want {
		t.Errorf("Sent = %d, want %d", res.Sent, want)
	}
	if want := 8*9 + 4*4; res.Delivered != want {
		t.Errorf("Delivered = %d, want %d", res.Delivered, want)
	}
}

// retLog is an outer machine that logs its Returned calls.
type retLog struct {
	outerM
	returns *[]string
}

func (m *retLog) Returned(c *Ctx, nested Machine) {
	*m.returns = append(*m.returns, fmt.Sprintf("%d p%d %T", c.Step(), c.Self(), nested))
}

func TestReturnBarrier(t *testing.T) {
	// Processes 0-2 call the inner machine in step 0, which halts after 1,
	// 3 and 2 phases of one round; process 3 does not call. Processes 0
	// and 2 wait, silent, for process 1; all four resume together in step
	// 4, the callers told in step 3, in PID order.
	var log, returns []string
	procs := make([]*retLog, 4)
	for i := range procs {
		procs[i] = &retLog{outerM{tm{names: []string{"O1", "O2"}, phases: 1, log: &log}}, &returns}
		procs[i].call = func(c *Ctx) Machine {
			if c.Self() < 3 && c.Step() == 0 {
				return &innerM{tm{names: []string{"I"}, phases: []int{1, 3, 2}[c.Self()], log: &log}}
			}
			return nil
		}
	}
	var trace [][]string
	res, err := Run(procs, Config[*retLog]{Observers: []Observer[*retLog]{positions[*retLog](&trace)}})
	if err != nil {
		t.Fatal(err)
	}
	checkTrace(t, trace, []string{
		"0:O1@0 1:I@0 (1:I@1) (1:I@1) 0:O2@0",
		"0:O1@0 1:I@0 1:I@1 1:I@2 0:O2@0",
		"0:O1@0 1:I@0 1:I@1 (1:I@2) 0:O2@0",
		"0:O1@0 (0:O2@0) (0:O2@0) (0:O2@0) 0:O2@0",
	})
	wantLog := []string{
		"0 p0 O1@0 [0 1 2 3]", "0 p1 O1@0 [0 1 2 3]", "0 p2 O1@0 [0 1 2 3]", "0 p3 O1@0 [0 1 2 3]",
		"1 p0 I@0 [0 1 2]", "1 p1 I@0 [0 1 2]", "1 p2 I@0 [0 1 2]",
		"2 p1 I@1 [1 2]", "2 p2 I@1 [1 2]",
		"3 p1 I@2 [1]",
		"4 p0 O2@0 [0 1 2 3]", "4 p1 O2@0 [0 1 2 3]", "4 p2 O2@0 [0 1 2 3]", "4 p3 O2@0 [0 1 2 3]",
	}
	if !slices.Equal(log, wantLog) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(wantLog, "\n"))
	}
	wantReturns := []string{"3 p0 *compho.innerM", "3 p1 *compho.innerM", "3 p2 *compho.innerM"}
	if !slices.Equal(returns, wantReturns) {
		t.Errorf("returns %q, want %q", returns, wantReturns)
	}
	// Broadcasts reach the waiting processes too, which do not receive
	// them.
	if want := (Result{Steps: 5, Sent: 16 + 12 + 8 + 4 + 16, Delivered: 16 + 9 + 4 + 1 + 16}); res != want {
		t.Errorf("Result = %+v, want %+v", res, want)
	}
}

func TestReturnBarrierNested(t *testing.T) {
	// Processes 0 and 1 call Inner (2 phases of one round) in step 0. In
	// Inner's phase 0, process 0 calls Deep (2 phases) and process 1
	// waits for it inside Inner; process 2 waits in the outer machine all
	// along. Deep returns at the end of step 3; process 1's Inner halts
	// in step 4, process 0's in step 5 (its Inner's phase 1 starts after
	// Deep): Inner returns at the end of step 5.
	var log, returns []string
	procs := make([]*retLog, 3)
	for i := range procs {
		procs[i] = &retLog{outerM{tm{names: []string{"O"}, phases: 2, log: &log}}, &returns}
		procs[i].call = func(c *Ctx) Machine {
			if c.Self() == 2 || c.Step() != 0 {
				return nil
			}
			in := &innerM{tm{names: []string{"I"}, phases: 2, log: &log}}
			in.call = func(c *Ctx) Machine {
				if c.Self() == 0 && c.Phase() == 0 {
					return &deepM{tm{names: []string{"D"}, phases: 2, log: &log}}
				}
				return nil
			}
			return in
		}
	}
	var trace [][]string
	if _, err := Run(procs, Config[*retLog]{Observers: []Observer[*retLog]{positions[*retLog](&trace)}}); err != nil {
		t.Fatal(err)
	}
	checkTrace(t, trace, []string{
		"0:O@0 1:I@0 2:D@0 2:D@1 1:I@1 0:O@1",
		"0:O@0 1:I@0 (1:I@1) (1:I@1) 1:I@1 0:O@1",
		"0:O@0 (0:O@1) (0:O@1) (0:O@1) (0:O@1) 0:O@1",
	})
	wantLog := []string{
		"0 p0 O@0 [0 1 2]", "0 p1 O@0 [0 1 2]", "0 p2 O@0 [0 1 2]",
		"1 p0 I@0 [0 1]", "1 p1 I@0 [0 1]",
		"2 p0 D@0 [0]",
		"3 p0 D@1 [0]",
		"4 p0 I@1 [0 1]", "4 p1 I@1 [0 1]",
		"5 p0 O@1 [0 1 2]", "5 p1 O@1 [0 1 2]", "5 p2 O@1 [0 1 2]",
	}
	if !slices.Equal(log, wantLog) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(wantLog, "\n"))
	}
	// Inner has no Returned; the outer machines are told once, in step 4.
	wantReturns := []string{"4 p0 *compho.innerM", "4 p1 *compho.innerM"}
	if !slices.Equal(returns, wantReturns) {
		t.Errorf("returns %q, want %q", returns, wantReturns)
	}
}

func TestHaltWhileOthersCall(t *testing.T) {
	// Processes 0 and 1 call Inner in step 0. In step 1, process 0's
	// Inner calls Deep (1 phase) while process 1's Inner halts: process 1
	// is not a member of the Deep call, it waits for the Inner call. Deep
	// returns at the end of step 2, process 0's Inner halts in step 3, and
	// Inner returns then.
	var log, returns []string
	procs := make([]*retLog, 2)
	for i := range procs {
		procs[i] = &retLog{outerM{tm{names: []string{"O"}, phases: 2, log: &log}}, &returns}
		procs[i].call = func(c *Ctx) Machine {
			if c.Step() != 0 {
				return nil
			}
			in := &innerM{tm{names: []string{"I"}, phases: []int{2, 1}[c.Self()], log: &log}}
			in.call = func(c *Ctx) Machine {
				if c.Self() == 0 && c.Phase() == 0 {
					return &deepM{tm{names: []string{"D"}, phases: 1, log: &log}}
				}
				return nil
			}
			return in
		}
	}
	var trace [][]string
	if _, err := Run(procs, Config[*retLog]{Observers: []Observer[*retLog]{positions[*retLog](&trace)}}); err != nil {
		t.Fatal(err)
	}
	checkTrace(t, trace, []string{
		"0:O@0 1:I@0 2:D@0 1:I@1 0:O@1",
		"0:O@0 1:I@0 (1:I@1) (1:I@1) 0:O@1",
	})
	wantReturns := []string{"3 p0 *compho.innerM", "3 p1 *compho.innerM"}
	if !slices.Equal(returns, wantReturns) {
		t.Errorf("returns %q, want %q", returns, wantReturns)
	}
}

func TestTwoMachinesOneCall(t *testing.T) {
	// In step 0, process 0 calls Inner (3 phases), process 1 Deep (1
	// phase), and process 2 Deep halted at its start. They are one call:
	// the two machines run side by side, at different positions, so
	// processes 0 and 1 never hear of each other, and processes 1 and 2
	// wait for process 0. The three return together at the end of step 3.
	var log, returns []string
	procs := make([]*retLog, 3)
	for i := range procs {
		procs[i] = &retLog{outerM{tm{names: []string{"O"}, phases: 2, log: &log}}, &returns}
		procs[i].call = func(c *Ctx) Machine {
			if c.Step() != 0 {
				return nil
			}
			switch c.Self() {
			case 0:
				return &innerM{tm{names: []string{"I"}, phases: 3, log: &log}}
			case 1:
				return &deepM{tm{names: []string{"D"}, phases: 1, log: &log}}
			}
			return &deepM{tm{names: []string{"D"}, phases: 0, log: &log}}
		}
	}
	var trace [][]string
	if _, err := Run(procs, Config[*retLog]{Observers: []Observer[*retLog]{positions[*retLog](&trace)}}); err != nil {
		t.Fatal(err)
	}
	checkTrace(t, trace, []string{
		"0:O@0 1:I@0 1:I@1 1:I@2 0:O@1",
		"0:O@0 1:D@0 (1:D@1) (1:D@1) 0:O@1",
		"0:O@0 (1:D@0) (1:D@0) (1:D@0) 0:O@1",
	})
	wantLog := []string{
		"0 p0 O@0 [0 1 2]", "0 p1 O@0 [0 1 2]", "0 p2 O@0 [0 1 2]",
		"1 p0 I@0 [0]", "1 p1 D@0 [1]",
		"2 p0 I@1 [0]",
		"3 p0 I@2 [0]",
		"4 p0 O@1 [0 1 2]", "4 p1 O@1 [0 1 2]", "4 p2 O@1 [0 1 2]",
	}
	if !slices.Equal(log, wantLog) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(wantLog, "\n"))
	}
	wantReturns := []string{"3 p0 *compho.innerM", "3 p1 *compho.deepM", "3 p2 *compho.deepM"}
	if !slices.Equal(returns, wantReturns) {
		t.Errorf("returns %q, want %q", returns, wantReturns)
	}
}

func TestReturnBarrierNeverHalts(t *testing.T) {
	// Process 1's called machine never halts: process 0, whose machine
	// halted, and process 2, which did not call, wait until the step
	// bound.
	procs := make([]*outerM, 3)
	for i := range procs {
		procs[i] = &outerM{tm{names: []string{"O"}, phases: 2}}
		procs[i].call = func(c *Ctx) Machine {
			if c.Self() < 2 && c.Step() == 0 {
				return &innerM{tm{names: []string{"I"}, phases: []int{1, 1 << 30}[c.Self()]}}
			}
			return nil
		}
	}
	var trace [][]string
	res, err := Run(procs, Config[*outerM]{MaxSteps: 4, Observers: []Observer[*outerM]{positions[*outerM](&trace)}})
	if err != ErrMaxSteps || res.Steps != 4 {
		t.Fatalf("Run: %+v, %v; want 4 steps and ErrMaxSteps", res, err)
	}
	checkTrace(t, trace, []string{
		"0:O@0 1:I@0 (1:I@1) (1:I@1)",
		"0:O@0 1:I@0 1:I@1 1:I@2",
		"0:O@0 (0:O@1) (0:O@1) (0:O@1)",
	})
}

func TestStepStack(t *testing.T) {
	// The stacks seen by the adversary (before the updates) and by the
	// observers of a step are those the processes executed the step with;
	// the caller's frame is at the round that called (O1), while process
	// 1 waits at O2.
	procs := []*outerM{{tm{names: []string{"O1", "O2"}, phases: 1}}, {tm{names: []string{"O1", "O2"}, phases: 1}}}
	procs[0].call = func(c *Ctx) Machine {
		if c.Step() == 0 {
			return &innerM{tm{names: []string{"I"}, phases: 1}}
		}
		return nil
	}
	str := func(s Step, p PID) string {
		var parts []string
		for _, pos := range s.Stack(p) {
			parts = append(parts, fmt.Sprintf("%d.%d", pos.Phase, pos.Round))
		}
		return strings.Join(parts, "/")
	}
	var seen []string
	adv := adversaryFunc(func(s Step, p PID, senders []PID) []PID {
		seen = append(seen, fmt.Sprintf("adv %d p%d %s", s.Index, p, str(s, p)))
		return senders
	})
	obs := func(s Step, _ []*outerM) error {
		seen = append(seen, fmt.Sprintf("obs %d %s %s %q", s.Index, str(s, 0), str(s, 1), str(s, 2)))
		return nil
	}
	if _, err := Run(procs, Config[*outerM]{Adversary: adv, Observers: []Observer[*outerM]{obs}}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"adv 0 p0 0.0", "adv 0 p1 0.0", "obs 0 0.0 0.0 \"\"",
		"adv 1 p0 0.0/0.0", "obs 1 0.0/0.0 0.1 \"\"",
		"adv 2 p0 0.1", "adv 2 p1 0.1", "obs 2 0.1 0.1 \"\"",
	}
	if !slices.Equal(seen, want) {
		t.Errorf("seen:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}

type adversaryFunc func(s Step, p PID, senders []PID) []PID

func (f adversaryFunc) HeardOf(s Step, p PID, senders []PID) []PID { return f(s, p, senders) }

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
