package compho

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
)

// PID is the identity of a process: 0, 1, ..., n-1 for a run of n processes.
type PID int

// An Envelope is one received message and its sender.
type Envelope struct {
	From PID
	Msg  any
}

// A Mailbox holds the messages a process heard of in one round, sorted by
// sender, at most one per sender. A Mailbox is freshly allocated for each
// step; an Update may keep it.
type Mailbox []Envelope

// Senders returns the senders of the messages in mb, in order: the HO set
// of the receiver restricted to the processes that sent it a message.
func (mb Mailbox) Senders() []PID {
	ps := make([]PID, len(mb))
	for i, e := range mb {
		ps[i] = e.From
	}
	return ps
}

// A Round is one round of a machine's round table.
type Round struct {
	// Name identifies the round in positions and errors.
	Name string
	// Source is where the round is in the asynchronous code the machine
	// was generated from, as file:line (make-HO sets it); it is shown in
	// the traces of an exploration.
	Source string
	// Send sends the round's messages with Ctx.Send and Ctx.Broadcast.
	// It should not change the state of the machine. Nil means sending
	// nothing.
	Send func(c *Ctx)
	// Update receives the messages of the round that were heard of and
	// updates the state. It may call one nested machine with Ctx.Call.
	// Nil means an update that does nothing.
	Update func(c *Ctx, mbox Mailbox)
}

// A Machine is one process's instance of a round-based protocol (a
// CompHO machine): it holds the process's local state for that protocol,
// and its Rounds are executed in order, over and over, one pass being a
// phase, until Halted reports true.
type Machine interface {
	// Rounds returns the round table. It is called once, when the machine
	// starts, and must not be empty.
	Rounds() []Round
	// Halted reports whether the process has left the machine's loop. It
	// is checked when the machine starts (after Init), after each of its
	// Updates, and when a nested machine it called returns.
	Halted() bool
}

// An Initer is a Machine with an initialization operation, called when
// the machine starts: at Run for root machines, at the end of the step of
// the calling Update for nested ones. Init may not send or call.
type Initer interface {
	Init(c *Ctx)
}

// A Returner is a Machine that is told when a nested machine it called
// returns (the RETURN of Fig. 3 of the paper): Returned is called with the
// returning machine when the call returns, at the end of the step in which
// the last machine of the call halted (see Calls in the package
// documentation), before the caller's own Halted is checked. It is where
// the caller runs the code that follows the call in its Update. Returned
// may not send or call.
type Returner interface {
	Returned(c *Ctx, m Machine)
}

type ctxMode uint8

const (
	modeNone ctxMode = iota
	modeInit
	modeSend
	modeUpdate
	modeReturned
)

func (m ctxMode) String() string {
	switch m {
	case modeInit:
		return "Init"
	case modeSend:
		return "Send"
	case modeUpdate:
		return "Update"
	case modeReturned:
		return "Returned"
	}
	return "outside Run"
}

// A Ctx is given to the Init, Send and Update functions of a process. It
// is valid only during the call it is passed to.
type Ctx struct {
	ex    *executor
	self  PID
	mode  ctxMode
	pos   Position
	call  Machine
	calls int
	err   *ProtocolError
}

// Self returns the identity of the process.
func (c *Ctx) Self() PID { return c.self }

// N returns the number of processes of the run.
func (c *Ctx) N() int {
	if c.ex == nil {
		return 0
	}
	return c.ex.n
}

// Phase returns the phase of the current machine: the number of passes
// over its round table it has completed.
func (c *Ctx) Phase() int { return c.pos.Phase }

// Round returns the index in the round table of the round being executed
// (0 in Init).
func (c *Ctx) Round() int { return c.pos.Round }

// Step returns the index of the current global step. In the Init of a root
// machine it is 0; in the Init of a nested machine it is the step whose
// Update called it.
func (c *Ctx) Step() int {
	if c.ex == nil {
		return 0
	}
	return c.ex.step
}

// Send sends msg to process to in the current round. It may be called only
// from a round's Send function, at most once per receiver and round.
func (c *Ctx) Send(to PID, msg any) {
	if c.mode != modeSend {
		c.fail("Send called in %s; only a round's Send function may send", c.mode)
		return
	}
	ex := c.ex
	if to < 0 || int(to) >= ex.n {
		c.fail("Send to process %d, out of range [0, %d)", to, ex.n)
		return
	}
	in := &ex.procs[to].inbox
	if k := len(*in); k > 0 && (*in)[k-1].From == c.self {
		c.fail("second message to process %d in one round", to)
		return
	}
	*in = append(*in, Envelope{From: c.self, Msg: msg})
	ex.sent++
}

