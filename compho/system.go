package compho

import (
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"slices"
)

// MaxSystemProcs is the largest number of processes of a System: HO sets
// are bit masks.
const MaxSystemProcs = 64

// A Set is a set of processes as a bit mask: process p is in s if bit p
// is set.
type Set uint64

// Has reports whether p is in s.
func (s Set) Has(p PID) bool { return p >= 0 && p < MaxSystemProcs && s&(1<<p) != 0 }

// Len returns the number of processes in s.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// PIDs returns the processes of s in increasing order.
func (s Set) PIDs() []PID {
	ps := make([]PID, 0, s.Len())
	for x := uint64(s); x != 0; x &= x - 1 {
		ps = append(ps, PID(bits.TrailingZeros64(x)))
	}
	return ps
}

// SetOf returns the set of the processes ps.
func SetOf(ps ...PID) Set {
	var s Set
	for _, p := range ps {
		if p >= 0 && p < MaxSystemProcs {
			s |= 1 << p
		}
	}
	return s
}

// A System is a lock-step run driven one stage at a time, for exploring
// its executions: Begin runs the Send functions of a step and tells each
// receiver's candidate senders; Update runs one process's Update with the
// HO set chosen for it; Finish advances the processes and ends the step.
// A process's state can be saved (Snapshot) and a system assembled from
// saved states (Assemble), so that a state can be forked. The steps
// behave exactly as the steps of Run (see the package documentation);
// Run's step index (Ctx.Step) is the one given to Assemble, not part of
// the state.
//
// Forking needs machines that implement Cloner, and keying a state
// needs Keyer; the machines make-HO writes implement both.
type System struct {
	ex    *executor
	roots []Machine
	began bool
	cands []Set
}

// A Local is the saved state of one process: its stack of machines, their
// phases and rounds, and the call it waits for. A Local owns its machines:
// Assemble copies them.
type Local struct {
	frames []localFrame
	root   Machine // the root machine, also once the process finished
	// The call the process waits for: its members, and the depth of the
	// machines it called.
	waitMembers Set
	waitDepth   int
}

type localFrame struct {
	m                  Machine
	typ                reflect.Type
	name               string
	phase, round       int
	ranPhase, ranRound int
	tag                Tag // of a Tagger
	callMembers        Set // the members of the call that pushed the frame; 0 for a root
}

// Root returns the root machine of the process.
func (l *Local) Root() Machine { return l.root }

// NewSystem starts the processes procs (process p is procs[p]) as Run
// does: each root machine is pushed and initialized.
func NewSystem(procs []Machine) (*System, error) {
	if len(procs) == 0 {
		return nil, errors.New("compho: NewSystem with no processes")
	}
	if len(procs) > MaxSystemProcs {
		return nil, fmt.Errorf("compho: NewSystem with %d processes; at most %d", len(procs), MaxSystemProcs)
	}
	s := &System{ex: newSystemExecutor(len(procs)), roots: append([]Machine(nil), procs...)}
	for i, m := range procs {
		if m == nil {
			return nil, fmt.Errorf("compho: process %d: nil machine", i)
		}
		if err := s.ex.push(&s.ex.procs[i], m, nil); err != nil {
			return nil, err
		}
		s.ex.settle(&s.ex.procs[i])
	}
	return s, nil
}

// newSystemExecutor returns the executor of a System: Taggers run aligned
// by iteration, since an exploration may abstract the phase counters
// (Key), which a tag order would not survive.
func newSystemExecutor(n int) *executor {
	ex := newExecutor(n, NoLoss())
	ex.byIteration = true
	return ex
}

// N returns the number of processes.
func (s *System) N() int { return s.ex.n }

// Done reports whether every process has finished.
func (s *System) Done() bool { return !s.ex.running() }

// Root returns the root machine of process p.
func (s *System) Root(p PID) Machine { return s.roots[p] }

// Position returns the position of process p at the start of the current
// step (after Begin) or of the next one.
func (s *System) Position(p PID) Position {
	if !s.began {
		s.ex.positions()
	}
	return s.ex.pos[p]
}

// Stack returns the positions of the frames of process p, from the root
// (see Step.Stack); nil if p finished.
func (s *System) Stack(p PID) []Position {
	if !s.began {
		s.ex.positions()
	}
	return s.ex.stack[p]
}

