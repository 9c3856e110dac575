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
// A process that sends two messages to the same receiver in one step,
// sends in a step it has already received in, or whose step decreases
// breaks the lock-step discipline; the Net records the first such error
// (see [Net.Err]) and goes on.
package lockstep

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/ccvet/ccvet/compho"
)

// A Net connects n asynchronous processes 0..n-1 in lock step.
type Net struct {
	n   int
	adv compho.Adversary

	mu      sync.Mutex
	changed *sync.Cond        // signalled when a process reaches a reception or finishes
	at      []int             // the step of each process's latest reception; math.MaxInt once done
	sent    map[int][]message // messages by step
	err     error
}

// A message is one message sent in some step.
type message struct {
	from, to compho.PID
	msg      any
}

// New returns a Net for n processes whose heard-of sets adv chooses. A
// nil adv means [compho.NoLoss].
func New(n int, adv compho.Adversary) *Net {
	if adv == nil {
		adv = compho.NoLoss()
	}
	nt := &Net{n: n, adv: adv, at: make([]int, n), sent: make(map[int][]message)}
	for i := range nt.at {
		nt.at[i] = -1
	}
	nt.changed = sync.NewCond(&nt.mu)
	return nt
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

// Endpoint returns process p's access to the Net. step reports the global
// step p is in; it is called from p's own goroutine only, during Send,
// Broadcast and Recv, so it may read p's state without locking.
func (nt *Net) Endpoint(p compho.PID, step func() int) *Endpoint {
	return &Endpoint{nt: nt, self: p, step: step, cur: -1}
}

// An Endpoint is one process's access to a Net. Its methods must be called
// from the process's goroutine only.
type Endpoint struct {
	nt    *Net
	self  compho.PID
	step  func() int
	cur   int               // the step of the current reception, -1 before the first
	inbox []compho.Envelope // what is left to deliver in step cur
	sent  map[compho.PID]int
	sentS int // the step of the sends recorded in sent
}

// Self returns the process's identity.
func (e *Endpoint) Self() compho.PID { return e.self }

// Send sends m to process to in the current step.
func (e *Endpoint) Send(to compho.PID, m any) {
	s := e.step()
	nt := e.nt
	nt.mu.Lock()
	defer nt.mu.Unlock()
	if to < 0 || int(to) >= nt.n {
		nt.fail("process %d sent to process %d, out of range [0, %d)", e.self, to, nt.n)
		return
	}
	if s <= e.cur {
		nt.fail("process %d sent in step %d after receiving in step %d", e.self, s, e.cur)
		return
	}
	if e.sent == nil || e.sentS != s {
		e.sent, e.sentS = make(map[compho.PID]int), s
	}
	if e.sent[to]++; e.sent[to] > 1 {
		nt.fail("process %d sent a second message to process %d in step %d", e.self, to, s)
		return
	}
	nt.sent[s] = append(nt.sent[s], message{from: e.self, to: to, msg: m})
}

// Broadcast sends m to every process, the sender included.
func (e *Endpoint) Broadcast(m any) {
	for q := range e.nt.n {
		e.Send(compho.PID(q), m)
	}
}

// Recv returns the next message of the current step, in increasing order
// of senders; ok is false when there is none left. The first call in a
// step waits for the other processes as described in the package
// documentation.
func (e *Endpoint) Recv() (m any, from compho.PID, ok bool) {
	s := e.step()
	nt := e.nt
	if s != e.cur {
		nt.mu.Lock()
		if s < e.cur {
			nt.fail("process %d received in step %d after step %d", e.self, s, e.cur)
			nt.mu.Unlock()
			return nil, 0, false
		}
		e.cur = s
		nt.at[e.self] = s
		nt.changed.Broadcast()
		for slices.ContainsFunc(nt.at, func(t int) bool { return t < s }) {
			nt.changed.Wait()
		}
		e.inbox = nt.deliver(s, e.self)
		nt.mu.Unlock()
	}
	if len(e.inbox) == 0 {
		return nil, 0, false
	}
	env := e.inbox[0]
	e.inbox = e.inbox[1:]
	return env.Msg, env.From, true
}

// deliver returns the mailbox of p in step s. nt.mu is held.
func (nt *Net) deliver(s int, p compho.PID) []compho.Envelope {
	var mine []message
	for _, m := range nt.sent[s] {
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
	heard := nt.adv.HeardOf(compho.Step{Index: s}, p, slices.Clone(senders))
	var mbox []compho.Envelope
	for _, m := range mine {
		if slices.Contains(heard, m.from) {
			mbox = append(mbox, compho.Envelope{From: m.from, Msg: m.msg})
		}
	}
	for _, q := range heard {
		if !slices.Contains(senders, q) {
			nt.fail("the adversary put process %d in the HO set of process %d in step %d, but it sent nothing", q, p, s)
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
	nt.at[e.self] = math.MaxInt
	nt.changed.Broadcast()
}