// Broadcast sends msg to every process, the sender included (the Heard-Of
// convention). It may be called only from a round's Send function, and
// counts as a message to each receiver.
func (c *Ctx) Broadcast(msg any) {
	if c.mode != modeSend {
		c.fail("Broadcast called in %s; only a round's Send function may send", c.mode)
		return
	}
	for q := 0; q < c.ex.n && c.err == nil; q++ {
		c.Send(PID(q), msg)
	}
}

// Call runs the nested machine m to completion before this machine's next
// round: m starts (Init) at the end of the current step, runs its first
// round in the next step, and when it and the machines called with it
// have halted, the caller resumes at the round after the current one (see
// Calls in the package documentation). Call may be called only from a
// round's Update function, at most once per Update. A machine that is
// Halted when it starts runs no round.
func (c *Ctx) Call(m Machine) {
	if c.mode != modeUpdate {
		c.fail("Call in %s; only a round's Update function may call a machine", c.mode)
		return
	}
	if m == nil {
		c.fail("Call with a nil machine")
		return
	}
	c.calls++
	if c.calls > 1 {
		c.fail("second Call in one Update (calling %T after %T)", m, c.call)
		return
	}
	c.call = m
}

func (c *Ctx) fail(format string, args ...any) {
	if c.err != nil || c.ex == nil {
		return
	}
	c.err = &ProtocolError{
		Step:     c.ex.step,
		Process:  c.self,
		Position: c.pos,
		Func:     c.mode.String(),
		Err:      fmt.Sprintf(format, args...),
	}
}

// A ProtocolError reports a mistake of a machine detected by Run: a misuse
// of Ctx, or an empty round table.
type ProtocolError struct {
	Step     int      // the global step (see Ctx.Step)
	Process  PID      // the process at fault
	Position Position // the machine, phase and round it was executing
	Func     string   // "Init", "Send", "Update", or "Rounds"
	Err      string   // what went wrong
}

func (e *ProtocolError) Error() string {
	p := e.Position
	return fmt.Sprintf("compho: step %d: process %d: %s phase %d round %d (%q) %s: %s",
		e.Step, e.Process, p.Machine, p.Phase, p.Round, p.RoundName, e.Func, e.Err)
}

// ErrMaxSteps is returned by Run when the step bound is reached before all
// processes finished.
var ErrMaxSteps = errors.New("compho: step bound reached before all processes finished")

// DefaultMaxSteps is the step bound of a Config whose MaxSteps is 0.
const DefaultMaxSteps = 10000

// A Step identifies one global step (synchronized round) of a run. It is
// passed to adversaries and observers and is valid only during that call.
type Step struct {
	// Index is the number of global steps executed before this one.
	Index int

	ex *executor
}

// Position returns the position at which process p executes this step. It
// returns the zero Position for a p out of range.
func (s Step) Position(p PID) Position {
	if s.ex == nil || p < 0 || int(p) >= s.ex.n {
		return Position{}
	}
	return s.ex.pos[p]
}

// Stack returns the positions of all the frames of process p's machine
// stack in this step, from the root (depth 0) to the top, whose position
// is Position(p) without Waiting. A frame below the top is at the round
// whose Update called the frame above it (the nested machine runs inside
// that round, as an inner loop inside an iteration of the outer one). It
// returns nil for a process that has finished or a p out of range. The
// slice is valid only during the call the Step is passed to.
func (s Step) Stack(p PID) []Position {
	if s.ex == nil || p < 0 || int(p) >= s.ex.n {
		return nil
	}
	return s.ex.stack[p]
}

// A Position locates a process in a step: the top frame of its machine
// stack. A process that has finished has Halted set and the other fields
// zero. A process that waits for a call to return (see the package
// documentation) has Waiting set: it runs nothing in the step, and the
// other fields locate its top frame, which is where it resumes: for a
// caller whose called machine has halted, that machine, one round past
// the last one it ran.
type Position struct {
	Depth     int    // 0 for the root machine, 1 for a machine it called, ...
	Machine   string // the machine's type, as printed by %T
	Phase     int    // completed passes over the machine's round table
	Round     int    // index in the round table
	RoundName string // the Name of that round
	Halted    bool   // the process has finished
	Waiting   bool   // the process waits for a call to return
	// Idle is set for a Tagger whose tag is ahead of the step's: it
	// jumped over the step's round, sends nothing and is not updated.
	Idle bool
}

