package lockstep

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ccvet/ccvet/compho"
)

// Nested loops. When a round-based loop calls a nested one, the global
// step of a round is no longer a function of the tags of one process:
// how many steps the nested loop of a phase takes depends on the run.
// Under compho's call semantics (the INIT and RETURN rules, see the
// compho package documentation), the position of a process, the stack of
// its machines' phases and rounds, orders the rounds instead: processes
// at the same position are in the same step, and a run goes through the
// positions in increasing order (see Where.Compare). RunNested is
// RunChans with positions in place of steps: a message is delivered to a
// process receiving at the position it was sent at, once no live process
// is at an earlier position, and the heard-of sets it returns are keyed by
// position, which the generated machines replay with
// NestedScript.Adversary.

// A Level is where a process is in one machine of its stack, counted as
// compho counts them: Phase is the number of completed passes over the
// machine's round table (for a loop, the iterations completed since the
// loop started), Round the index of the round in the table.
type Level struct{ Phase, Round int }

// A Where is the position of a process: one Level per machine of its
// stack, from the root (the outer loop) to the innermost loop it is in.
type Where []Level

// String renders w as "phase.round" levels separated by slashes, the key
// of NestedScript.
func (w Where) String() string {
	var b strings.Builder
	for i, l := range w {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(strconv.Itoa(l.Phase))
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(l.Round))
	}
	return b.String()
}

// Compare orders positions in the order a run goes through them: level by
// level from the root, by phase then round, and a position before the
// positions of the machines called from it (a prefix first). It returns
// -1, 0 or +1.
func (w Where) Compare(v Where) int {
	for i := range min(len(w), len(v)) {
		if c := cmp.Compare(w[i].Phase, v[i].Phase); c != 0 {
			return c
		}
		if c := cmp.Compare(w[i].Round, v[i].Round); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(w), len(v))
}

// WhereOf returns the Where of a compho machine stack, as returned by
// compho.Step.Stack.
func WhereOf(stack []compho.Position) Where {
	w := make(Where, len(stack))
	for i, pos := range stack {
		w[i] = Level{Phase: pos.Phase, Round: pos.Round}
	}
	return w
}

// TagWhere returns the position of a process whose machine is a
// compho.Tagger at tag t (compho.Step.Tag): one level per phase
// component, the last of them with the round (the tag's last component),
// so that Where.Compare orders positions as their tags. The asynchronous
// side of a differential test computes it from the process's tag
// variables.
func TagWhere(t compho.Tag) Where {
	switch len(t) {
	case 0:
		return nil
	case 1:
		return Where{{Round: t[0]}}
	}
	w := make(Where, len(t)-1)
	for i := range len(t) - 2 {
		w[i] = Level{Phase: t[i]}
	}
	w[len(t)-2] = Level{Phase: t[len(t)-2], Round: t[len(t)-1]}
	return w
}

// A NestedPacket is one message sent by a channel-based process with
// nested loops.
type NestedPacket struct {
	From, To compho.PID
	At       Where  // the position it was sent at, computed from its tags
	Deliver  func() // puts the message into the inbox of To; must not block
}

// A NestedConfig is the environment of RunNested; the fields are those of
// ChanConfig, with positions in place of steps.
type NestedConfig struct {
	N         int
	Adversary compho.Adversary // nil means compho.NoLoss()
	// Timeout is the longest reception timeout of the processes.
	Timeout time.Duration
	// Drain returns the messages sent since its last call.
	Drain func() []NestedPacket
	// Where returns the position of the reception process p is blocked
	// in. It is called when every process is blocked or done, for every
	// process that is not done, before Drain.
	Where func(p compho.PID) Where
	// Done reports whether process p has returned.
	Done func(p compho.PID) bool
	// Quiet, if not nil, is called whenever every process is blocked or
	// done, after Drain.
	Quiet func()
	// Index, if not nil, gives the step index the adversary is called
	// with for a position; nil means a hash of the position, which suits
	// adversaries that only hash the index, like compho.RandomLoss.
	Index func(w Where) int
	// MaxTicks bounds the number of times the clock advances; 0 means
	// 10000.
	MaxTicks int
}

// A NestedScript holds the heard-of sets of a RunNested run:
// script[p][w.String()] is the set of senders of the batch process p
// received at position w.
type NestedScript map[compho.PID]map[string][]compho.PID

// RunNested delivers the messages of channel-based processes with nested
// loops in lock step until they are all done, as RunChans does, a
// position taking the place of a step (see the comment above Level). It
// must be called from the root goroutine of a testing/synctest bubble in
// which the processes run. It returns the heard-of sets delivered.
func RunNested(cfg NestedConfig) (NestedScript, error) {
	index := cfg.Index
	if index == nil {
		index = hashWhere
	}
	heard, err := runQuiet(quietConfig{
		n: cfg.N, adv: cfg.Adversary, timeout: cfg.Timeout, maxTicks: cfg.MaxTicks,
		drain: cfg.Drain, where: cfg.Where, done: cfg.Done, quiet: cfg.Quiet, index: index,
	})
	script := make(NestedScript)
	for _, h := range heard {
		if script[h.p] == nil {
			script[h.p] = make(map[string][]compho.PID)
		}
		script[h.p][h.at.String()] = h.from
	}
	return script, err
}

// hashWhere is the default step index of a position: non-negative and the
// same in every run.
func hashWhere(w Where) int {
	h := fnv.New64a()
	h.Write([]byte(w.String()))
	return int(h.Sum64() >> 1)
}

// Adversary returns the compho adversary that replays the script: the HO
// set of receiver p in a step is script[p][w], w the position of p in that
// step (compho.Step.Stack, or TagWhere of compho.Step.Tag for a
// compho.Tagger), intersected with the candidate senders. For a
// position the script does not have (p did not receive there), the HO
// set is chosen by then; nil means compho.NoLoss().
func (sc NestedScript) Adversary(then compho.Adversary) compho.Adversary {
	if then == nil {
		then = compho.NoLoss()
	}
	return &nestedReplay{script: sc, then: then}
}

type nestedReplay struct {
	script NestedScript
	then   compho.Adversary
}

func (r *nestedReplay) HeardOf(s compho.Step, p compho.PID, senders []compho.PID) []compho.PID {
	w := WhereOf(s.Stack(p))
	if t := s.Tag(p); t != nil {
		w = TagWhere(t)
	}
	ho, ok := r.script[p][w.String()]
	if !ok {
		return r.then.HeardOf(s, p, senders)
	}
	return slices.DeleteFunc(senders, func(q compho.PID) bool { return !slices.Contains(ho, q) })
}
