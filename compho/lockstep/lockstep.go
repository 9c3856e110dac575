// Package lockstep runs an asynchronous implementation of a round-based
// protocol with lock-step delivery, under the heard-of sets of a
// [compho.Adversary]: the asynchronous counterpart of [compho.Run].
//
// It exists for differential tests of the make-HO rewriting ('ccvet
// makeho'). The paper's guarantee (Drăgoi and Widder, "Reducing asynchrony
// to synchronized rounds", Theorem 3) is that the generated machine and the
// asynchronous code are indistinguishable: every process goes through the
// same sequence of algorithm-variable values, up to stuttering. Run the
// original code over a [Net] and the generated machine on [compho.Run],
// with the same inputs and the same adversary, record each process's
// state at its round boundaries, and compare.
//
// Processes that communicate over Go channels, with timers, cannot call an
// [Endpoint]; [RunChans] delivers their messages in lock step from
// outside, in a testing/synctest bubble, and returns the heard-of sets
// they had, for [compho.Scripted]. [RunNested] does the same for
// protocols with nested loops, whose global steps cannot be computed from
// the tags: it orders rounds by position (a [Where], the phases and rounds
// of the loops a process is in) and returns heard-of sets by position,
// which [NestedScript.Adversary] replays on compho.
//
// # Delivery
//
// Each process tells the Net which global step it is in through a step
// function, computed from its synchronization variables (for a tag
// (round, step) with two steps per round, 2*round+int(step) minus the
// first round's index). A message is sent in the step its sender is in. A
// process receives in a step s by calling [Endpoint.Recv]: the first call
// in s waits until every other process has reached a reception of a step
// at or after s, or has finished ([Endpoint.Done]), so that all messages of
// s have been sent; it then asks the adversary for the receiver's HO set
// among the senders of step-s messages to it, exactly as compho.Run does,
// and delivers the messages of those senders in increasing sender order.
// When they are all consumed, Recv reports ok == false, which the
// asynchronous code sees as a timeout and which ends its reception loop.
// Messages of a step a process does not receive in are lost for it, as in
// compho.Run for a process at another position.
//
// The adversary is called in an order that depends on the scheduling of
// the goroutines, so it must be a function of its arguments, as
// [compho.NoLoss], [compho.RandomLoss], [compho.Scripted] and
// [compho.LossySync] are. The [compho.Step] it gets has the step's Index
// and no positions.
//
// Nested loops: the global step of a round of an inner loop whose length
// differs per phase is not a function of the tags. A Net of [NewNested]
// takes positions instead ([Net.EndpointAt], a [Where] per process: the
// phase and round of each loop it is in), ordered by [Where.Compare]: a
// reception at w waits until every other process has reached a reception
// at or after w, or has finished, and the adversary is called with a step
// index computed from w. A process that leaves an inner loop early thus
// waits in its next reception until the others have left it, as compho's
// return barrier makes the machine wait; [ByPosition] gives compho.Run the
// same heard-of sets.
//
// A process that sends two messages to the same receiver in one step,
// sends in a step it has already received in, or whose step decreases
// breaks the lock-step discipline; the Net records the first such error
// (see [Net.Err]) and goes on.
package lockstep

import (
	"fmt"
	"slices"
	"sync"

	"github.com/ccvet/ccvet/compho"
)

// A Net connects n asynchronous processes 0..n-1 in lock step.
type Net struct {
	n     int
	adv   compho.Adversary
	index func(Where) int    // the step index the adversary is called with
	name  func(Where) string // a position in errors

	mu      sync.Mutex
	changed *sync.Cond           // signalled when a process reaches a reception or finishes
	at      []Where              // the position of each process's latest reception; nil before the first
	done    []bool               // the process has finished
	sent    map[string][]message // messages by position
	err     error
}

// A message is one message sent at some position.
type message struct {
	from, to compho.PID
	msg      any
}

// New returns a Net for n processes whose heard-of sets adv chooses, at
// steps given by Endpoint. A nil adv means [compho.NoLoss].
func New(n int, adv compho.Adversary) *Net {
	return newNet(n, adv, func(w Where) int { return w[0].Phase }, func(w Where) string { return fmt.Sprintf("step %d", w[0].Phase) })
}

// NewNested returns a Net for n processes with nested loops, at positions
// given by EndpointAt (see RunNested): a step is a position, and the
// adversary adv is called with the step index index(w) for position w (nil
// means a hash of the position, see NestedConfig.Index). Run the
// generated machines with [ByPosition](adv, index) to give them the same
// heard-of sets.
func NewNested(n int, adv compho.Adversary, index func(Where) int) *Net {
	if index == nil {
		index = hashWhere
	}
	return newNet(n, adv, index, func(w Where) string { return "position " + w.String() })
}

func newNet(n int, adv compho.Adversary, index func(Where) int, name func(Where) string) *Net {
	if adv == nil {
		adv = compho.NoLoss()
	}
	nt := &Net{n: n, adv: adv, index: index, name: name, at: make([]Where, n), done: make([]bool, n), sent: make(map[string][]message)}
	nt.changed = sync.NewCond(&nt.mu)
	return nt
}

// ByPosition returns the adversary that gives a compho run the heard-of
// sets adv gives over a Net of NewNested(n, adv, index): it calls adv with
// a Step whose Index is index of the receiver's position
// ([compho.Step.Stack]) and which has no positions, as the Net does.
func ByPosition(adv compho.Adversary, index func(Where) int) compho.Adversary {
	if adv == nil {
		adv = compho.NoLoss()
	}
	if index == nil {
		index = hashWhere
	}
	return byPosition{adv, index}
}

type byPosition struct {
	adv   compho.Adversary
	index func(Where) int
}