func (p Position) String() string {
	if p.Halted {
		return "halted"
	}
	s := fmt.Sprintf("%d:%s[%d].%s", p.Depth, p.Machine, p.Phase, p.RoundName)
	if p.Waiting {
		s += " (waiting)"
	}
	if p.Idle {
		s += " (idle)"
	}
	return s
}

// An Observer is called after every global step, after all updates (and
// the returns and calls they entailed), with the root machines of the
// processes, indexed by PID. It must not modify procs. A non-nil error
// stops the run: Run returns it wrapped with the step index.
type Observer[M Machine] func(s Step, procs []M) error

// A Config sets the environment of a run.
type Config[M Machine] struct {
	// Adversary chooses the HO sets. Nil means NoLoss.
	Adversary Adversary
	// MaxSteps bounds the number of global steps; 0 means
	// DefaultMaxSteps, and a negative value is an error. Reaching the
	// bound before all processes finished makes Run return ErrMaxSteps
	// (finishing in the last allowed step is not an error).
	MaxSteps int
	// Observers are called after every step, in order.
	Observers []Observer[M]
	// Start, if not nil, is called once every machine has started (after
	// their Inits), before the first step, with Step.Index 0; an error
	// stops the run.
	Start Observer[M]
	// ByIteration runs Taggers as other machines, every process in the
	// same pass of its round table at each step, whatever its tag: a
	// message of a later tag then reaches a process that is behind in the
	// same pass, where its jump takes it (see Tagger). By default Taggers
	// are aligned by tag.
	ByIteration bool
}

// A Result summarizes a run.
type Result struct {
	// Steps is the number of global steps executed, including the one
	// during which an error stopped the run.
	Steps int
	// Sent is the number of messages sent.
	Sent int
	// Delivered is the number of messages put in mailboxes. The others
	// were lost to the adversary or not delivered because their receiver
	// was at another position or finished.
	Delivered int
}

// Run runs the processes procs (process p is procs[p]) in lock step until
// all have finished, as described in the package documentation. It returns
// ErrMaxSteps if the step bound is reached, a *ProtocolError for a mistake
// of a machine, and the error of an observer wrapped with the step index.
func Run[M Machine](procs []M, cfg Config[M]) (Result, error) {
	if len(procs) == 0 {
		return Result{}, errors.New("compho: Run with no processes")
	}
	if cfg.MaxSteps < 0 {
		return Result{}, fmt.Errorf("compho: negative MaxSteps %d", cfg.MaxSteps)
	}
	maxSteps := cfg.MaxSteps
	if maxSteps == 0 {
		maxSteps = DefaultMaxSteps
	}
	adv := cfg.Adversary
	if adv == nil {
		adv = NoLoss()
	}
	ex := newExecutor(len(procs), adv)
	ex.byIteration = cfg.ByIteration
	for i, m := range procs {
		if Machine(m) == nil {
			return Result{}, fmt.Errorf("compho: process %d: nil machine", i)
		}
		if err := ex.push(&ex.procs[i], m, nil); err != nil {
			return ex.result(), err
		}
		ex.settle(&ex.procs[i])
	}
	if cfg.Start != nil {
		ex.positions()
		if err := cfg.Start(Step{ex: ex}, procs); err != nil {
			return ex.result(), fmt.Errorf("compho: start: %w", err)
		}
	}
	for ex.running() {
		if ex.step >= maxSteps {
			return ex.result(), ErrMaxSteps
		}
		if err := ex.runStep(); err != nil {
			ex.step++
			return ex.result(), err
		}
		s := Step{Index: ex.step, ex: ex}
		ex.step++
		for _, obs := range cfg.Observers {
			if obs == nil {
				continue
			}
			if err := obs(s, procs); err != nil {
				return ex.result(), fmt.Errorf("compho: step %d: %w", s.Index, err)
			}
		}
	}
	return ex.result(), nil
}

// A frame is one machine on a process's stack.
type frame struct {
	m      Machine
	typ    reflect.Type
	name   string
	rounds []Round
	phase  int
	round  int
	call   *call // the call that pushed the frame; nil for a root
	// The phase and round of the last round the frame ran: for a frame
	// below the top, the round whose Update called the frame above.
	ranPhase, ranRound int
	// For a Tagger, the machine and its tag; round is the tag's last
	// component and phase stays 0.
	tagger Tagger
	tag    Tag
}

