package compho

import (
	"errors"
	"slices"
	"testing"
)

// fm is a machine made of functions.
type fm struct {
	rs     []Round
	init   func(c *Ctx)
	halted func() bool
}

func (m *fm) Rounds() []Round { return m.rs }
func (m *fm) Halted() bool {
	return m.halted != nil && m.halted()
}
func (m *fm) Init(c *Ctx) {
	if m.init != nil {
		m.init(c)
	}
}

// once returns a machine with rounds rs that halts after one phase.
func once(rs ...Round) *fm {
	m := &fm{rs: rs}
	done := false
	m.halted = func() bool { return done }
	last := &m.rs[len(m.rs)-1]
	upd := last.Update
	last.Update = func(c *Ctx, mb Mailbox) {
		if upd != nil {
			upd(c, mb)
		}
		done = true
	}
	return m
}

func TestProtocolErrors(t *testing.T) {
	noop := Round{Name: "noop"}
	for _, tc := range []struct {
		name  string
		procs func() []*fm
		want  ProtocolError
		msg   string
	}{
		{
			name: "duplicate",
			procs: func() []*fm {
				return []*fm{once(noop), once(noop, Round{Name: "Dup", Send: func(c *Ctx) {
					c.Send(0, "a")
					c.Send(1, "b")
					c.Send(0, "c")
				}})}
			},
			want: ProtocolError{Step: 1, Process: 1, Position: Position{Machine: "*compho.fm", Round: 1, RoundName: "Dup"},
				Func: "Send", Err: "second message to process 0 in one round"},
			msg: `compho: step 1: process 1: *compho.fm phase 0 round 1 ("Dup") Send: second message to process 0 in one round`,
		},
		{
			name: "broadcast after send",
			procs: func() []*fm {
				return []*fm{once(Round{Name: "B", Send: func(c *Ctx) {
					c.Send(0, "a")
					c.Broadcast("b")
				}})}
			},
			want: ProtocolError{Process: 0, Position: Position{Machine: "*compho.fm", RoundName: "B"},
				Func: "Send", Err: "second message to process 0 in one round"},
		},
		{
			name: "send from update",
			procs: func() []*fm {
				return []*fm{once(noop), once(Round{Name: "U", Update: func(c *Ctx, _ Mailbox) { c.Send(0, 1) }})}
			},
			want: ProtocolError{Process: 1, Position: Position{Machine: "*compho.fm", RoundName: "U"},
				Func: "Update", Err: "Send called in Update; only a round's Send function may send"},
		},
		{
			name: "broadcast from update",
			procs: func() []*fm {
				return []*fm{once(Round{Name: "U", Update: func(c *Ctx, _ Mailbox) { c.Broadcast(1) }})}
			},
			want: ProtocolError{Position: Position{Machine: "*compho.fm", RoundName: "U"},
				Func: "Update", Err: "Broadcast called in Update; only a round's Send function may send"},
		},
		{
			name: "send from init",
			procs: func() []*fm {
				m := once(noop)
				m.init = func(c *Ctx) { c.Send(0, 1) }
				return []*fm{once(noop), m}
			},
			want: ProtocolError{Process: 1, Position: Position{Machine: "*compho.fm", RoundName: "noop"},
				Func: "Init", Err: "Send called in Init; only a round's Send function may send"},
		},
		{
			name: "call from send",
			procs: func() []*fm {
				return []*fm{once(Round{Name: "S", Send: func(c *Ctx) { c.Call(once(noop)) }})}
			},
			want: ProtocolError{Position: Position{Machine: "*compho.fm", RoundName: "S"},
				Func: "Send", Err: "Call in Send; only a round's Update function may call a machine"},
		},
		{
			name: "call twice",
			procs: func() []*fm {
				return []*fm{once(Round{Name: "U", Update: func(c *Ctx, _ Mailbox) {
					c.Call(once(noop))
					c.Call(once(noop))
				}})}
			},
			want: ProtocolError{Position: Position{Machine: "*compho.fm", RoundName: "U"},
				Func: "Update", Err: "second Call in one Update (calling *compho.fm after *compho.fm)"},
		},
		{
			name: "call nil",
			procs: func() []*fm {
				return []*fm{once(Round{Name: "U", Update: func(c *Ctx, _ Mailbox) { c.Call(nil) }})}
			},
			want: ProtocolError{Position: Position{Machine: "*compho.fm", RoundName: "U"},
				Func: "Update", Err: "Call with a nil machine"},
		},
		{
			name: "pid out of range",
			procs: func() []*fm {
				return []*fm{once(noop), once(noop, noop, Round{Name: "S", Send: func(c *Ctx) { c.Send(2, 1) }})}
			},
			want: ProtocolError{Step: 2, Process: 1, Position: Position{Machine: "*compho.fm", Round: 2, RoundName: "S"},
				Func: "Send", Err: "Send to process 2, out of range [0, 2)"},
		},
		{
			name: "negative pid",
			procs: func() []*fm {
				return []*fm{once(Round{Name: "S", Send: func(c *Ctx) { c.Send(-1, 1) }})}
			},
			want: ProtocolError{Position: Position{Machine: "*compho.fm", RoundName: "S"},
				Func: "Send", Err: "Send to process -1, out of range [0, 1)"},
		},
		{
			name: "empty round table",
			procs: func() []*fm {
				return []*fm{once(noop), {}}
			},
			want: ProtocolError{Process: 1, Position: Position{Machine: "*compho.fm"},
				Func: "Rounds", Err: "empty round table"},
		},
		{
			name: "nested empty round table",
			procs: func() []*fm {
				return []*fm{once(noop, Round{Name: "U", Update: func(c *Ctx, _ Mailbox) { c.Call(&fm{}) }})}
			},
			want: ProtocolError{Step: 1, Position: Position{Depth: 1, Machine: "*compho.fm"},
				Func: "Rounds", Err: "empty round table"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(tc.procs(), Config[*fm]{})
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ProtocolError", err)
			}
			if *pe != tc.want {
				t.Errorf("err = %+v\nwant  %+v", *pe, tc.want)
			}
			if tc.msg != "" && err.Error() != tc.msg {
				t.Errorf("err = %q\nwant  %q", err.Error(), tc.msg)
			}
		})
	}
}