func (a byPosition) HeardOf(s compho.Step, p compho.PID, senders []compho.PID) []compho.PID {
	return a.adv.HeardOf(compho.Step{Index: a.index(WhereOf(s.Stack(p)))}, p, senders)
}

// N returns the number of processes.
func (nt *Net) N() int { return nt.n }

// Err returns the first violation of the lock-step discipline, if any.
func (nt *Net) Err() error {
	nt.mu.Lock()
	defer nt.mu.Unlock()
	return nt.err
}

func (nt *Net) fail(format string, args ...any) {
	if nt.err == nil {
		nt.err = fmt.Errorf("lockstep: "+format, args...)
	}
}

// Endpoint returns process p's access to a Net of New. step reports the
// global step p is in; it is called from p's own goroutine only, during
// Send, Broadcast and Recv, so it may read p's state without locking.
func (nt *Net) Endpoint(p compho.PID, step func() int) *Endpoint {
	return nt.EndpointAt(p, func() Where { return Where{{Phase: step()}} })
}

// EndpointAt returns process p's access to a Net of NewNested. where
// reports the position p is at, as Endpoint's step does.
func (nt *Net) EndpointAt(p compho.PID, where func() Where) *Endpoint {
	return &Endpoint{nt: nt, self: p, where: where}
}

// An Endpoint is one process's access to a Net. Its methods must be called
// from the process's goroutine only.
type Endpoint struct {
	nt     *Net
	self   compho.PID
	where  func() Where
	cur    Where             // the position of the current reception, nil before the first
	inbox  []compho.Envelope // what is left to deliver at cur
	sent   map[compho.PID]int
	sentAt string // the position of the sends recorded in sent
}

// Self returns the process's identity.
func (e *Endpoint) Self() compho.PID { return e.self }

// Send sends m to process to at the current step or position.
func (e *Endpoint) Send(to compho.PID, m any) {
	w := e.where()
	nt := e.nt
	nt.mu.Lock()
	defer nt.mu.Unlock()
	if to < 0 || int(to) >= nt.n {
		nt.fail("process %d sent to process %d, out of range [0, %d)", e.self, to, nt.n)
		return
	}
	if e.cur != nil && w.Compare(e.cur) <= 0 {
		nt.fail("process %d sent in %s after receiving in %s", e.self, nt.name(w), nt.name(e.cur))
		return
	}
	key := w.String()
	if e.sent == nil || e.sentAt != key {
		e.sent, e.sentAt = make(map[compho.PID]int), key
	}
	if e.sent[to]++; e.sent[to] > 1 {
		nt.fail("process %d sent a second message to process %d in %s", e.self, to, nt.name(w))
		return
	}
	nt.sent[key] = append(nt.sent[key], message{from: e.self, to: to, msg: m})
}

// Broadcast sends m to every process, the sender included.
func (e *Endpoint) Broadcast(m any) {
	for q := range e.nt.n {
		e.Send(compho.PID(q), m)
	}
}

// Recv returns the next message of the current step or position, in
// increasing order of senders; ok is false when there is none left. The
// first call in a step waits for the other processes as described in the
// package documentation.
func (e *Endpoint) Recv() (m any, from compho.PID, ok bool) {
	w := e.where()
	nt := e.nt
	if e.cur == nil || w.Compare(e.cur) != 0 {
		nt.mu.Lock()
		if e.cur != nil && w.Compare(e.cur) < 0 {
			nt.fail("process %d received in %s after %s", e.self, nt.name(w), nt.name(e.cur))
			nt.mu.Unlock()
			return nil, 0, false
		}
		e.cur = slices.Clone(w)
		nt.at[e.self] = e.cur
		nt.changed.Broadcast()
		for nt.behind(w) {
			nt.changed.Wait()
		}
		e.inbox = nt.deliver(w, e.self)
		nt.mu.Unlock()
	}
	if len(e.inbox) == 0 {
		return nil, 0, false
	}
	env := e.inbox[0]
	e.inbox = e.inbox[1:]
	return env.Msg, env.From, true
}

// behind reports whether a process that has not finished has not yet
// received at w or after it, so may still send at w. nt.mu is held.
func (nt *Net) behind(w Where) bool {
	for q, at := range nt.at {
		if !nt.done[q] && (at == nil || at.Compare(w) < 0) {
			return true
		}
	}
	return false
}

// deliver returns the mailbox of p at w. nt.mu is held.
func (nt *Net) deliver(w Where, p compho.PID) []compho.Envelope {
	var mine []message
	for _, m := range nt.sent[w.String()] {
		if m.to == p {
			mine = append(mine, m)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	slices.SortStableFunc(mine, func(a, b message) int { return int(a.from - b.from) })
	senders := make([]compho.PID, len(mine))
	for i, m := range mine {
		senders[i] = m.from
	}
	heard := nt.adv.HeardOf(compho.Step{Index: nt.index(w)}, p, slices.Clone(senders))
	var mbox []compho.Envelope
	for _, m := range mine {
		if slices.Contains(heard, m.from) {
			mbox = append(mbox, compho.Envelope{From: m.from, Msg: m.msg})
		}
	}
	for _, q := range heard {
		if !slices.Contains(senders, q) {
			nt.fail("the adversary put process %d in the HO set of process %d in %s, but it sent nothing", q, p, nt.name(w))
		}
	}
	return mbox
}

// Done tells the Net that the process has finished: it receives no more,
// and the others no longer wait for it.
func (e *Endpoint) Done() {
	nt := e.nt
	nt.mu.Lock()
	defer nt.mu.Unlock()
	nt.done[e.self] = true
	nt.changed.Broadcast()
}