// A call is one synchronized machine call (the INIT and RETURN rules of
// Fig. 3): the processes that executed a step at the same position, when
// at least one of them called a machine in its Update. Its members are
// the callers (in every machine they called) and the others of the
// position that did not halt; all of them wait until every machine the
// callers called has halted, and then resume together.
type call struct {
	members []int // in increasing PID order
	open    int   // callers whose called machine has not halted yet
}

type proc struct {
	stack []frame
	ctx   Ctx
	inbox []Envelope // messages sent to this process in the current step, by sender
	mbox  Mailbox
	group int   // processes at the same position have the same group; -1 if not running this step
	wait  *call // the call the process waits for; nil if it runs
}

type executor struct {
	byIteration bool // Config.ByIteration
	n           int
	adv         Adversary
	procs       []proc
	step        int
	pos         []Position
	stack       [][]Position // the stack of each process at the start of the step
	reps        []int        // a representative process of each group
	calls       []*call      // the call made by each group in the current step, if any
	ready       []*call      // calls whose machines have all halted, to return

	senders   []PID
	cand      []int // cand[p] == token: p is a candidate sender of the current receiver
	heard     []int // heard[p] == token: the adversary returned p
	token     int
	offsets   []int
	sent      int
	delivered int
}

func newExecutor(n int, adv Adversary) *executor {
	ex := &executor{
		n:       n,
		adv:     adv,
		procs:   make([]proc, n),
		pos:     make([]Position, n),
		stack:   make([][]Position, n),
		senders: make([]PID, 0, n),
		cand:    make([]int, n),
		heard:   make([]int, n),
		offsets: make([]int, n+1),
	}
	for i := range ex.procs {
		ex.procs[i].ctx = Ctx{ex: ex, self: PID(i)}
	}
	return ex
}

func (ex *executor) result() Result {
	return Result{Steps: ex.step, Sent: ex.sent, Delivered: ex.delivered}
}

func (ex *executor) running() bool {
	for i := range ex.procs {
		if len(ex.procs[i].stack) > 0 {
			return true
		}
	}
	return false
}

func (f *frame) position(depth int) Position {
	return Position{
		Depth:     depth,
		Machine:   f.name,
		Phase:     f.phase,
		Round:     f.round,
		RoundName: f.rounds[f.round].Name,
	}
}

// push starts machine m on process p, called in call k (nil for a
// root): it pushes a frame and calls Init.
func (ex *executor) push(p *proc, m Machine, k *call) error {
	c := &p.ctx
	name := fmt.Sprintf("%T", m)
	rounds := m.Rounds()
	if len(rounds) == 0 {
		c.pos = Position{Depth: len(p.stack), Machine: name}
		c.mode = modeNone
		c.err = nil
		c.fail("empty round table")
		c.err.Func = "Rounds"
		return c.err
	}
	var tg Tagger
	if !ex.byIteration {
		tg, _ = m.(Tagger)
	}
	p.stack = append(p.stack, frame{m: m, typ: reflect.TypeOf(m), name: name, rounds: rounds, call: k, tagger: tg})
	if tg != nil && k != nil {
		c.pos = Position{Depth: len(p.stack) - 1, Machine: name, RoundName: rounds[0].Name}
		c.mode = modeNone
		c.err = nil
		c.fail("a Tagger is called; machines aligned by tag are root machines")
		c.err.Func = "Call"
		return c.err
	}
	if in, ok := m.(Initer); ok {
		c.pos = p.stack[len(p.stack)-1].position(len(p.stack) - 1)
		c.mode = modeInit
		in.Init(c)
		c.mode = modeNone
		if c.err != nil {
			return c.err
		}
	}
	if tg != nil && !m.Halted() {
		c.mode = modeInit
		ex.retag(p, &p.stack[len(p.stack)-1], nil)
		c.mode = modeNone
		if c.err != nil {
			return c.err
		}
	}
	return nil
}

// settle checks whether the top machine of running process p is Halted.
// A halted root is popped: the process has finished. A halted nested
// machine stays on the stack and p waits for the others of its call (the
// RETURN barrier); when it was the last one running, the call is ready to
// return.
func (ex *executor) settle(p *proc) {
	if p.wait != nil || len(p.stack) == 0 {
		return
	}
	top := &p.stack[len(p.stack)-1]
	if !top.m.Halted() {
		return
	}
	if k := top.call; k != nil {
		p.wait = k
		if k.open--; k.open == 0 {
			ex.ready = append(ex.ready, k)
		}
		return
	}
	p.stack[0] = frame{}
	p.stack = p.stack[:0]
}