// Begin starts a step: it computes the positions and runs the Send
// functions of the running processes. It returns, for every process, its
// candidate senders (the running processes at its position that sent it a
// message; the empty set for a process that does not run) and whether it
// runs the step (neither finished nor waiting).
func (s *System) Begin() (cands []Set, running []bool, err error) {
	if s.began {
		return nil, nil, errors.New("compho: Begin twice in one step")
	}
	ex := s.ex
	ex.positions()
	if err := ex.send(); err != nil {
		return nil, nil, err
	}
	s.began = true
	s.cands = make([]Set, ex.n)
	running = make([]bool, ex.n)
	for i := range ex.procs {
		p := &ex.procs[i]
		running[i] = p.group >= 0
		if p.group < 0 {
			continue
		}
		for _, e := range p.inbox {
			if ex.procs[e.From].group == p.group {
				s.cands[i] |= 1 << e.From
			}
		}
	}
	return s.cands, running, nil
}

// Update runs the Update function of process p, which runs the step,
// with the messages of the senders of heard (intersected with its
// candidates). It returns whether the Update called a machine.
func (s *System) Update(p PID, heard Set) (called bool, err error) {
	if !s.began {
		return false, errors.New("compho: Update before Begin")
	}
	pr := &s.ex.procs[p]
	heard &= s.cands[p]
	var mb Mailbox
	if heard != 0 {
		mb = make(Mailbox, 0, heard.Len())
		for _, e := range pr.inbox {
			if heard.Has(e.From) {
				mb = append(mb, e)
			}
		}
	}
	pr.mbox = mb
	s.ex.delivered += len(mb)
	if err := s.ex.update(int(p)); err != nil {
		return false, err
	}
	return pr.group >= 0 && pr.ctx.call != nil, nil
}

// Finish ends the step: the processes that ran advance, called machines
// are pushed and complete calls return.
func (s *System) Finish() error {
	if !s.began {
		return errors.New("compho: Finish before Begin")
	}
	s.began = false
	ex := s.ex
	for i := range ex.procs {
		ex.procs[i].inbox = ex.procs[i].inbox[:0]
	}
	err := ex.advance()
	ex.step++
	return err
}

// Simple reports whether every running process has only its root machine
// on its stack, so that a process's step does not depend on the others'
// (no call can return): then FinishOne may be used.
func (s *System) Simple() bool {
	for i := range s.ex.procs {
		if len(s.ex.procs[i].stack) > 1 {
			return false
		}
	}
	return true
}

// FinishOne advances process p alone, after its Update, when the system
// is Simple and p's Update called no machine: its round moves on, and it
// finishes if its machine halted. It lets an explorer compute the
// outcome of each receiver separately; the step is not ended.
func (s *System) FinishOne(p PID) error {
	pr := &s.ex.procs[p]
	if pr.group < 0 {
		return nil
	}
	if len(pr.stack) != 1 || pr.ctx.call != nil {
		return fmt.Errorf("compho: FinishOne(%d) on a process with a call", p)
	}
	top := &pr.stack[0]
	prev := top.tag
	top.ranPhase, top.ranRound = top.phase, top.round
	if top.round++; top.round == len(top.rounds) {
		top.round, top.phase = 0, top.phase+1
	}
	s.ex.settle(pr)
	return s.ex.afterUpdate(pr, top, prev)
}

// Key writes the state of process p to k: the machine type, phase
// (a Counter, reset to zero if k abstracts counters) and round of each
// frame, the call it belongs to and waits
// for, and the Key of each machine (of the root only once it finished);
// between Update and Finish, also the machine its Update called.
// Every machine must implement Keyer.
func (s *System) Key(p PID, k *Key) error {
	pr := &s.ex.procs[p]
	k.Uint(uint64(len(pr.stack)))
	if len(pr.stack) == 0 {
		kr, ok := s.roots[p].(Keyer)
		if !ok {
			return fmt.Errorf("compho: %T does not implement Keyer", s.roots[p])
		}
		kr.Key(k)
		return nil
	}
	for d := range pr.stack {
		f := &pr.stack[d]
		k.String(f.name)
		Counter(k, &f.phase)
		k.Uint(uint64(f.round))
		if d < len(pr.stack)-1 {
			Counter(k, &f.ranPhase)
			k.Uint(uint64(f.ranRound))
		}
		k.Uint(uint64(membersOf(f.call)))
		kr, ok := f.m.(Keyer)
		if !ok {
			return fmt.Errorf("compho: %T does not implement Keyer", f.m)
		}
		kr.Key(k)
	}
	k.Uint(uint64(membersOf(pr.wait)))
	// Between Update and Finish: the machine the Update called.
	if m := pr.ctx.call; m != nil && pr.group >= 0 && s.began {
		kr, ok := m.(Keyer)
		if !ok {
			return fmt.Errorf("compho: %T does not implement Keyer", m)
		}
		k.String(fmt.Sprintf("%T", m))
		kr.Key(k)
	}
	return nil
}

