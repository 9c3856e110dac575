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
	adv := cfg.Adversary
	if adv == nil {
		adv = compho.NoLoss()
	}
	maxTicks := cfg.MaxTicks
	if maxTicks == 0 {
		maxTicks = 10000
	}
	type key struct {
		p compho.PID
		s int
	}
	pending := make(map[key][]Packet)
	delivered := make(map[key]bool)
	var script []map[compho.PID][]compho.PID
	record := func(k key, heard []compho.PID) {
		for len(script) <= k.s {
			script = append(script, make(map[compho.PID][]compho.PID))
		}
		script[k.s][k.p] = heard
	}
	deliver := func(k key) {
		pk := pending[k]
		delete(pending, k)
		delivered[k] = true
		slices.SortStableFunc(pk, func(a, b Packet) int { return int(a.From - b.From) })
		heard := []compho.PID{}
		for i, m := range pk {
			if i > 0 && m.From == pk[i-1].From {
				continue // a second message of the same sender: not in lock step; lost
			}
			if len(adv.HeardOf(compho.Step{Index: k.s}, k.p, []compho.PID{m.From})) == 1 {
				heard = append(heard, m.From)
				m.Deliver()
			}
		}
		record(k, heard)
	}
	stuck := false
	for ticks := 0; ; {
		synctest.Wait()
		for _, m := range cfg.Drain() {
			k := key{m.To, m.Step}
			if !delivered[k] {
				pending[k] = append(pending[k], m)
			}
		}
		if cfg.Quiet != nil {
			cfg.Quiet()
		}
		steps := make(map[compho.PID]int)
		low := -1
		for p := range compho.PID(cfg.N) {
			if cfg.Done(p) {
				continue
			}
			s := cfg.Step(p)
			steps[p] = s
			if low < 0 || s < low {
				low = s
			}
		}
		if len(steps) == 0 {
			return script, nil
		}
		progress := false
		for p, s := range steps {
			if k := (key{p, s}); !delivered[k] && (s <= low || stuck) {
				deliver(k)
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
				return script, ErrTicks
			}
			time.Sleep(cfg.Timeout)
			stuck = false
		}
	}
}
