package lockstep

import (
	"errors"
	"slices"
	"testing/synctest"
	"time"

	"github.com/ccvet/ccvet/compho"
)

// Channel-based processes. Protocols written over Go channels (a process
// receives from its own inbox channel in a select with a timer, and sends
// into the inbox channels of the others) cannot call an Endpoint. RunChans
// delivers their messages in lock step instead, from outside: it runs in
// a testing/synctest bubble, where the processes' timers use the bubble's
// fake clock, and acts only when every process is blocked.
//
// The processes send into channels that the test reads (Drain): nothing
// reaches a process until RunChans puts it into its inbox. When all
// processes are blocked in a reception, RunChans delivers to each process
// the messages of the step it receives in, in increasing order of senders,
// as one batch filtered by the adversary, once every live process has
// reached that step (so all of them have been sent); when no such batch
// is left, it delivers what is there to the processes still waiting (the
// others are behind), and then lets the fake clock run until the timers
// fire, which ends the receptions. A process thus receives in each of its
// receptions exactly one batch of messages of that step: the heard-of set
// of that step, which RunChans returns as a script for [compho.Scripted],
// so that the generated machine can be run on [compho.Run] with exactly
// the heard-of sets the asynchronous code had.
//
// The adversary decides for each message alone (it is called with one
// sender at a time), as [compho.RandomLoss] does.

// A Packet is one message sent by a channel-based process.
type Packet struct {
	From, To compho.PID
	Step     int    // the step it was sent in, computed from its tag
	Deliver  func() // puts the message into the inbox of To; must not block
}

// A ChanConfig is the environment of RunChans.
type ChanConfig struct {
	N         int
	Adversary compho.Adversary // nil means compho.NoLoss()
	// Timeout is the longest reception timeout of the processes: the
	// clock advances by it when every process waits for its timer.
	Timeout time.Duration
	// Drain returns the messages sent since its last call, read from the
	// processes' outgoing channels without blocking.
	Drain func() []Packet
	// Step returns the step process p is receiving in. It is called only
	// when every process is blocked or done, so it may read p's state.
	Step func(p compho.PID) int
	// Done reports whether process p has returned.
	Done func(p compho.PID) bool
	// Quiet, if not nil, is called whenever every process is blocked or
	// done (to record the processes' states).
	Quiet func()
	// MaxTicks bounds the number of times the clock advances; 0 means
	// 10000.
	MaxTicks int
}

// ErrTicks is returned by RunChans when the processes are still running
// after MaxTicks timeouts.
var ErrTicks = errors.New("lockstep: too many timeouts")

// RunChans delivers the messages of channel-based processes in lock step
// until they are all done, as described above. It must be called from
// the root goroutine of a testing/synctest bubble in which the processes
// run. It returns the heard-of sets delivered: script[s][p] is the set of
// senders of the batch p received in step s.
func RunChans(cfg ChanConfig) ([]map[compho.PID][]compho.PID, error) {
	at := func(s int) Where { return Where{{Phase: s}} }
	heard, err := runQuiet(quietConfig{
		n: cfg.N, adv: cfg.Adversary, timeout: cfg.Timeout, maxTicks: cfg.MaxTicks,
		drain: func() []NestedPacket {
			var out []NestedPacket
			for _, pk := range cfg.Drain() {
				out = append(out, NestedPacket{From: pk.From, To: pk.To, At: at(pk.Step), Deliver: pk.Deliver})
			}
			return out
		},
		where: func(p compho.PID) Where { return at(cfg.Step(p)) },
		done:  cfg.Done,
		quiet: cfg.Quiet,
		index: func(w Where) int { return w[0].Phase },
	})
	var script []map[compho.PID][]compho.PID
	for _, h := range heard {
		s := h.at[0].Phase
		for len(script) <= s {
			script = append(script, make(map[compho.PID][]compho.PID))
		}
		script[s][h.p] = h.from
	}
	return script, err
}

// quietConfig is the environment of runQuiet, the delivery loop of
// RunChans and RunNested.
type quietConfig struct {
	n        int
	adv      compho.Adversary
	timeout  time.Duration
	maxTicks int
	drain    func() []NestedPacket
	where    func(p compho.PID) Where
	done     func(p compho.PID) bool
	quiet    func()
	index    func(w Where) int
}

// A heard is the batch one process received at one position.
type heard struct {
	p    compho.PID
	at   Where
	from []compho.PID
}

// runQuiet delivers, whenever every process is blocked or done, to each
// process the batch of the position it receives at, once no live process
// is at an earlier position; when there is none, to every waiting process
// what there is; and when nothing is left to deliver it advances the clock
// by the timeout. It returns the batches delivered, in delivery order.
func runQuiet(cfg quietConfig) ([]heard, error) {
	adv := cfg.adv
	if adv == nil {
		adv = compho.NoLoss()
	}
	maxTicks := cfg.maxTicks
	if maxTicks == 0 {
		maxTicks = 10000
	}
	type key struct {
		p compho.PID
		w string
	}
	pending := make(map[key][]NestedPacket)
	delivered := make(map[key]bool)
	var out []heard
	deliver := func(k key, w Where) {
		pk := pending[k]
		delete(pending, k)
		delivered[k] = true
		slices.SortStableFunc(pk, func(a, b NestedPacket) int { return int(a.From - b.From) })
		h := heard{p: k.p, at: w, from: []compho.PID{}}
		step := compho.Step{Index: cfg.index(w)}
		for i, m := range pk {
			if i > 0 && m.From == pk[i-1].From {
				continue // a second message of the same sender: not in lock step; lost
			}
			if len(adv.HeardOf(step, k.p, []compho.PID{m.From})) == 1 {
				h.from = append(h.from, m.From)
				m.Deliver()
			}
		}
		out = append(out, h)
	}
	stuck := false
	for ticks := 0; ; {
		synctest.Wait()
		// The positions first: the test may need them to place the
		// packets (see NestedConfig.Where).
		live := make(map[compho.PID]Where)
		var low Where
		for p := range compho.PID(cfg.n) {
			if cfg.done(p) {
				continue
			}
			w := cfg.where(p)
			live[p] = w
			if low == nil || w.Compare(low) < 0 {
				low = w
			}
		}
		for _, m := range cfg.drain() {
			k := key{m.To, m.At.String()}
			if !delivered[k] {
				pending[k] = append(pending[k], m)
			}
		}
		if cfg.quiet != nil {
			cfg.quiet()
		}
		if len(live) == 0 {
			return out, nil
		}
		progress := false
		for p := range compho.PID(cfg.n) {
			w, ok := live[p]
			if k := (key{p, w.String()}); ok && !delivered[k] && (w.Compare(low) <= 0 || stuck) {
				deliver(k, w)
				progress = true
			}
		}
		switch {
		case progress:
			stuck = false
		case !stuck:
			stuck = true // deliver to the processes that are ahead what there is
		default:
			if ticks++; ticks > maxTicks {
				return out, ErrTicks
			}
			time.Sleep(cfg.timeout)
			stuck = false
		}
	}
}