// Source returns where the round that process p executes in the current
// step (see Position) is in the user's source, as file:line: the Source
// of the round (set by make-HO); empty if unknown or p is not running.
func (s *System) Source(p PID) string {
	if !s.began {
		s.ex.positions()
	}
	pr := &s.ex.procs[p]
	if len(pr.stack) == 0 || pr.wait != nil {
		return ""
	}
	top := &pr.stack[len(pr.stack)-1]
	return top.rounds[top.round].Source
}

func membersOf(c *call) Set {
	if c == nil {
		return 0
	}
	var s Set
	for _, m := range c.members {
		s |= 1 << m
	}
	return s
}

// Snapshot returns the state of process p, between steps. It hands p's
// machines over to the Local: p must not run again in this System
// (Replace it, or drop the System).
func (s *System) Snapshot(p PID) *Local {
	pr := &s.ex.procs[p]
	l := &Local{root: s.roots[p], frames: make([]localFrame, len(pr.stack))}
	for d := range pr.stack {
		f := &pr.stack[d]
		l.frames[d] = localFrame{m: f.m, typ: f.typ, name: f.name, phase: f.phase, round: f.round,
			ranPhase: f.ranPhase, ranRound: f.ranRound, callMembers: membersOf(f.call), tag: f.tag}
	}
	if k := pr.wait; k != nil {
		l.waitMembers = membersOf(k)
		l.waitDepth = len(pr.stack)
		if pr.stack[len(pr.stack)-1].call == k {
			l.waitDepth--
		}
	}
	return l
}

// clone copies the machines of l, sharing what they share, and returns
// the frames of the copy (their calls not set) and its root.
func (l *Local) clone() ([]frame, Machine, error) {
	cp := NewCopier()
	copyOf := func(m Machine) (Machine, error) {
		c, ok := m.(Cloner)
		if !ok {
			return nil, fmt.Errorf("compho: %T does not implement Cloner", m)
		}
		return c.Clone(cp), nil
	}
	root, err := copyOf(l.root)
	if err != nil {
		return nil, nil, err
	}
	fs := make([]frame, len(l.frames))
	for d, lf := range l.frames {
		m := root
		if d > 0 {
			if m, err = copyOf(lf.m); err != nil {
				return nil, nil, err
			}
		}
		rounds := m.Rounds()
		if len(rounds) == 0 {
			return nil, nil, fmt.Errorf("compho: %s: empty round table", lf.name)
		}
		fs[d] = frame{m: m, typ: lf.typ, name: lf.name, rounds: rounds, phase: lf.phase, round: lf.round,
			ranPhase: lf.ranPhase, ranRound: lf.ranRound, tag: lf.tag}
		if tg, ok := m.(Tagger); ok && lf.tag != nil {
			fs[d].tagger = tg
		}
	}
	return fs, root, nil
}

// Replace sets the state of process p, which runs the current step, to a
// copy of l, taken at the start of the step (a Snapshot of the same
// process with the same position). It lets an explorer run p's Update
// again from the same state with another HO set, also after FinishOne
// (which may have finished p).
func (s *System) Replace(p PID, l *Local) error {
	pr := &s.ex.procs[p]
	fs, root, err := l.clone()
	if err != nil {
		return err
	}
	for d := range fs {
		switch {
		case d < len(pr.stack):
			fs[d].call = pr.stack[d].call
		case l.frames[d].callMembers != 0:
			return fmt.Errorf("compho: Replace(%d) with a state of another position", p)
		}
	}
	pr.stack = fs
	s.roots[p] = root
	return nil
}