// returnCalls makes the ready calls return, in the order they became
// ready: every member resumes; a caller pops its halted machine, tells
// its own machine (Returned), whose Halted is then checked, which may
// make an enclosing call ready in turn.
func (ex *executor) returnCalls() error {
	defer func() { ex.ready = ex.ready[:0] }()
	for j := 0; j < len(ex.ready); j++ { // settle may append
		k := ex.ready[j]
		for _, i := range k.members {
			p := &ex.procs[i]
			p.wait = nil
			if p.stack[len(p.stack)-1].call != k {
				continue // a member that did not call: it resumes
			}
			m := p.stack[len(p.stack)-1].m
			p.stack[len(p.stack)-1] = frame{}
			p.stack = p.stack[:len(p.stack)-1]
			if r, ok := p.stack[len(p.stack)-1].m.(Returner); ok {
				c := &p.ctx
				c.pos = p.stack[len(p.stack)-1].position(len(p.stack) - 1)
				c.mode = modeReturned
				r.Returned(c, m)
				c.mode = modeNone
				if c.err != nil {
					return c.err
				}
			}
			ex.settle(p)
		}
	}
	return nil
}

func sameStack(a, b []frame) bool {
	if len(a) != len(b) {
		return false
	}
	for i := len(a) - 1; i >= 0; i-- {
		if a[i].tagger != nil && b[i].tagger != nil {
			// Aligned by tag: the passes they made do not matter.
			if a[i].typ != b[i].typ || !slices.Equal(a[i].tag, b[i].tag) {
				return false
			}
			continue
		}
		if a[i].typ != b[i].typ || a[i].phase != b[i].phase || a[i].round != b[i].round || !slices.Equal(a[i].tag, b[i].tag) {
			return false
		}
	}
	return true
}

// runStep executes one global step.
func (ex *executor) runStep() error {
	ex.positions()
	if err := ex.send(); err != nil {
		return err
	}
	if err := ex.environment(); err != nil {
		return err
	}
	if err := ex.updateAll(); err != nil {
		return err
	}
	return ex.advance()
}

// positions computes the positions and groups of the step. A Tagger
// ahead of the lowest tag is idle (see Tagger).
func (ex *executor) positions() {
	ex.reps = ex.reps[:0]
	// The tags are read again: a System's user may have changed the
	// machines between steps.
	for i := range ex.procs {
		p := &ex.procs[i]
		if len(p.stack) == 1 && p.stack[0].tagger != nil {
			f := &p.stack[0]
			f.tag = append(slices.Clone(f.tagger.Tag()), f.round)
		}
	}
	low := ex.lowestTag()
	for i := range ex.procs {
		p := &ex.procs[i]
		ex.stack[i] = ex.stack[i][:0]
		for d := range p.stack {
			pos := p.stack[d].position(d)
			if d < len(p.stack)-1 {
				f := &p.stack[d]
				pos.Phase, pos.Round, pos.RoundName = f.ranPhase, f.ranRound, f.rounds[f.ranRound].Name
			}
			ex.stack[i] = append(ex.stack[i], pos)
		}
		p.group = -1
		if len(p.stack) == 0 {
			ex.pos[i] = Position{Halted: true}
			continue
		}
		ex.pos[i] = ex.stack[i][len(p.stack)-1]
		if p.wait != nil {
			ex.pos[i].Waiting = true
			continue
		}
		if f := &p.stack[0]; len(p.stack) == 1 && f.tagger != nil && f.tag.Compare(low) != 0 {
			ex.pos[i].Idle = true
			continue
		}
		for g, r := range ex.reps {
			if sameStack(ex.procs[r].stack, p.stack) {
				p.group = g
				break
			}
		}
		if p.group < 0 {
			p.group = len(ex.reps)
			ex.reps = append(ex.reps, i)
		}
	}
}

// send runs the Send functions of the running processes.
func (ex *executor) send() error {
	for i := range ex.procs {
		p := &ex.procs[i]
		if p.group < 0 {
			continue
		}
		top := &p.stack[len(p.stack)-1]
		if send := top.rounds[top.round].Send; send != nil {
			c := &p.ctx
			c.pos = ex.pos[i]
			c.mode = modeSend
			send(c)
			c.mode = modeNone
			if c.err != nil {
				return c.err
			}
		}
	}
	return nil
}