func TestCtxOutsideRun(t *testing.T) {
	// A Ctx kept after its call does nothing and does not panic.
	var kept *Ctx
	m := once(Round{Name: "S", Send: func(c *Ctx) { kept = c }})
	if _, err := Run([]*fm{m}, Config[*fm]{}); err != nil {
		t.Fatal(err)
	}
	kept.Send(0, 1)
	kept.Broadcast(1)
	kept.Call(once(Round{}))
	var zero Ctx
	zero.Send(0, 1)
	zero.Broadcast(1)
	zero.Call(nil)
	if zero.N() != 0 || zero.Step() != 0 || zero.Self() != 0 {
		t.Errorf("zero Ctx: N %d Step %d Self %d", zero.N(), zero.Step(), zero.Self())
	}
}

func TestMaxSteps(t *testing.T) {
	forever := func() []*fm {
		return []*fm{{rs: []Round{{Name: "R", Send: func(c *Ctx) { c.Broadcast(0) }}}}}
	}
	res, err := Run(forever(), Config[*fm]{MaxSteps: 5})
	if !errors.Is(err, ErrMaxSteps) {
		t.Fatalf("err = %v, want ErrMaxSteps", err)
	}
	if want := (Result{Steps: 5, Sent: 5, Delivered: 5}); res != want {
		t.Errorf("Result = %+v, want %+v", res, want)
	}
	res, err = Run(forever(), Config[*fm]{})
	if !errors.Is(err, ErrMaxSteps) || res.Steps != DefaultMaxSteps {
		t.Errorf("default bound: Steps = %d, err = %v", res.Steps, err)
	}
	// Finishing exactly at the bound is not an error.
	n := 0
	m := &fm{rs: []Round{{Name: "R", Update: func(*Ctx, Mailbox) { n++ }}}, halted: func() bool { return n == 3 }}
	if res, err := Run([]*fm{m}, Config[*fm]{MaxSteps: 3}); err != nil || res.Steps != 3 {
		t.Errorf("Steps = %d, err = %v; want 3, nil", res.Steps, err)
	}
}