// Assemble builds a system from the states of its processes (process p
// is locals[p]), copying their machines, at step index step. The calls
// are rebuilt from the members the Locals record.
func Assemble(locals []*Local, step int) (*System, error) {
	n := len(locals)
	if n == 0 || n > MaxSystemProcs {
		return nil, fmt.Errorf("compho: Assemble with %d processes", n)
	}
	s := &System{ex: newSystemExecutor(n), roots: make([]Machine, n)}
	s.ex.step = step
	type callID struct {
		depth   int
		members Set
	}
	calls := make(map[callID]*call)
	callOf := func(id callID) *call {
		k := calls[id]
		if k == nil {
			k = &call{}
			for _, m := range id.members.PIDs() {
				k.members = append(k.members, int(m))
			}
			calls[id] = k
		}
		return k
	}
	for i, l := range locals {
		fs, root, err := l.clone()
		if err != nil {
			return nil, err
		}
		s.roots[i] = root
		for d := range fs {
			if m := l.frames[d].callMembers; m != 0 {
				fs[d].call = callOf(callID{d, m})
			}
		}
		pr := &s.ex.procs[i]
		pr.stack = fs
		if l.waitMembers != 0 {
			pr.wait = callOf(callID{l.waitDepth, l.waitMembers})
		}
	}
	// A caller whose called machine has not halted keeps its call open.
	for i := range s.ex.procs {
		pr := &s.ex.procs[i]
		for d := 1; d < len(pr.stack); d++ {
			if k := pr.stack[d].call; k != nil && !(d == len(pr.stack)-1 && pr.wait == k) {
				k.open++
			}
		}
	}
	return s, nil
}

// Frames returns the number of machines on the stack of the process whose
// state l is: 0 once it finished, 1 when it runs its root machine alone.
func (l *Local) Frames() int { return len(l.frames) }

// Waiting reports whether the process waits for a call to return.
func (l *Local) Waiting() bool { return l.waitMembers != 0 }

// AtBoundary reports whether the process has finished, or runs its root
// machine alone, at round 0 of a phase, waiting for no call.
func (l *Local) AtBoundary() bool {
	return len(l.frames) == 0 || len(l.frames) == 1 && l.frames[0].round == 0 && l.waitMembers == 0
}

// SameRound reports whether two processes that run their root machine
// alone (Frames 1, not Waiting) are at the same position: the same
// machine type, phase and round (and tag, for a Tagger), so that they exchange messages in the
// next step.
func SameRound(a, b *Local) bool {
	fa, fb := &a.frames[0], &b.frames[0]
	if fa.tag != nil && fb.tag != nil {
		return fa.typ == fb.typ && slices.Equal(fa.tag, fb.tag) // aligned by tag
	}
	return fa.typ == fb.typ && fa.phase == fb.phase && fa.round == fb.round
}

// Message returns the message process from sent process to in the
// current step, after Begin; ok is false if it sent none.
func (s *System) Message(from, to PID) (msg any, ok bool) {
	for _, e := range s.ex.procs[to].inbox {
		if e.From == from {
			return e.Msg, true
		}
	}
	return nil, false
}

// An Anonymous machine declares that its Send and Update functions do
// not read the process's identity (Ctx.Self), so that two processes in
// the same state send the same messages and, hearing the same messages
// from the same senders, reach the same state. An exploration then
// computes the outcomes of such processes once. The senders' identities
// in a mailbox may still be read.
type Anonymous interface {
	Machine
	Anonymous()
}

// A Symmetric machine declares that it is Anonymous and that its Update
// depends only on the multiset of the messages it hears: not on who sent
// them, nor on their order in the mailbox (OneThirdRule counts values).
// An exploration then computes a receiver's outcome once per multiset of
// messages heard, whatever HO set brings it.
type Symmetric interface {
	Anonymous
	Symmetric()
}

// A Starter starts processes one at a time, as NewSystem starts them,
// reusing one executor: an exploration starts every process of hundreds
// of thousands of initial states.
type Starter struct{ sys *System }

// NewStarter returns a Starter of processes of a system of n processes.
func NewStarter(n int) (*Starter, error) {
	if n <= 0 || n > MaxSystemProcs {
		return nil, fmt.Errorf("compho: NewStarter with %d processes", n)
	}
	return &Starter{sys: &System{ex: newSystemExecutor(n), roots: make([]Machine, n)}}, nil
}

// Start starts machine m as process p, as NewSystem does (pushed and
// initialized), and returns a System of which only process p may be used
// (Key, Snapshot, Root), until the next Start.
func (s *Starter) Start(p PID, m Machine) (*System, error) {
	if p < 0 || int(p) >= s.sys.ex.n {
		return nil, fmt.Errorf("compho: Start of process %d of %d", p, s.sys.ex.n)
	}
	if m == nil {
		return nil, fmt.Errorf("compho: process %d: nil machine", p)
	}
	ex := s.sys.ex
	pr := &ex.procs[p]
	pr.stack, pr.wait = nil, nil
	s.sys.roots[p] = m
	if err := ex.push(pr, m, nil); err != nil {
		return nil, err
	}
	ex.settle(pr)
	return s.sys, nil
}