// environment asks the adversary for the HO sets and fills the mailboxes.
func (ex *executor) environment() error {
	s := Step{Index: ex.step, ex: ex}
	// The mailboxes of the step share one fresh array, allocated for the
	// worst case (no loss); each is capped so appends do not overlap.
	total := 0
	for i := range ex.procs {
		total += len(ex.procs[i].inbox)
	}
	var all []Envelope
	if total > 0 {
		all = make([]Envelope, 0, total)
	}
	for i := range ex.procs {
		p := &ex.procs[i]
		ex.offsets[i] = len(all)
		if p.group < 0 || len(p.inbox) == 0 {
			continue
		}
		ex.token++
		tok := ex.token
		senders := ex.senders[:0]
		for _, e := range p.inbox {
			if ex.procs[e.From].group == p.group {
				senders = append(senders, e.From)
				ex.cand[e.From] = tok
			}
		}
		if len(senders) == 0 {
			continue
		}
		heard := ex.adv.HeardOf(s, PID(i), senders[:len(senders):len(senders)])
		for _, h := range heard {
			if h < 0 || int(h) >= ex.n || ex.cand[h] != tok {
				return fmt.Errorf("compho: step %d: adversary %T: HeardOf(receiver %d) returned %d, which is not a candidate sender", ex.step, ex.adv, i, h)
			}
			if ex.heard[h] == tok {
				return fmt.Errorf("compho: step %d: adversary %T: HeardOf(receiver %d) returned %d twice", ex.step, ex.adv, i, h)
			}
			ex.heard[h] = tok
		}
		for _, e := range p.inbox {
			if ex.heard[e.From] == tok {
				all = append(all, e)
			}
		}
	}
	ex.offsets[ex.n] = len(all)
	ex.delivered += len(all)
	for i := range ex.procs {
		p := &ex.procs[i]
		// The stale entries are overwritten in the next step.
		p.inbox = p.inbox[:0]
		if a, b := ex.offsets[i], ex.offsets[i+1]; a < b {
			p.mbox = all[a:b:b]
		} else {
			p.mbox = nil
		}
	}
	return nil
}

// updateAll runs the Update functions of the running processes.
func (ex *executor) updateAll() error {
	for i := range ex.procs {
		if err := ex.update(i); err != nil {
			return err
		}
	}
	return nil
}

// update runs the Update function of process i, if it runs, with its
// mailbox.
func (ex *executor) update(i int) error {
	p := &ex.procs[i]
	if p.group < 0 {
		return nil
	}
	top := &p.stack[len(p.stack)-1]
	c := &p.ctx
	c.pos = ex.pos[i]
	c.call, c.calls = nil, 0
	if update := top.rounds[top.round].Update; update != nil {
		c.mode = modeUpdate
		update(c, p.mbox)
		c.mode = modeNone
	}
	p.mbox = nil
	if c.err != nil {
		return c.err
	}
	return nil
}

// advance advances the processes that ran the step, pushes the machines
// they called and returns the calls that are complete.
func (ex *executor) advance() error {
	// Advance, call, return. The calls of the step are created first, so
	// that their members are listed in PID order.
	ex.calls = ex.calls[:0]
	for range ex.reps {
		ex.calls = append(ex.calls, nil)
	}
	for i := range ex.procs {
		p := &ex.procs[i]
		if p.group >= 0 && p.ctx.call != nil {
			if ex.calls[p.group] == nil {
				ex.calls[p.group] = &call{}
			}
			// Counted before any callee starts: one halted at its start
			// must not make the call return while others are starting.
			ex.calls[p.group].open++
		}
	}
	for i := range ex.procs {
		p := &ex.procs[i]
		if p.group < 0 {
			continue
		}
		top := &p.stack[len(p.stack)-1]
		c := &p.ctx
		if top.tagger != nil && c.call != nil {
			c.fail("Call from a Tagger; machines aligned by tag do not call machines")
			c.err.Func = "Update"
			return c.err
		}
		prev := top.tag
		top.ranPhase, top.ranRound = top.phase, top.round
		top.round++
		if top.round == len(top.rounds) {
			top.round = 0
			top.phase++
		}
		k := ex.calls[p.group]
		if m := c.call; m != nil {
			c.call = nil
			k.members = append(k.members, i)
			if err := ex.push(p, m, k); err != nil {
				return err
			}
			ex.settle(p)
			continue
		}
		ex.settle(p)
		if err := ex.afterUpdate(p, top, prev); err != nil {
			return err
		}
		if k != nil && p.wait == nil && len(p.stack) > 0 {
			// Its machine goes on after the call, like the callers'.
			k.members = append(k.members, i)
			p.wait = k
		}
	}
	return ex.returnCalls()
}