func TestRunArguments(t *testing.T) {
	if _, err := Run([]*fm{}, Config[*fm]{}); err == nil || err.Error() != "compho: Run with no processes" {
		t.Errorf("no processes: err = %v", err)
	}
	if _, err := Run([]*fm{once(Round{})}, Config[*fm]{MaxSteps: -1}); err == nil || err.Error() != "compho: negative MaxSteps -1" {
		t.Errorf("negative MaxSteps: err = %v", err)
	}
	if _, err := Run([]Machine{once(Round{}), nil}, Config[Machine]{}); err == nil || err.Error() != "compho: process 1: nil machine" {
		t.Errorf("nil machine: err = %v", err)
	}
	// A nil observer is skipped.
	if _, err := Run([]*fm{once(Round{})}, Config[*fm]{Observers: []Observer[*fm]{nil}}); err != nil {
		t.Errorf("nil observer: err = %v", err)
	}
}

type badAdversary struct{ extra, dup bool }

func (a badAdversary) HeardOf(_ Step, p PID, senders []PID) []PID {
	if a.extra {
		return append(senders, 5)
	}
	if a.dup {
		return append(senders, senders[0])
	}
	return senders
}

func TestBadAdversary(t *testing.T) {
	procs := func() []*fm {
		return []*fm{once(Round{Name: "S", Send: func(c *Ctx) { c.Send(1, 0) }}), once(Round{Name: "S"})}
	}
	_, err := Run(procs(), Config[*fm]{Adversary: badAdversary{extra: true}})
	if want := "compho: step 0: adversary compho.badAdversary: HeardOf(receiver 1) returned 5, which is not a candidate sender"; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
	_, err = Run(procs(), Config[*fm]{Adversary: badAdversary{dup: true}})
	if want := "compho: step 0: adversary compho.badAdversary: HeardOf(receiver 1) returned 0 twice"; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

func TestMailboxOwnership(t *testing.T) {
	// Mailboxes are fresh: appending to one or keeping it does not
	// disturb another process or a later step.
	var kept []Mailbox
	mk := func() *fm {
		n := 0
		return &fm{
			rs: []Round{{
				Name: "R",
				Send: func(c *Ctx) { c.Broadcast(int(c.Self())*10 + c.Phase()) },
				Update: func(c *Ctx, mb Mailbox) {
					_ = append(mb, Envelope{From: 99})
					kept = append(kept, mb)
					n++
				},
			}},
			halted: func() bool { return n == 2 },
		}
	}
	if _, err := Run([]*fm{mk(), mk()}, Config[*fm]{}); err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, mb := range kept {
		for _, e := range mb {
			got = append(got, e.Msg.(int))
		}
	}
	if want := []int{0, 10, 0, 10, 1, 11, 1, 11}; !slices.Equal(got, want) {
		t.Errorf("kept mailboxes hold %v, want %v", got, want)
	}
}

func TestObserverErrorAndPosition(t *testing.T) {
	errStop := errors.New("stop")
	var seen []Position
	m := &fm{rs: []Round{{Name: "A"}, {Name: "B"}}}
	res, err := Run([]*fm{m}, Config[*fm]{Observers: []Observer[*fm]{func(s Step, ps []*fm) error {
		seen = append(seen, s.Position(0), s.Position(1), s.Position(-1))
		if s.Index == 2 {
			return errStop
		}
		return nil
	}}})
	if !errors.Is(err, errStop) || err.Error() != "compho: step 2: stop" {
		t.Errorf("err = %v", err)
	}
	if res.Steps != 3 {
		t.Errorf("Steps = %d, want 3", res.Steps)
	}
	want := []Position{
		{Machine: "*compho.fm", RoundName: "A"}, {}, {},
		{Machine: "*compho.fm", Round: 1, RoundName: "B"}, {}, {},
		{Machine: "*compho.fm", Phase: 1, RoundName: "A"}, {}, {},
	}
	if !slices.Equal(seen, want) {
		t.Errorf("positions %v, want %v", seen, want)
	}
	if got := seen[3].String(); got != "0:*compho.fm[0].B" {
		t.Errorf("String() = %q", got)
	}
	if got := (Position{Halted: true}).String(); got != "halted" {
		t.Errorf("String() = %q", got)
	}
}
